"""A real HTTP server on loopback that receives web hooks, for tests and the bench.

It records every POST (path, headers, body, the time it arrived) and answers each with
the next status of its plan (then ``default``), so a test can make it fail a few times
and then succeed, redirect, or answer ``410 Gone``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    """One POST as the receiver saw it; ``at`` is ``time.time()`` on arrival."""

    path: str
    headers: dict[str, str]
    body: bytes
    at: float
    status: int


@dataclass
class Receiver:
    """The server's state: what it got, and what it answers next."""

    plan: list[int] = field(default_factory=list)
    default: int = 204
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""

    def answer(self) -> int:
        with self.lock:
            return self.plan.pop(0) if self.plan else self.default

    def ok(self) -> list[Received]:
        """Return the POSTs answered with a 2xx status."""
        with self.lock:
            return [r for r in self.received if 200 <= r.status < 300]

    def wait_for(self, count: int, seconds: float = 30.0, ok: bool = True) -> list[Received]:
        """Wait until ``count`` POSTs (answered 2xx when ``ok``) arrived; return them."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            got = self.ok() if ok else list(self.received)
            if len(got) >= count:
                return got
            time.sleep(0.02)
        return self.ok() if ok else list(self.received)


def _handler(state: Receiver):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server API
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status = state.answer()
            with state.lock:
                state.received.append(
                    Received(self.path, dict(self.headers.items()), body, time.time(), status)
                )
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", state.url + "elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    return Handler


class ReceiverServer:
    """``with ReceiverServer() as receiver:`` a threaded HTTP server on 127.0.0.1; the
    receiver's ``url`` is ``http://127.0.0.1:<port>/``."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.state = Receiver()
        self.server = ThreadingHTTPServer((host, 0), _handler(self.state))
        self.state.url = f"http://{host}:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self.state

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


# --------------------------------------------------------------------------- slow ones


@dataclass
class Visit:
    """One request to a :class:`SlowReceiver`: its path, when its request had arrived
    and when the client closed the connection (None while open), ``time.monotonic()``."""

    path: str
    opened: float
    closed: float | None = None


@dataclass
class SlowState:
    """What a :class:`SlowReceiver` saw: every visit, and per group (a path's second
    segment: ``/hang/<group>/...``) the most connections it held open at once."""

    visits: list[Visit] = field(default_factory=list)
    open_now: dict[str, int] = field(default_factory=dict)
    most_open: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""

    def of(self, prefix: str) -> list[Visit]:
        """Return the visits whose path starts with ``prefix``."""
        with self.lock:
            return [v for v in self.visits if v.path.startswith(prefix)]


class SlowReceiver:
    """``with SlowReceiver() as state:`` a web hook receiver on 127.0.0.1 that answers
    by the request's path: ``/hang/...`` reads the request and never answers;
    ``/drip/...`` answers one byte every ``drip_seconds`` and never ends (a status line
    and then an endless header, so no per-read timeout ever fires); ``/fail/...``
    answers 500; anything else 204. ``tls=True``: instead, every connection gets the
    start of a TLS record one byte every ``drip_seconds`` (a handshake that never ends).
    Each request is recorded with when the client closed its connection."""

    def __init__(self, drip_seconds: float = 1.0, tls: bool = False) -> None:
        import socket

        self.drip_seconds = drip_seconds
        self.tls = tls
        self.state = SlowState()
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.listener.settimeout(0.2)
        scheme = "https" if tls else "http"
        self.state.url = f"{scheme}://127.0.0.1:{self.listener.getsockname()[1]}/"
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> SlowState:
        self.thread.start()
        return self.state

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self.listener.close()

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn) -> None:
        with conn:
            path = "/tls" if self.tls else _read_request(conn)
            if path is None:
                return
            visit = Visit(path, time.monotonic())
            group = path.split("/")[2] if path.count("/") >= 2 else ""
            with self.state.lock:
                self.state.visits.append(visit)
                self.state.open_now[group] = self.state.open_now.get(group, 0) + 1
                self.state.most_open[group] = max(
                    self.state.most_open.get(group, 0), self.state.open_now[group]
                )
            try:
                self._answer(conn, path)
            finally:
                with self.state.lock:
                    visit.closed = time.monotonic()
                    self.state.open_now[group] -= 1

    def _answer(self, conn, path: str) -> None:
        if self.tls:
            self._drip(conn, b"\x16\x03\x03\x40\x00" + b"\x02" * 16384)
        elif path.startswith("/hang/"):
            self._drip(conn, b"")
        elif path.startswith("/drip/"):
            self._drip(conn, b"HTTP/1.1 200 OK\r\nX-Drip: " + b"a" * 60000)
        else:
            status = "500 Internal Server Error" if path.startswith("/fail/") else "204 No Content"
            conn.sendall(f"HTTP/1.1 {status}\r\nContent-Length: 0\r\n\r\n".encode())
            _until_closed(conn, self.stopping, 5.0)

    def _drip(self, conn, data: bytes) -> None:
        """Send ``data`` one byte every ``drip_seconds`` (nothing when empty) until the
        client closes the connection or the server stops."""
        import select

        sent = 0
        while not self.stopping.is_set():
            readable, _, _ = select.select([conn], [], [], self.drip_seconds if data else 0.05)
            if readable and _closed(conn):
                return
            if data and not readable:
                try:
                    conn.sendall(data[sent % len(data) : sent % len(data) + 1])
                except OSError:
                    return
                sent += 1


def _read_request(conn) -> str | None:
    """Read one HTTP request (headers and its Content-Length body); return its path."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head.split(b" ")[1].decode()


def _closed(conn) -> bool:
    """True when the peer closed (a readable socket that reads nothing, or an error);
    a request's spare bytes are read and dropped."""
    try:
        return conn.recv(65536) == b""
    except OSError:
        return True


def _until_closed(conn, stopping: threading.Event, seconds: float) -> None:
    """Wait up to ``seconds`` for the client to close the connection."""
    import select

    end = time.monotonic() + seconds
    while not stopping.is_set() and time.monotonic() < end:
        readable, _, _ = select.select([conn], [], [], 0.05)
        if readable and _closed(conn):
            return
