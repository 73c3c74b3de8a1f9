"""The web server's side of the contract: the errors uvicorn answers itself are
problem details too.

uvicorn (h11) answers a request it cannot parse without calling the app, with a
``text/plain`` 400. :class:`ProblemH11Protocol` is uvicorn's h11 protocol answering
those as ``application/problem+json`` (400 ``bad-request``), refusing a request line or
head over its limit (414 ``uri-too-long``, 431 ``headers-too-large``), and closing the
connection as uvicorn does. The Procfile selects
it with ``--http arbiter.serve:ProblemH11Protocol``.

It also offers the streams a way past the ASGI ``send`` (:data:`DIRECT_WRITE`): the
stream hub writes one event's bytes to thousands of connections at once, and a write
straight to each connection's transport costs a system call, where a coroutine woken
per reader to ``await send`` costs several times that (see :mod:`arbiter.streams.hub`).
"""

from __future__ import annotations

import json
import os
from http import HTTPStatus

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from arbiter.errors import problem_body

DIRECT_WRITE = "arbiter.direct_write"
"""The ASGI scope extension (``scope["extensions"][DIRECT_WRITE]``) holding a
:class:`DirectWriter` for the request's response."""

SERVER_PROBLEMS = {
    400: ("bad-request", "The request line or one of its headers cannot be read."),
    414: ("uri-too-long", "The URL is longer than the server reads."),
    431: ("headers-too-large", "The request's headers are larger than the server reads."),
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


class ProblemH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, its own refusals answered as problem+json, with fixed
    limits: a request line over ``MAX_REQUEST_LINE`` bytes (default 8190) is 414, a
    request head (line and headers) over ``--h11-max-incomplete-event-size`` (16 KiB)
    is 431, however the bytes arrive (h11 alone only measures a head still
    incomplete)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.max_head = self.config.h11_max_incomplete_event_size or 16 * 1024
        self.max_line = int(os.environ.get("MAX_REQUEST_LINE", "8190"))
        self.head: bytearray | None = bytearray()
        self.refusal = 400
        next_event = self.conn.next_event

        def watched_next_event():
            try:
                return next_event()
            except h11.RemoteProtocolError as err:
                self.refusal = err.error_status_hint
                raise

        self.conn.next_event = watched_next_event

    def data_received(self, data: bytes) -> None:
        """Refuse a request whose line or head is over its limit, before h11 reads it."""
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
        """Measure the next request of the connection afresh."""
        self.head = bytearray()
        super().on_response_complete()

    def send_400_response(self, msg: str) -> None:
        """Answer a request h11 cannot read (400, or 431 for size) as problem+json."""
        self.send_problem(self.refusal if self.refusal in SERVER_PROBLEMS else 400)

    def send_problem(self, status: int) -> None:
        """Answer with a problem+json of ``status`` and close the connection."""
        headers = [(b"content-type", b"application/problem+json"), (b"connection", b"close")]
        body = problem_json(status)
        head = b"HTTP/1.1 %d %s\r\n" % (status, HTTPStatus(status).phrase.encode())
        head += b"".join(k + b": " + v + b"\r\n" for k, v in headers)
        self.transport.write(head + b"content-length: %d\r\n\r\n" % len(body) + body)
        self.transport.close()
