"""Processing a stored inbound message, once: check it, run its commands, answer.

A message is claimed with a conditional UPDATE (pending, and unclaimed or its claim
older than ``CLAIM_SECONDS``), so two workers never process it at once; a crash leaves
the claim to expire and the sweep to try again (moves are idempotent per Message-ID
and line, the answer is one outbox row per message). Mail that is automatic, that is
not addressed to a valid capability, whose sender is not the seat's address (an
address that has agreed to game mail: :mod:`arbiter.mail.identity`), or whose
DMARC/DKIM fails is recorded as refused and never answered (no backscatter). A reply
to an invitation mail goes to :mod:`arbiter.mailin.invitation`.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import sqlalchemy as sa

from arbiter import queue
from arbiter.accounts.identity import seat_grant
from arbiter.extensions import db
from arbiter.games import invitations
from arbiter.mail import capability, identity
from arbiter.mailin import answer, authentication, commands, invitation, loops, talk
from arbiter.mailin.message import Incoming, header, read
from arbiter.mailin.refusal import Refused, check_rate, check_sender
from arbiter.models import Game, InboundMail, OutboxMail
from arbiter.models.timestamps import utcnow

log = logging.getLogger(__name__)

CLAIM_SECONDS = 120
MAX_ATTEMPTS = 5


def claim(inbound_id: int) -> InboundMail | None:
    """Claim a pending message for processing; return it, or None when it is done or
    another worker holds it."""
    now = utcnow()
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    claimed = db.session.execute(
        sa.update(InboundMail)
        .where(
            InboundMail.id == inbound_id,
            InboundMail.status == "pending",
            sa.or_(InboundMail.claimed_at.is_(None), InboundMail.claimed_at < stale),
        )
        .values(claimed_at=now, attempts=InboundMail.attempts + 1)
        .execution_options(synchronize_session=False)
    ).rowcount
    db.session.commit()
    return db.session.get(InboundMail, inbound_id) if claimed == 1 else None


def process(inbound_id: int) -> str | None:
    """Process inbound message ``inbound_id`` unless done; return its outcome code
    (None when there was nothing to do)."""
    row = claim(inbound_id)
    if row is None:
        return None
    where: dict = {}
    try:
        outcome, detail, mail = _handle(row, where)
    except Refused as refused:
        outcome, detail, mail = refused.code, refused.detail, None
    except Exception:  # noqa: BLE001 - recorded; retried by the sweep up to MAX_ATTEMPTS
        db.session.rollback()
        log.exception("inbound #%s could not be processed", inbound_id)
        if row.attempts >= MAX_ATTEMPTS:
            _finish(inbound_id, "failed", "Processing failed; see the worker log.", None)
        return "error"
    _finish(inbound_id, outcome, detail, mail, where)
    return outcome


def _finish(
    inbound_id: int, outcome: str, detail: str, mail: OutboxMail | None, where: dict | None = None
) -> None:
    """Record the outcome (and the game and seat in ``where``) and write the answer,
    in one transaction; enqueue its sending."""
    row = db.session.get(InboundMail, inbound_id)
    row.status, row.outcome, row.detail = "done", outcome, detail[:2000]
    row.game_id, row.seat = (where or {}).get("game_id"), (where or {}).get("seat")
    row.processed_at = utcnow()
    if mail is not None:
        existing = db.session.scalar(
            sa.select(OutboxMail.id).where(OutboxMail.dedupe_key == mail.dedupe_key)
        )
        mail = None if existing else mail
        if mail is not None:
            db.session.add(mail)
    db.session.commit()
    if mail is not None:
        queue.enqueue(queue.SEND_MAIL, mail.id)


def _handle(row: InboundMail, where: dict) -> tuple[str, str, OutboxMail | None]:
    """Check ``row`` and run its commands; return ``(outcome, detail, answer)``; the
    game and seat it names are put in ``where``.

    :raises Refused: the message is dropped without an answer.
    """
    incoming = read(row.raw)
    envelope = envelope_sender(row, incoming)
    reason = loops.automatic(incoming.msg, envelope)
    if reason:
        raise Refused("ignored-auto", f"Automatic mail, never answered: {reason}.")
    cap = _capability(row, incoming)
    game = db.session.get(Game, cap.game_id)
    if game is None or cap.seat >= len(game.seats):
        raise Refused("refused-capability", "The reply address names no seat of a game.")
    where.update(game_id=game.id, seat=cap.seat)
    if cap.version == invitations.REPLY_VERSION:
        return invitation.reply(row, incoming, envelope, cap, game)
    address = identity.seat_address(game.seats[cap.seat])  # None without consent
    check_sender(envelope, incoming, address)
    failed = authentication.failure(incoming.msg, incoming.sender)
    if failed:
        raise Refused("refused-authentication", f"Authentication-Results: {failed}.")
    check_rate(address)
    seat = seat_grant(game.id, cap.seat)
    if game.seats[cap.seat].resigned:
        done = [
            commands.Done(
                "",
                False,
                "You have resigned from this game; mail from you is no longer acted on.",
                "already-resigned",
            )
        ]
        return "answered", "resigned seat", answer.build(row, incoming, seat, done)
    said, lines = talk.take(
        seat, commands.lines_of(incoming.text, incoming.subject), row.message_id
    )
    ignored: list[str] = []
    if not lines and not said:
        done = [
            commands.Done(
                "",
                False,
                "No command found in your mail (a quoted message "
                "and a signature are not read).\n" + commands.HELP,
                "no-command",
            )
        ]
    else:
        done = said
        if said and lines and not commands.any_command(seat, lines):
            ignored = lines  # a greeting and a signature around talk lines: not refused
        elif lines:
            ran = commands.run(seat, cap.version, lines, row.message_id)
            done, ignored = said + ran.done, ran.ignored
    summary = "; ".join(f"{d.line!r}: {'ok' if d.ok else d.code}" for d in done)
    return "answered", summary, answer.build(row, incoming, seat, done, ignored)


def _capability(row: InboundMail, incoming: Incoming) -> capability.Capability:
    """Return the verified capability the message was sent to.

    :raises Refused: ``refused-capability`` (none, tampered, truncated, unknown).
    """
    addresses = (
        row.rcpt.split("\n")
        if row.rcpt
        else [header(incoming.msg, name) for name in ("Delivered-To", "X-Original-To", "To", "Cc")]
    )
    cap = capability.find([a for a in addresses if a])
    if cap is None:
        raise Refused("refused-capability", "Not sent to a valid reply address.")
    return cap


def envelope_sender(row: InboundMail, incoming: Incoming) -> str | None:
    """Return the envelope sender: as the SMTP listener or the pipe got it, else the
    ``Return-Path`` the delivering MTA wrote (IMAP), else None (unknown)."""
    if row.mail_from is not None:
        return row.mail_from
    return_path = header(incoming.msg, "Return-Path").strip()
    return return_path or None


def pending(older_than_seconds: float = 10.0, limit: int = 500) -> list[int]:
    """Return ids of messages still pending after ``older_than_seconds`` that may be
    tried now (unclaimed or their claim expired)."""
    now = utcnow()
    cutoff = now - timedelta(seconds=older_than_seconds)
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    return list(
        db.session.scalars(
            sa.select(InboundMail.id)
            .where(
                InboundMail.status == "pending",
                InboundMail.received_at < cutoff,
                sa.or_(InboundMail.claimed_at.is_(None), InboundMail.claimed_at < stale),
            )
            .order_by(InboundMail.id)
            .limit(limit)
        )
    )
