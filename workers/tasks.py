"""The tasks. Each takes ids, re-reads the world and is idempotent."""

from __future__ import annotations

from celery import shared_task

from arbiter import queue
from arbiter.mailin import imap, process
from arbiter.service import chance, clock_sweep, mail, tournament_rounds


@shared_task(name="workers.tasks.resolve_chance", acks_late=True)
def resolve_chance(game_id: str, version: int) -> int:
    """Roll what game ``game_id`` waits for, if it is still at ``version``; return the
    number of events appended (0 when stale or already done)."""
    return chance.advance_chance(game_id, version)


@shared_task(name="workers.tasks.send_mail", acks_late=True)
def send_mail(mail_id: int) -> bool:
    """Send outbox mail ``mail_id`` unless it was sent; return True if this run sent it.
    A failed send is retried by the outbox sweep once its back-off has passed (see
    ``arbiter.service.mail``), not by Celery, so one mail never has two retry chains."""
    return mail.send(mail_id)


@shared_task(name="workers.tasks.sweep_outbox")
def sweep_outbox() -> int:
    """Enqueue every mail left unsent (broker down, worker lost); return how many."""
    ids = mail.unsent()
    for mail_id in ids:
        queue.enqueue(queue.SEND_MAIL, mail_id)
    return len(ids)


@shared_task(name="workers.tasks.sweep_chance")
def sweep_chance() -> int:
    """Enqueue a roll for every game left waiting for chance; return how many."""
    stalled = chance.stalled_chances(older_than_seconds=10.0)
    for game_id, version in stalled:
        queue.enqueue(queue.RESOLVE_CHANCE, game_id, version)
    return len(stalled)


@shared_task(name="workers.tasks.sweep_clock")
def sweep_clock() -> dict:
    """Apply due timeouts (or the outage policy) and send due reminders, each exactly
    once; return the sweep's counts."""
    return clock_sweep.sweep()


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
