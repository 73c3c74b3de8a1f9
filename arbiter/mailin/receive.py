"""The one entry point for inbound mail: store the raw message, then process it.

Whatever way a message comes (the SMTP listener, ``arbiter mail-in``, IMAP
polling), :func:`receive` stores it in the ``inbound`` table before anything reads
it, deduplicated by Message-ID, and enqueues its processing; a beat sweep enqueues
what a lost task left pending, so a crash between receipt and processing loses
nothing, and a message delivered twice is acted on once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from arbiter import queue, settings
from arbiter.extensions import db
from arbiter.mail.capability import find
from arbiter.mailin.message import message_id_of, parse
from arbiter.models import InboundMail

log = logging.getLogger(__name__)

RCPT_CHARS = 1000
"""Characters of the envelope recipients an inbound row keeps (``inbound.rcpt``)."""


@dataclass(frozen=True)
class Outcome:
    """What :func:`receive` did with a message.

    :param status: ``accepted`` (stored, processing enqueued), ``duplicate`` (a
        message with this Message-ID was stored before: nothing new), ``too-large``
        (over ``MAIL_MAX_BYTES``, refused unread) or ``unreadable`` (not a mail).
    :param inbound_id: the stored row (None when refused).
    """

    status: str
    inbound_id: int | None = None
    reason: str = ""

    @property
    def taken(self) -> bool:
        """True when the message is recorded (accepted now or before)."""
        return self.status in ("accepted", "duplicate")


def receive(
    raw: bytes, rcpts: list[str] | None = None, sender: str | None = None, source: str = "pipe"
) -> Outcome:
    """Store inbound message ``raw`` and enqueue its processing.

    :param rcpts: the envelope recipients (SMTP ``RCPT TO``) when known; otherwise the
        capability is looked for in the message's headers.
    :param sender: the envelope sender (``MAIL FROM``; ``""`` for a bounce), or None.
    :param source: ``smtp``, ``pipe`` or ``imap``.
    :raises sqlalchemy.exc.OperationalError: the database is unavailable (the caller
        answers "try again later").
    """
    limit = settings.current().mail.max_bytes
    if len(raw) > limit:
        return Outcome("too-large", reason=f"The message is larger than {limit} bytes.")
    if not raw.strip() or not parse(raw).keys():
        return Outcome("unreadable", reason="This is not a mail message (no headers).")
    message_id = message_id_of(raw)
    row = InboundMail(
        message_id=message_id,
        raw=raw,
        source=source,
        status="pending",
        attempts=0,
        rcpt=stored_recipients(rcpts),
        mail_from=None if sender is None else sender[:320],
    )
    db.session.add(row)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        first = db.session.scalar(
            sa.select(InboundMail.id).where(InboundMail.message_id == message_id)
        )
        log.info("inbound %s is a duplicate of #%s", message_id, first)
        return Outcome("duplicate", first, "This message was received before.")
    queue.enqueue(queue.PROCESS_INBOUND, row.id)
    return Outcome("accepted", row.id)


def stored_recipients(rcpts: list[str] | None) -> str | None:
    """Return the envelope recipients as an inbound row keeps them: one a line, cut
    at ``RCPT_CHARS``, reply addresses first. Every recipient is matched against the
    reply addresses before the list is cut, so a reply address that came after many
    others (a mail to a long list) is kept, not cut off (issue 22, item 10)."""
    if not rcpts:
        return None
    replies = [r for r in rcpts if find([r]) is not None]
    others = [r for r in rcpts if r not in replies]
    return "\n".join(replies + others)[:RCPT_CHARS]
