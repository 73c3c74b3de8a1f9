"""The Celery app bound to Flask, and enqueueing by task name.

Follows Flask's "Background Tasks with Celery" pattern: every task runs inside an app
context. The web side never imports a task body: it sends tasks by name, after the
transaction that made them necessary has committed.
"""

from __future__ import annotations

import logging
import time

from celery import Celery, Task
from flask import Flask, current_app

from arbiter import broker_fs, settings

log = logging.getLogger(__name__)

RESOLVE_CHANCE = "workers.tasks.resolve_chance"
SEND_MAIL = "workers.tasks.send_mail"
PROCESS_INBOUND = "workers.tasks.process_inbound"
ADVANCE_TOURNAMENT = "workers.tasks.advance_tournament"
PLAY_BOT = "workers.tasks.play_bot"

ROUTES = {
    "workers.tasks.resolve_chance": {"queue": "chance"},
    "workers.tasks.sweep_chance": {"queue": "chance"},
    "workers.tasks.play_bot": {"queue": "chance"},
    "workers.tasks.sweep_clock": {"queue": "clock"},
    "workers.tasks.send_mail": {"queue": "mail"},
    "workers.tasks.sweep_outbox": {"queue": "mail"},
    "*webhook*": {"queue": "webhooks"},
}
"""Which queue each task goes to: dice and deadlines (``chance``, ``clock``), mail
(``mail``) and web hooks (``webhooks``) apart, so that a slow SMTP server or web hook
receiver never delays a roll, a timeout or another player's mail. The ``Procfile`` runs
one worker for each group; any other task goes to Celery's default queue ``celery``,
which the game worker also serves."""

GAME_QUEUES = ("chance", "clock", "celery")
"""The queues of the Procfile's ``worker`` process (dice, deadlines, everything else)."""

MAIL_QUEUES = ("mail",)
"""The queues of the Procfile's ``mailer`` process (outgoing mail)."""

HOOK_QUEUES = ("webhooks",)
"""The queues of the Procfile's ``hooks`` process (web hook deliveries and their sweep:
many threads, each waiting on a receiver, see ``arbiter.hooks.webhook_delivery``)."""


def celery_init_app(app: Flask) -> Celery:
    """Create the Celery app from ``app.config["CELERY"]`` and store it in
    ``app.extensions["celery"]``; return it."""

    class FlaskTask(Task):
        """A task that runs inside the Flask app context."""

        def __call__(self, *args, **kwargs):
            with app.app_context():
                return self.run(*args, **kwargs)

    broker_fs.register()
    celery_app = Celery(app.name, task_cls=FlaskTask)
    celery_app.config_from_object(app.config["CELERY"])
    celery_app.conf.task_routes = celery_app.conf.task_routes or ROUTES
    celery_app.set_default()
    app.extensions["celery"] = celery_app
    return celery_app


BROKER_PAUSE_SECONDS = 2.0
"""After a failed enqueue, this process sends nothing for this long: while the broker
is down, one request in each such span pays the publish retries, not every one."""

_broker_down_until = 0.0


def enqueue(task_name: str, *args) -> None:
    """Send task ``task_name`` with ``args``; a broker outage is logged, not raised
    (the beat sweeps pick up what was not sent)."""
    global _broker_down_until
    if not settings.current().service.enqueue:
        return
    if time.monotonic() < _broker_down_until:
        log.info("broker down: %s%r not sent; the sweep will send it", task_name, args)
        return
    try:
        current_app.extensions["celery"].send_task(task_name, args=list(args))
    except Exception:  # noqa: BLE001 - any broker failure: the sweep catches up
        _broker_down_until = time.monotonic() + BROKER_PAUSE_SECONDS
        log.warning("could not enqueue %s%r; the sweep will retry", task_name, args, exc_info=True)
