"""Dropping a message unanswered: the refusal, and the checks every command mail
passes first: its sender (no backscatter to forged senders) and the answers per hour
to its address (no mail loop, no flood)."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from arbiter import settings
from arbiter.extensions import db
from arbiter.mailin.message import Incoming
from arbiter.models import OutboxMail
from arbiter.models.timestamps import utcnow


class Refused(Exception):
    """The message is dropped unanswered: ``code`` and a sentence for the record."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


def check_sender(envelope: str | None, incoming: Incoming, address: str | None) -> None:
    """:raises Refused: ``refused-sender`` unless From (and the envelope sender, where
    known) is ``address`` (lower-case; None: nobody may speak for it)."""
    senders = [incoming.sender] + ([envelope.strip("<> ").lower()] if envelope else [])
    if not address or any(s != address for s in senders):
        raise Refused("refused-sender", "The sender is not the seat's address.")


def check_rate(address: str) -> None:
    """:raises Refused: ``rate-limited`` once ``MAIL_REPLIES_PER_HOUR`` answers went to
    ``address`` in the last hour (the mail is recorded, not acted on)."""
    limit = settings.current().mail.replies_per_hour
    since = utcnow() - timedelta(hours=1)
    sent = db.session.scalar(
        sa.select(sa.func.count(OutboxMail.id)).where(
            OutboxMail.to_addr == address,
            OutboxMail.dedupe_key.like("answer:%"),
            OutboxMail.created_at >= since,
        )
    )
    if sent >= limit:
        raise Refused(
            "rate-limited",
            f"{address} already got {sent} answers this hour "
            f"(limit {limit}); the mail was not acted on.",
        )
