"""The web server's side of the contract: the errors uvicorn answers itself are
problem details too, and no client holds a connection it does not use.

uvicorn (h11) answers a request it cannot parse without calling the app, with a
``text/plain`` 400. :class:`ProblemH11Protocol` is uvicorn's h11 protocol answering
those as ``application/problem+json`` (400 ``bad-request``), refusing a request line or
head over its limit (414 ``uri-too-long``, 431 ``headers-too-large``), and closing the
connection as uvicorn does. The Procfile selects
it with ``--http arbiter.serve:ProblemH11Protocol``.

uvicorn gives a request head all the time its client takes, and a new connection that
sends nothing stays open (issue 22: 500 such connections were held for minutes). So
the protocol also bounds unfinished connections (idle, or still sending a head or a
body: :class:`Pending`): a head must be complete within ``HEAD_TIMEOUT_SECONDS`` (408
``head-too-slow``), an idle kept-alive connection closes after ``KEEPALIVE_SECONDS``,
and one client address (an IPv6 /64) holds at most ``CLIENT_MAX_PENDING`` of them per
process, ``WEB_MAX_PENDING`` in all: past either, the oldest that have been unfinished
for ``SLOW_AFTER_SECONDS`` are closed (429 ``too-many-connections`` when a request had
begun), so that a newcomer, an honest client's as much as anyone's, is always served.
Connections being answered (streams, long-polls, Flask) do not count, nor those of a
trusted proxy (uvicorn's ``--forwarded-allow-ips``, the Procfile's
``FORWARDED_ALLOW_IPS``), which buffers its clients itself. The body's own pace is the
ASGI front's (:mod:`arbiter.bodies`).

It also offers the streams a way past the ASGI ``send`` (:data:`DIRECT_WRITE`): the
stream hub writes one event's bytes to thousands of connections at once, and a write
straight to each connection's transport costs a system call, where a coroutine woken
per reader to ``await send`` costs several times that (see :mod:`arbiter.streams.hub`).
"""

from __future__ import annotations

import functools
import ipaddress
import json
from http import HTTPStatus

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

from arbiter import settings
from arbiter.problems import problem_body

DIRECT_WRITE = "arbiter.direct_write"
"""The ASGI scope extension (``scope["extensions"][DIRECT_WRITE]``) holding a
:class:`DirectWriter` for the request's response."""

SERVER_PROBLEMS = {
    400: ("bad-request", "The request line or one of its headers cannot be read."),
    414: ("uri-too-long", "The URL is longer than the server reads."),
    431: ("headers-too-large", "The request's headers are larger than the server reads."),
    408: ("head-too-slow", "The request line and headers did not arrive in time."),
    429: (
        "too-many-connections",
        "This address has too many unfinished connections open; one of them was closed.",
    ),
}
"""Codes and details of the answers the server gives without the app, by status."""


def problem_json(status: int) -> bytes:
    """Return the problem+json body of an error the server answers with ``status``."""
    code, detail = SERVER_PROBLEMS.get(status, (f"http-{status}", HTTPStatus(status).phrase))
    return json.dumps(problem_body(status, code, HTTPStatus(status).phrase, detail)).encode()


class DirectWriter:
    """Writes response body bytes straight to a connection's transport, framed as h11
    frames them (chunked for HTTP/1.1, raw for HTTP/1.0), without the ASGI ``send``.

    Call it only once the app has sent ``http.response.start`` and before its last
    body message, from the connection's event loop; it never waits: the bytes the
    socket does not take at once stay in the transport's buffer.
    """

    def __init__(self, cycle) -> None:
        self.cycle = cycle
        self.chunked: bool | None = None

    def __call__(self, data: bytes) -> int | None:
        """Write ``data``; return the bytes waiting in the transport's buffer, or None
        when the response is over or the client has gone (nothing is written)."""
        cycle = self.cycle
        transport = cycle.transport
        if (
            cycle.disconnected
            or cycle.response_complete
            or not cycle.response_started
            or transport.is_closing()
        ):
            return None
        if data:
            if self.chunked is None:  # h11 frames the first, the rest are framed alike
                out = cycle.conn.send(h11.Data(data=data))
                self.chunked = out != data
                transport.write(out)
            elif self.chunked:
                transport.write(b"%x\r\n%b\r\n" % (len(data), data))
            else:
                transport.write(data)
        return transport.get_write_buffer_size()


class Pending:
    """The unfinished connections of one web process (idle, or still sending a head or
    a body), oldest first, each with the loop time it became so: all of them, and per
    client key (:func:`client_key`)."""

    def __init__(self) -> None:
        self.all: dict = {}
        self.clients: dict[str, dict] = {}

    def add(self, conn, key: str, now: float) -> None:
        """Count ``conn`` of client ``key`` as the newest unfinished connection."""
        self.all[conn] = now
        self.clients.setdefault(key, {})[conn] = now

    def discard(self, conn, key: str) -> None:
        """Stop counting ``conn`` (of client ``key``), if it was."""
        self.all.pop(conn, None)
        mine = self.clients.get(key)
        if mine is not None:
            mine.pop(conn, None)
            if not mine:
                del self.clients[key]

    def oldest(self, key: str, client_cap: int, cap: int, before: float):
        """Return the oldest connection over a cap (client ``key``'s first) that has
        been unfinished since ``before`` or earlier, or None."""
        for conns, most in ((self.clients.get(key, {}), client_cap), (self.all, cap)):
            if len(conns) > most:
                conn, since = next(iter(conns.items()))
                if since <= before:
                    return conn
        return None


def pending_of(server_state) -> Pending:
    """Return the :class:`Pending` of a uvicorn server (one per web process)."""
    pending = getattr(server_state, "arbiter_pending", None)
    if pending is None:
        pending = server_state.arbiter_pending = Pending()
    return pending


@functools.lru_cache(maxsize=4096)
def client_key(host: str) -> str:
    """Return whom a connection from ``host`` counts for: its address; an IPv6
    address's /64 (one subscriber's usual share); an IPv4-mapped one's IPv4.
    Remembered for the last 4,096 hosts: every new connection asks."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network((ip, 64), strict=False))
    return str(ip)


@functools.cache
def _proxies(allowed: str) -> tuple[bool, tuple, frozenset]:
    """Return ``(everyone, networks, literals)`` of a ``--forwarded-allow-ips``."""
    items = [item.strip() for item in allowed.split(",") if item.strip()]
    networks, literals = [], set()
    for item in items:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            literals.add(item)
    return "*" in items, tuple(networks), frozenset(literals)


def trusts(config, host: str) -> bool:
    """True when uvicorn ``config`` believes the proxy headers of peer ``host``
    (``--proxy-headers`` and ``--forwarded-allow-ips``, as uvicorn reads them)."""
    if not config.proxy_headers:
        return False
    allowed = config.forwarded_allow_ips
    return _trusted(allowed if isinstance(allowed, str) else ",".join(allowed), host)


@functools.lru_cache(maxsize=4096)
def _trusted(allowed: str, host: str) -> bool:
    """True when ``host`` is among the ``--forwarded-allow-ips`` ``allowed``
    (remembered for the last 4,096 pairs: every new connection asks)."""
    everyone, networks, literals = _proxies(allowed)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return everyone or host in literals
    return everyone or any(ip in net for net in networks)


@functools.cache
def limits() -> dict:
    """Return this process's connection limits by name (:func:`arbiter.settings.connections`)."""
    return settings.named(settings.connections())


class ProblemH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, its own refusals answered as problem+json, with fixed
    limits: a request line over ``MAX_REQUEST_LINE`` bytes (default 8190) is 414, a
    request head (line and headers) over ``--h11-max-incomplete-event-size`` (16 KiB)
    is 431, however the bytes arrive (h11 alone only measures a head still
    incomplete); and unfinished connections bounded in time and number (see the
    module)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits()
        self.max_head = self.config.h11_max_incomplete_event_size or 16 * 1024
        self.max_line = self.limits["MAX_REQUEST_LINE"]
        self.timeout_keep_alive = self.limits["KEEPALIVE_SECONDS"]
        self.head: bytearray | None = bytearray()
        self.refusal = 400
        self.pending = pending_of(self.server_state)
        self.key: str | None = None  # None: not counted (a trusted proxy, a Unix socket)
        self.counted = False
        self.deadline = None
        self.gone = False
        next_event = self.conn.next_event

        def watched_next_event():
            try:
                return next_event()
            except h11.RemoteProtocolError as err:
                self.refusal = err.error_status_hint
                raise

        self.conn.next_event = watched_next_event

    def connection_made(self, transport) -> None:
        """Take the connection as uvicorn does, count it unfinished and start its head
        deadline."""
        super().connection_made(transport)
        peer = get_remote_addr(transport)
        if peer is not None and not trusts(self.config, peer[0]):
            self.key = client_key(peer[0])
        self.track()

    def connection_lost(self, exc) -> None:
        """Forget the connection, as uvicorn does."""
        super().connection_lost(exc)
        self.gone = True
        self.track()

    def data_received(self, data: bytes) -> None:
        """Refuse a request whose line or head is over its limit, before h11 reads it.
        A head is measured from its first byte: what comes while h11 still reads a
        body (the rest of one answered early) is that body, dropped by uvicorn."""
        if self.head is None and self.conn.their_state is h11.IDLE:
            self.head = bytearray()
        if self.head is not None:
            self.head += data
            line_end, head_end = self.head.find(b"\n"), self.head.find(b"\r\n\r\n")
            if (line_end if line_end >= 0 else len(self.head)) > self.max_line:
                self.send_problem(414)
                return
            if (head_end if head_end >= 0 else len(self.head)) > self.max_head:
                self.send_problem(431)
                return
            if head_end >= 0:
                self.head = None
        super().data_received(data)
        self.track()

    def handle_events(self) -> None:
        """Read the request as uvicorn does, then give a GET request's scope its
        :class:`DirectWriter` (before the app's task first runs)."""
        super().handle_events()
        cycle = self.cycle
        if cycle is not None and cycle.scope.get("method") == "GET":
            extensions = cycle.scope.setdefault("extensions", {})
            if DIRECT_WRITE not in extensions:
                extensions[DIRECT_WRITE] = DirectWriter(cycle)

    def on_response_complete(self) -> None:
        """End the answer as uvicorn does (which starts the keep-alive wait)."""
        super().on_response_complete()
        self.track()

    # ---------------------------------------------------------- unfinished connections

    def track(self) -> None:
        """Keep the connection's place among the unfinished ones (:class:`Pending`) and
        its deadline up to date with h11's state: unfinished while the client has a
        head or a body to send; under the head deadline while it sends a head (or the
        rest of a body answered early) and no keep-alive wait runs."""
        closing = self.gone or self.transport is None or self.transport.is_closing()
        their = self.conn.their_state
        unfinished = not closing and their in (h11.IDLE, h11.SEND_BODY)
        if unfinished and not self.counted and self.key is not None:
            self.counted = True
            self.pending.add(self, self.key, self.loop.time())
            self.make_room()
            self.loop.call_later(self.limits["SLOW_AFTER_SECONDS"], self.make_room)
        elif not unfinished and self.counted:
            self.counted = False
            self.pending.discard(self, self.key)
        timed = (
            not closing
            and self.timeout_keep_alive_task is None
            and (their is h11.IDLE or (their is h11.SEND_BODY and self.conn.our_state is h11.DONE))
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
        if self.conn.their_state is h11.IDLE:
            return bool(self.head)
        return self.conn.their_state is h11.SEND_BODY and not (
            self.cycle is not None and self.cycle.response_started
        )

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
        if self.conn.their_state is h11.IDLE and self.head:
            self.send_problem(408)
        else:
            self.transport.close()
        self.track()

    # ---------------------------------------------------------- refusals

    def send_400_response(self, msg: str) -> None:
        """Answer a request h11 cannot read (400, or 431 for size) as problem+json."""
        self.send_problem(self.refusal if self.refusal in SERVER_PROBLEMS else 400)

    def send_problem(self, status: int, headers: list | None = None) -> None:
        """Answer with a problem+json of ``status`` and close the connection."""
        headers = [
            (b"content-type", b"application/problem+json"),
            (b"connection", b"close"),
            *(headers or []),
        ]
        body = problem_json(status)
        head = b"HTTP/1.1 %d %s\r\n" % (status, HTTPStatus(status).phrase.encode())
        head += b"".join(k + b": " + v + b"\r\n" for k, v in headers)
        self.transport.write(head + b"content-length: %d\r\n\r\n" % len(body) + body)
        self.transport.close()
        self.track()
