"""Separate queues (issue 16): dice and deadlines never wait behind mail or web hooks,
and every queue a task can go to is served by a process of the Procfile."""

from __future__ import annotations

from arbiter import queue
from tests import processes


def served() -> dict[str, set[str]]:
    """Return ``{Procfile process: queues it consumes}`` for its Celery workers."""
    out = {}
    for name, argv in processes.procfile().items():
        if argv[0] == "celery" and "worker" in argv:
            [option] = [a for a in argv if a.startswith("--queues=")]
            out[name] = set(option.split("=", 1)[1].split(","))
    return out


def test_every_routed_queue_and_the_default_queue_have_a_worker():
    """Given the routes, each queue (and Celery's default ``celery``) is consumed by
    exactly one Procfile worker."""
    workers = served()
    wanted = {r["queue"] for r in queue.ROUTES.values()} | {"celery"}
    for name in wanted:
        assert sum(name in qs for qs in workers.values()) == 1, (name, workers)


def test_chance_and_clock_are_apart_from_mail_and_webhooks():
    """Given the Procfile, no worker serves both a game queue and a mail queue."""
    workers = served()
    assert workers["worker"] == set(queue.GAME_QUEUES)
    assert workers["mailer"] == set(queue.MAIL_QUEUES) == {"mail"}
    assert workers["hooks"] == set(queue.HOOK_QUEUES) == {"webhooks"}
    from arbiter import create_app

    celery_app = create_app({"TESTING": True}).extensions["celery"]
    router = celery_app.amqp.router
    assert router.route({}, "workers.tasks.resolve_chance")["queue"].name == "chance"
    assert router.route({}, "workers.tasks.sweep_clock")["queue"].name == "clock"
    assert router.route({}, "workers.tasks.send_mail")["queue"].name == "mail"
    assert router.route({}, "workers.tasks.deliver_webhook")["queue"].name == "webhooks"


def test_inbound_mail_is_processed_by_the_game_worker_not_the_mailer():
    """Given the routes, processing inbound mail, its sweep and the IMAP poll go to a
    queue of the Procfile's game ``worker`` (they run moves), none to the ``mailer``."""
    from arbiter import create_app

    router = create_app({"TESTING": True}).extensions["celery"].amqp.router
    workers = served()
    for task in (queue.PROCESS_INBOUND, "workers.tasks.sweep_inbound", "workers.tasks.poll_imap"):
        name = router.route({}, task)["queue"].name
        assert name in workers["worker"] and name not in workers["mailer"], (task, name)
