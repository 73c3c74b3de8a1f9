"""The tasks. Each takes ids, re-reads the world and is idempotent."""

from __future__ import annotations

from celery import shared_task

from arbiter import queue, settings
from arbiter.games import bot_moves, chance, clock_sweep, digest, game_start
from arbiter.hooks import webhook_delivery, webhooks
from arbiter.mail import mail
from arbiter.mailin import imap, process
from arbiter.tournaments import tournament_rounds


@shared_task(name="workers.tasks.resolve_chance", acks_late=True)
def resolve_chance(game_id: str, version: int) -> int:
    """Roll what game ``game_id`` waits for, if it is still at ``version``; return the
    number of events appended (0 when stale or already done)."""
    return chance.advance_chance(game_id, version)


@shared_task(name="workers.tasks.play_bot", acks_late=True)
def play_bot(game_id: str, version: int) -> int:
    """Move the bot seat game ``game_id`` waits for, if it is still at ``version``;
    return the seat moved (-1 when stale or nothing to do)."""
    return bot_moves.play_bot(game_id, version)


@shared_task(name="workers.tasks.send_mail", acks_late=True)
def send_mail(mail_id: int) -> bool:
    """Send outbox mail ``mail_id`` unless it was sent; return True if this run sent it.
    A failed send is retried by the outbox sweep once its back-off has passed (see
    ``arbiter.mail.mail``), not by Celery, so one mail never has two retry chains."""
    return mail.send(mail_id)


@shared_task(name="workers.tasks.sweep_outbox")
def sweep_outbox() -> int:
    """Send every mail that is due (left unsent by a lost task, a broker or SMTP
    outage, or its back-off passed) over one SMTP session; return how many were sent.
    The mails are sent here, not enqueued one task each: a backlog is not queued again
    at every sweep while it drains, and a server that cannot be reached costs one
    connection attempt per sweep (``arbiter.mail.mail.drain``). While one sweep
    drains, the next (``SWEEP_SECONDS`` later) drains beside it in the mailer's other
    process, on other mails."""
    return mail.drain()


@shared_task(name="workers.tasks.deliver_webhook", bind=True, acks_late=True, max_retries=None)
def deliver_webhook(self, delivery_id: int) -> bool:
    """Try web hook delivery ``delivery_id`` once; return True unless it failed.

    A failed try is retried by this task after its back-off when that is at most
    ``WEBHOOK_TASK_RETRY_SECONDS`` (default 300); longer waits, and tasks lost with a
    worker, are left to ``sweep_webhooks``. The delivery's claim makes a try that
    both would start happen once (see ``arbiter.hooks.webhook_delivery``). Celery
    sets no limit on these retries (``max_retries=None`` on the task: passed to
    ``retry()`` it would mean the task's default, 3): the delivery's own
    ``WEBHOOK_MAX_ATTEMPTS`` ends them, when ``attempt`` returns None."""
    wait = webhook_delivery.attempt(delivery_id)
    if wait is None:
        return True
    if wait <= float(settings.current().hooks.task_retry_seconds):
        raise self.retry(countdown=wait)
    return False


@shared_task(name="workers.tasks.sweep_webhooks")
def sweep_webhooks() -> int:
    """Enqueue every web hook delivery that is due and not in hand; return how many."""
    ids = webhook_delivery.due()
    for delivery_id in ids:
        queue.enqueue(webhooks.DELIVER, delivery_id)
    return len(ids)


@shared_task(name="workers.tasks.sweep_chance")
def sweep_chance() -> int:
    """Enqueue a roll for every game left waiting for chance, and a bot's move for every
    game left waiting for one (a lost task); return how many."""
    stalled = chance.stalled_chances(older_than_seconds=10.0)
    for game_id, version in stalled:
        queue.enqueue(queue.RESOLVE_CHANCE, game_id, version)
    bots = bot_moves.stalled_bots(older_than_seconds=10.0)
    for game_id, version in bots:
        queue.enqueue(queue.PLAY_BOT, game_id, version)
    return len(stalled) + len(bots)


@shared_task(name="workers.tasks.sweep_clock")
def sweep_clock() -> dict:
    """Apply due timeouts (or the outage policy) and send due reminders, each exactly
    once; then start or cancel the waiting games whose ``start_at`` has come, and queue
    the daily digests that are due (one beat entry for all the clock's work, so the
    broker carries no more messages); return the counts."""
    counts = clock_sweep.sweep()
    counts["starts"] = game_start.start_due()
    counts["digests"] = digest.sweep()
    return counts


@shared_task(name="workers.tasks.process_inbound", acks_late=True)
def process_inbound(inbound_id: int) -> str | None:
    """Process stored inbound mail ``inbound_id`` once; return its outcome code."""
    return process.process(inbound_id)


@shared_task(name="workers.tasks.sweep_inbound")
def sweep_inbound() -> int:
    """Enqueue every inbound message left pending (a lost task); return how many."""
    ids = process.pending()
    for inbound_id in ids:
        queue.enqueue(queue.PROCESS_INBOUND, inbound_id)
    return len(ids)


@shared_task(name="workers.tasks.poll_imap")
def poll_imap() -> int:
    """Fetch new messages from the ``IMAP_URL`` mailbox into the inbound table;
    return how many were recorded."""
    return imap.poll()


@shared_task(name="workers.tasks.advance_tournament", acks_late=True)
def advance_tournament(tournament_id: str) -> str:
    """Move tournament ``tournament_id`` on if its round is done (a game of it just
    ended); return ``idle``, ``waiting`` or ``advanced``. Idempotent."""
    return tournament_rounds.advance(tournament_id)


@shared_task(name="workers.tasks.sweep_tournaments")
def sweep_tournaments() -> dict:
    """Apply due round deadlines and end rounds whose task was lost; return counts."""
    return tournament_rounds.sweep()
