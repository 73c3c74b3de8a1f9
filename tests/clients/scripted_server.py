"""A real HTTP server on loopback that answers from a script, for the client's
behaviour on answers the running service gives only under faults (a 503 while its
database is down, a stream dropped mid-way): each request is recorded, and answered by
the next entry of the script."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Answer:
    """One scripted answer: a status, headers, and a body (a dict is sent as JSON,
    ``application/problem+json`` when the status is 400 or more)."""

    status: int
    body: dict | list | str | bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """seconds before the answer (a long-poll that waited)"""


def problem(status: int, code: str, retry_after: int | None = None, **more) -> Answer:
    """Return a problem+json answer with ``code`` (and ``Retry-After``)."""
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    body = {"type": "about:blank", "title": "T", "status": status, "detail": code, "code": code}
    return Answer(status, {**body, **more}, headers)


@dataclass
class Seen:
    """A request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class QuietServer(ThreadingHTTPServer):
    """A server that does not print the connections its clients gave up on."""

    def handle_error(self, request, client_address) -> None:
        pass


class ScriptedServer:
    """Serve ``script`` (a list of :class:`Answer`) in order on 127.0.0.1; keep every
    request in :attr:`seen`. Each answer closes its connection (HTTP/1.0), so a body
    without Content-Length ends there, as a dropped stream does."""

    def __init__(self, script: list[Answer]) -> None:
        self.script = list(script)
        self.seen: list[Seen] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def handle_one_request(self) -> None:  # any method
                self.raw_requestline = self.rfile.readline(65537)
                if not self.raw_requestline or not self.parse_request():
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                owner.seen.append(Seen(self.command, self.path, dict(self.headers), body))
                answer = owner.script.pop(0) if owner.script else Answer(500, "script ended")
                self.reply(answer)

            def reply(self, answer: Answer) -> None:
                time.sleep(answer.delay)
                data = answer.body
                kind = "text/plain"
                if isinstance(data, dict | list):
                    data = json.dumps(data).encode()
                    kind = (
                        "application/problem+json" if answer.status >= 400 else "application/json"
                    )
                elif isinstance(data, str):
                    data = data.encode()
                self.send_response(answer.status)
                headers = {"Content-Type": kind, **answer.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
                self.close_connection = True

            def log_message(self, *args) -> None:
                pass

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
