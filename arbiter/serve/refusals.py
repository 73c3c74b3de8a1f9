"""The answers the web process gives without the app: problem+json, then the
connection closed."""

from __future__ import annotations

import json
from http import HTTPStatus

from arbiter.problems import problem_body

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


def refusal(status: int, headers: list | None = None) -> bytes:
    """Return the whole HTTP/1.1 answer (head and body) of a refusal with ``status``:
    problem+json, ``connection: close``, and ``headers`` (``(name, value)`` bytes)."""
    headers = [
        (b"content-type", b"application/problem+json"),
        (b"connection", b"close"),
        *(headers or []),
    ]
    body = problem_json(status)
    head = b"HTTP/1.1 %d %s\r\n" % (status, HTTPStatus(status).phrase.encode())
    head += b"".join(k + b": " + v + b"\r\n" for k, v in headers)
    return head + b"content-length: %d\r\n\r\n" % len(body) + body
