"""The Celery app bound to Flask, and enqueueing by task name.

Follows Flask's "Background Tasks with Celery" pattern: every task runs inside an app
context. The web side never imports a task body: it sends tasks by name, after the
transaction that made them necessary has committed.
"""

from __future__ import annotations

import logging

from celery import Celery, Task
from flask import Flask, current_app

log = logging.getLogger(__name__)

RESOLVE_CHANCE = "workers.tasks.resolve_chance"
SEND_MAIL = "workers.tasks.send_mail"
PROCESS_INBOUND = "workers.tasks.process_inbound"


def celery_init_app(app: Flask) -> Celery:
    """Create the Celery app from ``app.config["CELERY"]`` and store it in
    ``app.extensions["celery"]``; return it."""

    class FlaskTask(Task):
        """A task that runs inside the Flask app context."""

        def __call__(self, *args, **kwargs):
            with app.app_context():
                return self.run(*args, **kwargs)

    from arbiter import broker_fs

    broker_fs.register()
    celery_app = Celery(app.name, task_cls=FlaskTask)
    celery_app.config_from_object(app.config["CELERY"])
    celery_app.set_default()
    app.extensions["celery"] = celery_app
    return celery_app


def enqueue(task_name: str, *args) -> None:
    """Send task ``task_name`` with ``args``; a broker outage is logged, not raised
    (the beat sweeps pick up what was not sent)."""
    if not current_app.config.get("ENQUEUE", True):
        return
    try:
        current_app.extensions["celery"].send_task(task_name, args=list(args))
    except Exception:  # noqa: BLE001 - any broker failure: the sweep catches up
        log.warning("could not enqueue %s%r; the sweep will retry", task_name, args,
                    exc_info=True)
