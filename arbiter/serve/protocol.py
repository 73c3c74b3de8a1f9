"""The web process's HTTP/1.1 protocol: uvicorn's httptools protocol with the refusals,
limits and direct writes of :mod:`arbiter.serve`."""

from __future__ import annotations

import sys

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import get_remote_addr

from arbiter.serve.direct import DIRECT_WRITE, DirectWriter
from arbiter.serve.joined import Joined
from arbiter.serve.pending import client_key, limits, pending_of, trusts
from arbiter.serve.refusals import refusal

IDLE, HEAD, BODY, DONE = "idle", "head", "body", "done"
"""Where the client is in its latest request (``reading``): no byte of it yet, its
line and headers, its body, all of it read."""

UNBOUNDED = sys.maxsize
"""The ``expected_content_length`` of a close-delimited response (see :func:`unchunked`)."""


def unchunked(cycle):
    """Return ``cycle``'s ASGI ``send`` answering an HTTP/1.0 request as h11 does: a
    body without a ``content-length`` goes as it is, ended by closing the connection
    (uvicorn's httptools protocol would chunk it, which an HTTP/1.0 client does not
    read)."""
    send = cycle.send
    close_delimited = False

    async def send_unchunked(message) -> None:
        nonlocal close_delimited
        if message["type"] == "http.response.start" and not cycle.response_started:
            names = {name.lower() for name, _ in message.get("headers", ())}
            close_delimited = (
                b"content-length" not in names
                and b"transfer-encoding" not in names
                and cycle.scope["method"] != "HEAD"
                and message["status"] not in (204, 304)
            )
            if close_delimited:
                cycle.chunked_encoding = False
                cycle.expected_content_length = UNBOUNDED
        elif close_delimited and not message.get("more_body", False):
            cycle.expected_content_length = len(message.get("body", b""))  # it ends here
        await send(message)

    return send_unchunked


class ProblemHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, its own refusals answered as problem+json, with
    fixed limits: a request line over ``MAX_REQUEST_LINE`` bytes is 414, a request
    head (line and headers) over ``MAX_REQUEST_HEAD`` is 431, measured from its first byte
    before the parser reads it (llhttp has no limit of its own), whether it trickles in
    or follows another request (then to within one read's bytes); unfinished
    connections bounded in time and number (see :mod:`arbiter.serve`); a response's
    writes of one loop turn joined (:class:`~arbiter.serve.joined.Joined`); a GET's scope
    carries a :class:`DirectWriter` (``scope["extensions"][DIRECT_WRITE]``); and an
    HTTP/1.0 client's body is not chunked (:func:`unchunked`)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits()
        self.timeout_keep_alive = self.limits["KEEPALIVE_SECONDS"]
        self.reading = IDLE
        self.head: bytearray | None = bytearray()  # the head so far; None: not measured
        self.pending = pending_of(self.server_state)
        self.key: str | None = None  # None: not counted (a trusted proxy, a Unix socket)
        self.counted = False
        self.deadline = None
        self.room_check = None  # the make_room SLOW_AFTER_SECONDS after counting
        self.gone = False

    def connection_made(self, transport) -> None:
        """Take the connection as uvicorn does, count it unfinished and start its head
        deadline."""
        super().connection_made(Joined(transport, self.loop))  # every write and close
        peer = get_remote_addr(transport)
        if peer is not None and not trusts(self.config, peer[0]):
            self.key = client_key(peer[0])
        self.track()

    def connection_lost(self, exc) -> None:
        """Forget the connection, as uvicorn does."""
        super().connection_lost(exc)
        self.gone = True
        self.track()

    def eof_received(self) -> bool | None:
        """The client sent all it will (a FIN): what is held goes out before the
        transport closes itself, as uvicorn has it do."""
        self.transport.flush()
        return super().eof_received()

    def data_received(self, data: bytes) -> None:
        """Refuse a request whose line or head is over its limit, before the parser
        reads it. A head is measured from its first byte: what comes while a body is
        read (the rest of one answered early) is that body, dropped by uvicorn; a head
        begun after another request in the same bytes is measured from the next bytes
        on (its line as ended)."""
        if self.head is None and self.reading is IDLE:
            self.head = bytearray()
        if self.head is not None:
            status = self.oversized(data)
            if status:
                self.send_problem(status)
                return
        super().data_received(data)
        reading = self.reading
        if reading is BODY or reading is DONE:
            self.head = None  # complete, whatever its line ends were
        elif reading is HEAD and self.head is None:
            self.head = bytearray(b"\n")
        self.track()

    def oversized(self, data: bytes) -> int | None:
        """Add ``data`` to the head measured; return 414 or 431 when it is over a limit
        (else None; the head is forgotten once complete)."""
        head = self.head
        if head:
            head += data
            seen = head
        else:
            seen = data
        line_end, head_end = seen.find(b"\n"), seen.find(b"\r\n\r\n")
        if (line_end if line_end >= 0 else len(seen)) > self.limits["MAX_REQUEST_LINE"]:
            return 414
        if (head_end if head_end >= 0 else len(seen)) > self.limits["MAX_REQUEST_HEAD"]:
            return 431
        if head_end >= 0:
            self.head = None
        elif not head:
            head += data
        return None

    # ---------------------------------------------------------- parser callbacks

    def on_message_begin(self) -> None:
        """A request begins: its head is being read."""
        super().on_message_begin()
        self.reading = HEAD

    def on_headers_complete(self) -> None:
        """Start the request as uvicorn does; before the app's task first runs, give a
        GET's scope its :class:`DirectWriter` and an HTTP/1.0 request its unchunked
        ``send``."""
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is None or cycle.scope is not self.scope:  # a WebSocket upgrade: not ours
            self.reading = DONE
            return
        self.reading = BODY
        scope = self.scope
        if scope["method"] == "GET":
            scope.setdefault("extensions", {})[DIRECT_WRITE] = DirectWriter(cycle)
        if scope["http_version"] == "1.0":
            cycle.send = unchunked(cycle)

    def on_message_complete(self) -> None:
        """The request is read; if it was already answered, the next may begin. A
        WebSocket upgrade's connection was handed over: it stays ``DONE``."""
        super().on_message_complete()
        if self.parser.should_upgrade() and self._should_upgrade():
            return
        cycle = self.cycle
        self.reading = IDLE if cycle is None or cycle.response_complete else DONE

    def on_response_complete(self) -> None:
        """End the answer as uvicorn does (which starts the keep-alive wait, or the
        next request already read)."""
        super().on_response_complete()
        if self.reading is DONE and self.cycle.response_complete:
            self.reading = IDLE
        self.track()

    # ---------------------------------------------------------- unfinished connections

    def track(self) -> None:
        """Keep the connection's place among the unfinished ones (:class:`Pending`) and
        its deadline up to date with the request's state: unfinished while the client
        has a head (nothing being answered) or a body to send; under the head deadline
        while it sends a head (or the rest of a body answered early) and no keep-alive
        wait runs."""
        transport = self.transport
        closing = self.gone or transport is None or transport.is_closing()
        reading, cycle = self.reading, self.cycle
        answered = cycle is None or cycle.response_complete
        # a body pipelined behind a request still being answered is that answer's wait
        sending = reading is BODY and not self.pipeline
        unfinished = not closing and (sending or (reading is not DONE and answered))
        if unfinished and not self.counted and self.key is not None:
            self.counted = True
            self.pending.add(self, self.key, self.loop.time())
            self.room_check = self.loop.call_later(
                self.limits["SLOW_AFTER_SECONDS"], self.make_room
            )
            self.make_room()  # last: it may close this very connection
        elif not unfinished and self.counted:
            self.counted = False
            self.pending.discard(self, self.key)
            self.room_check.cancel()  # else the loop holds the connection that long
            self.room_check = None
        timed = (
            not closing
            and self.timeout_keep_alive_task is None
            and answered
            and reading is not DONE
        )
        if timed and self.deadline is None:
            self.deadline = self.loop.call_later(
                self.limits["HEAD_TIMEOUT_SECONDS"], self.head_too_slow
            )
        elif not timed and self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def make_room(self) -> None:
        """Close the oldest unfinished connections over the caps, of those unfinished
        for ``SLOW_AFTER_SECONDS`` at least (a burst of new connections, each about to
        send its request, is no one's to close). Called when this connection becomes
        unfinished, and again ``SLOW_AFTER_SECONDS`` later."""
        if not self.counted:
            return
        limits = self.limits
        before = self.loop.time() - limits["SLOW_AFTER_SECONDS"]
        while True:
            oldest = self.pending.oldest(
                self.key, limits["CLIENT_MAX_PENDING"], limits["WEB_MAX_PENDING"], before
            )
            if oldest is None:
                return
            oldest.evict()
            if oldest is self:
                return

    def begun(self) -> bool:
        """True when the client has sent part of a request not answered yet."""
        if self.reading is BODY:
            return not self.cycle.response_started
        return self.reading is HEAD or (self.reading is IDLE and bool(self.head))

    def evict(self) -> None:
        """Close this connection to make room: 429 ``too-many-connections`` if a
        request had begun, else silently (an idle connection's close is ordinary)."""
        if self.begun():
            self.send_problem(429, [(b"retry-after", b"1")])
        else:
            self.transport.close()
        self.track()

    def head_too_slow(self) -> None:
        """The head deadline passed: 408 ``head-too-slow`` to a head begun; else (no
        byte yet, or the rest of a body answered early) close silently."""
        self.deadline = None
        if self.transport.is_closing():
            return
        if self.reading is not BODY and self.begun():
            self.send_problem(408)
        else:
            self.transport.close()
        self.track()

    # ---------------------------------------------------------- refusals

    def send_400_response(self, msg: str) -> None:
        """Answer a request the parser cannot read as problem+json (400)."""
        self.send_problem(400)

    def send_problem(self, status: int, headers: list | None = None) -> None:
        """Answer with a problem+json of ``status`` and close the connection."""
        self.transport.write(refusal(status, headers))
        self.transport.close()
        self.track()
