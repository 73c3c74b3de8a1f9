"""The ``mailin`` process: an SMTP listener (aiosmtpd) that feeds :func:`receive`.

An operator points an MX or a relay at ``MAILIN_URL`` (default
``smtp://127.0.0.1:8025``). Recipients outside ``MAIL_DOMAIN`` are refused at ``RCPT``
(550, no open relay); a message over ``MAIL_MAX_BYTES`` is refused at ``DATA`` (552,
unread); everything else is accepted once stored (250) and judged later by the
worker, so forged or stray mail is dropped without a bounce to its claimed sender.
A database outage answers 451 (the sender's MTA tries again later).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from urllib.parse import urlparse

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError

from arbiter.mail.capability import mail_domain
from arbiter.mail.mailboxes import as_mail_domain
from arbiter.mailin.receive import receive

log = logging.getLogger(__name__)


class Handler:
    """aiosmtpd handler: RCPT checks the domain, DATA stores the message."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            self.domain = mail_domain()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        """Accept only recipients at ``MAIL_DOMAIN`` (an IP address as a literal, or
        bare as reply addresses were written before: :func:`capability.is_ours`)."""
        if as_mail_domain(address.rpartition("@")[2]) != self.domain:
            return "550 5.7.1 Relaying denied: not a reply address of this arbiter"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd API
        """Store the message (in a thread: the database is blocking) and answer."""
        loop = asyncio.get_running_loop()
        try:
            outcome = await loop.run_in_executor(None, self._receive, envelope)
        except SQLAlchemyError:
            log.exception("inbound mail not stored")
            return "451 4.3.0 Temporarily unable to store the message; try again later"
        if outcome.status == "too-large":
            return "552 5.3.4 " + outcome.reason
        if outcome.status == "unreadable":
            return "554 5.6.0 " + outcome.reason
        return "250 2.0.0 Message accepted"

    def _receive(self, envelope):
        with self.app.app_context():
            return receive(
                envelope.original_content or envelope.content,
                list(envelope.rcpt_tos),
                envelope.mail_from or "",
                "smtp",
            )


def controller(app: Flask, url: str | None = None):
    """Return an aiosmtpd ``Controller`` for ``app`` bound where ``url`` (default
    ``MAILIN_URL``) says; the caller starts and stops it."""
    from aiosmtpd.controller import Controller  # noqa: PLC0415 - only a mail server needs it

    parts = urlparse(url or app.config["MAILIN_URL"])
    return Controller(
        Handler(app),
        hostname=parts.hostname or "127.0.0.1",
        port=parts.port or 25,
        data_size_limit=app.config["MAIL_MAX_BYTES"],
        decode_data=False,
        server_hostname=mail_domain_of(app),
    )


def mail_domain_of(app: Flask) -> str:
    """Return ``MAIL_DOMAIN`` of ``app``."""
    with app.app_context():
        return mail_domain()


def serve(app: Flask, url: str | None = None) -> None:
    """Run the listener until SIGTERM or SIGINT."""
    smtp = controller(app, url)
    smtp.start()
    log.info("mailin listening on %s:%s", smtp.hostname, smtp.port)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    smtp.stop()
