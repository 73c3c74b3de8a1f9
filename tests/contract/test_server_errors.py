"""Errors the web server answers itself (a bad request line, a URL or headers too
large) are problem+json like every other error, and a 413 closes the connection, so
the unread body is never read as the next request. Against the Procfile's real web
process (uvicorn with ``arbiter.serve.ProblemH11Protocol``)."""

from __future__ import annotations

import json
import socket

import pytest

from tests import processes
from tests.conftest import free_port


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """The web process alone (no worker) on a fresh SQLite database; yields its port."""
    folder = tmp_path_factory.mktemp("web")
    port = free_port()
    procs = processes.serve(folder, port, processes.service_env(folder, port), celery=False)
    yield port
    processes.stop(procs)


def exchange(port: int, raw: bytes) -> tuple[int, dict, bytes, bool]:
    """Send ``raw`` on a new connection; return the status, headers and body of the
    first answer, and whether the server then closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data:
            data += sock.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
        while len(body) < int(headers.get("content-length", 0)):
            body += sock.recv(65536)
        sock.settimeout(1.0)  # under the server's keep-alive of 5 s
        try:
            closed = sock.recv(1) == b""
        except ConnectionResetError:
            closed = True
        except TimeoutError:
            closed = False
    return int(lines[0].split()[1]), headers, body, closed


def assert_problem(answer, status: int, code: str) -> None:
    got, headers, body, closed = answer
    assert got == status, body
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code and problem["detail"]


def test_a_request_line_the_server_cannot_read_is_a_problem(web):
    assert_problem(exchange(web, b"NOT A REQUEST\r\n\r\n"), 400, "bad-request")


def test_a_url_too_long_is_a_problem(web):
    raw = b"GET /v1/games?player=" + b"x" * 20_000 + b" HTTP/1.1\r\nHost: t\r\n\r\n"
    assert_problem(exchange(web, raw), 414, "uri-too-long")


def test_headers_too_large_are_a_problem(web):
    raw = b"GET /v1/engines HTTP/1.1\r\nHost: t\r\nX-Big: " + b"y" * 100_000 + b"\r\n\r\n"
    assert_problem(exchange(web, raw), 431, "headers-too-large")


def test_a_body_too_large_is_refused_and_the_connection_closed(web):
    body = b'{"engine": "' + b"z" * 200_000 + b'"}'
    raw = (b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
           b"Content-Length: %d\r\n\r\n" % len(body)) + body[:1000]
    answer = exchange(web, raw)
    assert_problem(answer, 413, "body-too-large")
    assert answer[1]["connection"] == "close" and answer[3], "the connection stays open"


def test_an_ordinary_answer_keeps_the_connection_alive(web):
    status, headers, _, closed = exchange(web, b"GET /v1/engines HTTP/1.1\r\nHost: t\r\n\r\n")
    assert status == 200 and not closed
