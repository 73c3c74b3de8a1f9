"""Sending the outbox over SMTP: each mail claimed, sent, and marked sent, once.

A mail is claimed with a conditional UPDATE (unsent, and unclaimed or its claim
older than ``CLAIM_SECONDS``), so two workers never send the same mail at the same
time. It carries a Message-ID derived from its outbox id, so that in the one
remaining window (the SMTP server accepted it, the worker died before marking it
sent) a resent copy can be recognised as the same message by mail clients.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import parse_qs, unquote, urlparse

import sqlalchemy as sa
from flask import current_app

from arbiter.extensions import db
from arbiter.models import OutboxMail
from arbiter.models.timestamps import utcnow

log = logging.getLogger(__name__)

CLAIM_SECONDS = 300


def claim(mail_id: int) -> OutboxMail | None:
    """Claim an unsent mail for sending; return it, or None if sent or being sent."""
    now = utcnow()
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    result = db.session.execute(
        sa.update(OutboxMail)
        .where(OutboxMail.id == mail_id, OutboxMail.sent_at.is_(None),
               sa.or_(OutboxMail.claimed_at.is_(None), OutboxMail.claimed_at < stale))
        .values(claimed_at=now, attempts=OutboxMail.attempts + 1)
        .execution_options(synchronize_session=False))
    db.session.commit()
    if result.rowcount != 1:
        return None
    return db.session.get(OutboxMail, mail_id)


def send(mail_id: int) -> bool:
    """Send outbox mail ``mail_id`` if nobody has; return True when this call sent it.

    :raises smtplib.SMTPException, OSError: the server refused or could not be
        reached; the claim is released so that a retry or the sweep sends it later.
    """
    mail = claim(mail_id)
    if mail is None:
        return False
    try:
        deliver(message(mail))
    except (smtplib.SMTPException, OSError) as err:
        mail.claimed_at, mail.last_error = None, str(err)[:500]
        db.session.commit()
        raise
    mail.sent_at = utcnow()
    db.session.commit()
    return True


def message(mail: OutboxMail) -> EmailMessage:
    """Return the MIME message of an outbox row."""
    msg = EmailMessage()
    msg["From"] = current_app.config["MAIL_FROM"]
    msg["To"] = mail.to_addr
    msg["Subject"] = mail.subject
    msg["Message-ID"] = make_msgid(idstring=f"outbox-{mail.id}-{mail.dedupe_key.replace(':', '.')}",
                                   domain="arbiter")
    msg["X-Arbiter-Outbox"] = str(mail.id)
    msg.set_content(mail.body)
    return msg


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
    """Return ids of unsent, unclaimed (or stale-claimed) mails older than the delay."""
    now = utcnow()
    cutoff = now - timedelta(seconds=older_than_seconds)
    stale = now - timedelta(seconds=CLAIM_SECONDS)
    return list(db.session.scalars(
        sa.select(OutboxMail.id)
        .where(OutboxMail.sent_at.is_(None), OutboxMail.created_at < cutoff,
               sa.or_(OutboxMail.claimed_at.is_(None), OutboxMail.claimed_at < stale))
        .order_by(OutboxMail.id).limit(limit)))



