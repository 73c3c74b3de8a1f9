"""gunicorn's side of the contract: the errors gunicorn answers itself are problem
details too, and an answer that says ``Connection: close`` closes the connection.

gunicorn answers a request it cannot parse (a bad request line or header: 400, a URL
over ``limit_request_line``: 414, headers over ``limit_request_fields`` or
``limit_request_field_size``: 431) without calling the app, with an HTML page; and it
drops the ``Connection`` header an app sends. :class:`ProblemWorker` is gunicorn's
threaded worker with both changed; ``arbiter/gunicorn_config.py`` selects it.
"""

from __future__ import annotations

import json
import re
from http import HTTPStatus

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

from arbiter.errors import problem_body

GUNICORN_PROBLEMS = {
    400: ("bad-request", "The request line or one of its headers cannot be read."),
    414: ("uri-too-long", "The URL is longer than the server reads."),
    431: ("headers-too-large", "The request's headers are larger than the server reads."),
    500: ("internal-error", "Something went wrong on the server; nothing was recorded."),
}
"""Codes and details of the answers gunicorn gives without the app, by status."""


class _Recorder:
    """Stands in for the client socket while gunicorn writes its HTML error, to learn
    the status it chose."""

    def __init__(self) -> None:
        self.data = b""

    def gettimeout(self) -> float:
        """Say the socket is non-blocking, so gunicorn does not change it."""
        return 0.0

    def sendall(self, data: bytes) -> None:
        """Keep what gunicorn wrote."""
        self.data += data

    def status(self) -> int:
        """Return the status of the recorded answer (500 if none)."""
        found = re.match(rb"HTTP/1\.[01] (\d{3}) ", self.data)
        return int(found.group(1)) if found else 500


def problem_answer(status: int) -> bytes:
    """Return the raw HTTP answer (problem+json, ``Connection: close``) for an error
    gunicorn answers with ``status``."""
    code, detail = GUNICORN_PROBLEMS.get(status, (f"http-{status}", HTTPStatus(status).phrase))
    body = json.dumps(problem_body(status, code, HTTPStatus(status).phrase, detail)).encode()
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def honour_connection_close(app):
    """Wrap a WSGI app so that an answer with ``Connection: close`` makes gunicorn
    close the connection after it (gunicorn drops hop-by-hop headers; its response
    object, whose ``start_response`` the app is given, can be told to close)."""

    def wrapped(environ, start_response):
        def start(status, headers, exc_info=None):
            if any(k.lower() == "connection" and v.lower() == "close" for k, v in headers):
                force_close = getattr(getattr(start_response, "__self__", None),
                                      "force_close", None)
                if force_close:
                    force_close()
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return wrapped


class ProblemWorker(ThreadWorker):
    """gunicorn's gthread worker answering its own errors as problem+json."""

    def load_wsgi(self) -> None:
        """Load the app (as gunicorn does) and wrap it in
        :func:`honour_connection_close`."""
        super().load_wsgi()
        self.wsgi = honour_connection_close(self.wsgi)

    def handle_error(self, req, client, addr, exc) -> None:
        """Log the error as gunicorn does, but answer it as problem+json."""
        recorder = _Recorder()
        super().handle_error(req, recorder, addr, exc)
        try:
            util.write_nonblock(client, problem_answer(recorder.status()))
        except Exception:  # noqa: BLE001 - the client may be gone, as in gunicorn
            self.log.debug("Failed to send error message.")
