"""A real SMTP server (aiosmtpd) on loopback that tests can break on purpose: stop it
(an outage) and start it again on the same port, make it slow to accept the data or
to answer QUIT, or run a hook when a mail's data has arrived (before it is accepted)."""

from __future__ import annotations

import asyncio
import threading
import time
from email import message_from_bytes
from email.policy import default

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP

from tests.conftest import free_port


class Inbox:
    """What the server accepted: ``email.message`` objects, with the ``time.time()``
    of each."""

    def __init__(self) -> None:
        self.messages = []
        self.times = []
        self.lock = threading.Lock()

    def add(self, content: bytes) -> None:
        with self.lock:
            self.messages.append(message_from_bytes(content, policy=default))
            self.times.append(time.time())

    def to(self, address: str) -> list:
        """Return the messages sent to ``address``."""
        with self.lock:
            return [m for m in self.messages if m["To"] == address]


class Handler:
    """Accept every mail after ``server.data_delay`` seconds, unless the hook or a
    closed connection says no (a server that has not answered 250 has not taken it)."""

    def __init__(self, server: BreakableSmtp) -> None:
        self.server = server

    async def handle_DATA(self, smtp, session, envelope):  # noqa: N802 - aiosmtpd API
        if self.server.on_data:
            self.server.on_data(envelope)
        if self.server.data_delay:
            await asyncio.sleep(self.server.data_delay)
        if smtp.transport is None or smtp.transport.is_closing():
            return "421 connection lost before the mail was accepted"
        self.server.inbox.add(envelope.content)
        return "250 Message accepted for delivery"


class BreakableSmtp:
    """The server: ``start()``, ``stop()``, ``url``, ``inbox``, ``sessions`` (SMTP
    connections made so far); ``data_delay`` and ``quit_delay`` (seconds) and
    ``on_data`` (called with the envelope) may be set at any time."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"smtp://127.0.0.1:{self.port}"
        self.inbox = Inbox()
        self.data_delay = 0.0
        self.quit_delay = 0.0
        self.on_data = None
        self.controller = None
        self.sessions = 0

    def start(self) -> None:
        outer = self

        class Server(SMTP):
            def connection_made(self, transport):
                outer.sessions += 1
                super().connection_made(transport)

            async def smtp_QUIT(self, arg):  # noqa: N802 - aiosmtpd API
                if outer.quit_delay:
                    await asyncio.sleep(outer.quit_delay)
                await super().smtp_QUIT(arg)

        class Control(Controller):
            def factory(self):
                return Server(self.handler, **self.SMTP_kwargs)

        self.controller = Control(Handler(self), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None
