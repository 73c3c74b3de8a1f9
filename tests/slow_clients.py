"""Slow and idle HTTP clients on raw sockets, for the tests and the benchmark that hold
connections open against a real web process (issue 22: slow bodies, slowloris heads).

Every connection may come from its own loopback address (``127.0.0.2``, ...): on Linux
the whole of 127.0.0.0/8 is this machine, so one test plays several clients.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time


def connect(port: int, source: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """Return a connection to 127.0.0.1:``port`` from address ``source``."""
    return socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(source, 0)
    )


def read_answer(sock: socket.socket, data: bytes = b"") -> tuple[int, dict, bytes, bytes]:
    """Read one HTTP answer from ``sock`` (``data``: bytes already read); return its
    status, headers (lower-case names), body and the bytes read past it.

    :raises ConnectionError: the connection closed before a whole answer came.
    """
    while b"\r\n\r\n" not in data:
        more = sock.recv(65536)
        if not more:
            raise ConnectionError(f"closed after {data[:200]!r}")
        data += more
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    length = int(headers.get("content-length", 0))
    while len(rest) < length:
        more = sock.recv(65536)
        if not more:
            raise ConnectionError("closed in the body")
        rest += more
    return int(lines[0].split()[1]), headers, rest[:length], rest[length:]


def closed_after(sock: socket.socket, seconds: float) -> bool:
    """True when the peer closes ``sock`` within ``seconds`` (anything it still sends
    is read and dropped)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([sock], [], [], left)
        if not ready:
            return False
        try:
            if sock.recv(65536) == b"":
                return True
        except OSError:  # reset
            return True
    return False


def get(port: int, path: str = "/v1/engines", source: str = "127.0.0.1", timeout: float = 10):
    """``GET path`` on a new connection; return ``(status, seconds)``, or ``(None,
    seconds)`` when no answer came within ``timeout``."""
    started = time.monotonic()
    try:
        with connect(port, source, timeout) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
            status = read_answer(sock)[0]
    except (OSError, ConnectionError):
        status = None
    return status, time.monotonic() - started


def get_body(
    port: int,
    method: str,
    path: str,
    body: bytes = b"",
    source: str = "127.0.0.1",
    headers: dict | None = None,
) -> tuple[int, dict, bytes]:
    """Send a request with a JSON ``body`` at once on a new connection; return the
    answer's status, headers and body."""
    lines = [f"{method} {path} HTTP/1.1", "Host: t", "Content-Type: application/json"]
    lines += [f"Content-Length: {len(body)}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    with connect(port, source) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        return read_answer(sock)[:3]


class SlowClients:
    """``count`` connections that each send ``head`` at once, then one byte of
    ``drip`` a second (a slow body, or more header lines for a slowloris) until the
    server answers or closes; use as a context manager (closes them all)."""

    def __init__(
        self, port: int, count: int, head: bytes, drip: bytes = b"x", sources=("127.0.0.1",)
    ) -> None:
        self.socks: list[socket.socket] = []
        self.opened: list[float] = []
        self.ended: dict[int, tuple[float, int | None, bytes]] = {}
        self.stopped = threading.Event()
        self.lock = threading.Lock()  # the drip thread and the test both look
        for i in range(count):
            sock = connect(port, sources[i % len(sources)])
            sock.sendall(head)
            sock.setblocking(False)
            self.socks.append(sock)
            self.opened.append(time.monotonic())
        self.drip = drip
        self.thread = threading.Thread(target=self._drip, daemon=True)
        self.thread.start()

    def _drip(self) -> None:
        """Send one byte to every open connection a second; note the answers."""
        while not self.stopped.wait(1.0):
            with self.lock:
                for i, sock in enumerate(self.socks):
                    if i not in self.ended:
                        self._look(i, sock)
                    if i not in self.ended:
                        try:
                            sock.send(self.drip)
                        except OSError:
                            self.ended[i] = (time.monotonic(), None, b"")

    def _look(self, i: int, sock: socket.socket) -> None:
        """Note connection ``i`` ended if the server answered or closed it."""
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        status, body = None, b""
        if data:
            sock.settimeout(2.0)
            try:
                status, _, body, _ = read_answer(sock, data)
            except (OSError, ConnectionError, ValueError, IndexError):
                status = -1  # not an HTTP answer
        self.ended[i] = (time.monotonic(), status, body)

    def look(self) -> None:
        """Note every connection the server answered or closed by now."""
        with self.lock:
            for i, sock in enumerate(self.socks):
                if i not in self.ended:
                    self._look(i, sock)

    def open_count(self) -> int:
        """Return how many connections the server has neither answered nor closed."""
        self.look()
        return len(self.socks) - len(self.ended)

    def wait_all_ended(self, seconds: float) -> bool:
        """True when the server answered or closed every connection within ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.open_count() == 0:
                return True
            time.sleep(0.1)
        return self.open_count() == 0

    def answers(self) -> dict:
        """Return how many connections ended with each status (None: closed unanswered)."""
        self.look()
        out: dict = {}
        for _, status, _ in self.ended.values():
            out[status] = out.get(status, 0) + 1
        return out

    def problem_codes(self) -> set[str]:
        """Return the problem ``code`` of every answer the connections got."""
        codes = set()
        for _, status, body in self.ended.values():
            if status is not None:
                codes.add(json.loads(body or b"{}").get("code"))
        return codes

    def close(self) -> None:
        """Stop dripping and close every connection."""
        self.stopped.set()
        self.thread.join()
        for sock in self.socks:
            sock.close()

    def __enter__(self) -> SlowClients:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def slow_body_head(path: str = "/v1/auth/links", length: int = 60_000) -> bytes:
    """Return the head of a POST announcing a JSON body of ``length`` bytes, and its
    first byte."""
    return (
        f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n{{"
    ).encode()


SLOWLORIS_HEAD = b"GET /v1/engines HTTP/1.1\r\nHost: t\r\nX-a: "
"""The start of a head that a slowloris client never finishes (it adds a byte a second)."""
