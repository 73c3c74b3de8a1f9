"""Sending the outbox over SMTP: each mail claimed, sent, and marked sent, once.

A mail is claimed with a conditional UPDATE (unsent, under ``MAX_ATTEMPTS`` tries, and
unclaimed or its claim older than ``CLAIM_SECONDS``), so two workers never send the
same mail at the same time. A send that fails leaves its claim in place: the claim is
the back-off, and the sweep tries again once it has expired (every ``CLAIM_SECONDS``,
at most ``MAX_ATTEMPTS`` times in all). A permanent refusal (an SMTP 5xx answer, an
address the server cannot take) gives up at once; ``last_error`` keeps the reason.
The Message-ID is derived from the outbox row alone, so that in the one remaining
window (the server accepted it, the worker died before marking it sent) a resent copy
carries the same Message-ID and mail clients show it once.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from urllib.parse import parse_qs, unquote, urlparse

import sqlalchemy as sa
from flask import current_app

from arbiter.extensions import db
from arbiter.models import OutboxMail
from arbiter.models.timestamps import utcnow

log = logging.getLogger(__name__)

CLAIM_SECONDS = 300
"""How long a claim holds a mail: a send in progress, or the back-off after a failure."""

MAX_ATTEMPTS = 10
"""Tries before a mail is given up (``last_error`` says why)."""


class PermanentFailure(Exception):
    """The SMTP server refused the mail for good; it will not be retried."""


def claim(mail_id: int) -> OutboxMail | None:
    """Claim an unsent mail for sending; return it, or None if sent or being sent."""
    now = utcnow()
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    result = db.session.execute(
        sa.update(OutboxMail)
        .where(OutboxMail.id == mail_id, OutboxMail.sent_at.is_(None),
               OutboxMail.attempts < MAX_ATTEMPTS,
               sa.or_(OutboxMail.claimed_at.is_(None), OutboxMail.claimed_at < stale))
        .values(claimed_at=now, attempts=OutboxMail.attempts + 1)
        .execution_options(synchronize_session=False))
    db.session.commit()
    if result.rowcount != 1:
        return None
    return db.session.get(OutboxMail, mail_id)


def send(mail_id: int) -> bool:
    """Send outbox mail ``mail_id`` if nobody has; return True when this call sent it.

    A failure is recorded in ``last_error`` and the claim is kept as the back-off (the
    sweep retries after ``CLAIM_SECONDS``); a permanent refusal also uses up the
    attempts, so the mail is not tried again. Nothing is raised for a failed send.
    """
    mail = claim(mail_id)
    if mail is None:
        return False
    msg = message(mail)
    db.session.commit()  # no transaction (on SQLite: no write lock) during the SMTP talk
    try:
        deliver(msg)
    except (smtplib.SMTPException, OSError, UnicodeError) as err:
        error = f"{type(err).__name__}: {err}"[:500]
        values = {"last_error": error}
        if is_permanent(err):
            values["attempts"] = MAX_ATTEMPTS
        _update(mail_id, values)
        log.warning("mail %s not sent: %s", mail_id, error)
        return False
    _update(mail_id, {"sent_at": utcnow()})
    return True


def _update(mail_id: int, values: dict) -> None:
    """Set columns of one outbox row in a short transaction of its own."""
    db.session.execute(sa.update(OutboxMail).where(OutboxMail.id == mail_id).values(**values)
                       .execution_options(synchronize_session=False))
    db.session.commit()


def is_permanent(err: Exception) -> bool:
    """True for a refusal that retrying cannot cure: an SMTP 5xx answer, or an address
    or feature the server does not take."""
    if isinstance(err, (smtplib.SMTPNotSupportedError, UnicodeError)):
        return True
    if isinstance(err, smtplib.SMTPRecipientsRefused):  # permanent only if all are 5xx
        return all(500 <= code < 600 for code, _ in err.recipients.values())
    code = getattr(err, "smtp_code", None)
    return isinstance(code, int) and 500 <= code < 600


def message(mail: OutboxMail) -> EmailMessage:
    """Return the MIME message of an outbox row: its extra headers (``Reply-To``,
    threading), ``Auto-Submitted: auto-generated`` unless the row says otherwise
    (answers say ``auto-replied``, RFC 3834), and its board attached as PNG."""
    msg = EmailMessage()
    msg["From"] = current_app.config["MAIL_FROM"]
    msg["To"] = mail.to_addr
    msg["Subject"] = mail.subject
    msg["Message-ID"] = message_id(mail.id, mail.game_id)
    msg["Date"] = format_datetime(mail.created_at)
    msg["X-Arbiter-Outbox"] = str(mail.id)
    headers = {"Auto-Submitted": "auto-generated", **(mail.headers or {})}
    for name, value in headers.items():
        msg[name] = value
    msg.set_content(mail.body)
    if mail.board_svg:
        msg.add_attachment(board_png(mail.board_svg), maintype="image", subtype="png",
                           filename="board.png")
    return msg


def message_id(mail_id: int, game_id: str | None) -> str:
    """Return the Message-ID of outbox row ``mail_id`` (the same for every resend)."""
    host = urlparse(current_app.config["BASE_URL"]).hostname or "arbiter"
    return f"<arbiter.outbox.{mail_id}.{game_id or 'account'}@{host}>"


def board_png(svg: str) -> bytes:
    """Return an SVG board picture rendered as PNG (``cairosvg``)."""
    import cairosvg

    return cairosvg.svg2png(bytestring=svg.encode(), output_width=800)


def deliver(msg: EmailMessage) -> None:
    """Hand ``msg`` to the SMTP server of ``SMTP_URL``; without one, log it."""
    url = current_app.config["SMTP_URL"]
    if not url:
        log.info("mail (no SMTP_URL set, not sent):\n%s", msg)
        return
    parts = urlparse(url)
    query = parse_qs(parts.query)
    smtp_class = smtplib.SMTP_SSL if parts.scheme == "smtps" else smtplib.SMTP
    port = parts.port or (465 if parts.scheme == "smtps" else 25)
    with smtp_class(parts.hostname or "localhost", port, timeout=30) as smtp:
        if query.get("starttls", ["0"])[0] in ("1", "true"):
            smtp.starttls()
        if parts.username:
            smtp.login(unquote(parts.username), unquote(parts.password or ""))
        smtp.send_message(msg)


def unsent(older_than_seconds: float = 10.0, limit: int = 500) -> list[int]:
    """Return ids of unsent mails older than the delay that may be tried now: under
    ``MAX_ATTEMPTS`` tries, unclaimed or with an expired claim."""
    now = utcnow()
    cutoff = now - timedelta(seconds=older_than_seconds)
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    return list(db.session.scalars(
        sa.select(OutboxMail.id)
        .where(OutboxMail.sent_at.is_(None), OutboxMail.created_at < cutoff,
               OutboxMail.attempts < MAX_ATTEMPTS,
               sa.or_(OutboxMail.claimed_at.is_(None), OutboxMail.claimed_at < stale))
        .order_by(OutboxMail.id).limit(limit)))



