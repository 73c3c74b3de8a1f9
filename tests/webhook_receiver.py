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
