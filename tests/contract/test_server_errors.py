"""Errors the web server answers itself (a bad request line, a URL or headers too
large) are problem+json like every other error, and a 413 closes the connection, so
the unread body is never read as the next request. Against the Procfile's real web
process (uvicorn with ``arbiter.serve.ProblemHttpToolsProtocol``)."""

from __future__ import annotations

import json
import socket
import time

import pytest
import requests

from tests import processes
from tests.conftest import free_port

pytestmark = pytest.mark.xdist_group("server-errors")
"""Its servers are module-wide: one xdist worker runs the module."""


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
    raw = (
        b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    ) + body[:1000]
    answer = exchange(web, raw)
    assert_problem(answer, 413, "body-too-large")
    assert answer[1]["connection"] == "close" and answer[3], "the connection stays open"


def test_an_ordinary_answer_keeps_the_connection_alive(web):
    status, headers, _, closed = exchange(web, b"GET /v1/engines HTTP/1.1\r\nHost: t\r\n\r\n")
    assert status == 200 and not closed


def create_game(port: int) -> tuple[str, list[str]]:
    """Create a Space Worm game of two over HTTP; return its id and seat tokens."""
    body = {
        "engine": "space-worm",
        "options": {},
        "players": [{"name": "Ann", "email": None}, {"name": "Bob", "email": None}],
    }
    answer = requests.post(f"http://127.0.0.1:{port}/v1/games", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], [s["token"] for s in answer.json()["seats"]]


def test_a_body_still_arriving_holds_no_database_lock(web):
    """SQLite: a seat's move whose body has not all arrived stops nobody else (the
    guard's transaction ends before the body is read)."""
    slow_game, tokens = create_game(web)
    other_game, _ = create_game(web)
    head = (
        f"POST /v1/games/{slow_game}/moves HTTP/1.1\r\nHost: t\r\n"
        f"Authorization: Bearer {tokens[0]}\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n{"
    ).encode()
    with socket.create_connection(("127.0.0.1", web), timeout=10) as held:
        held.sendall(head)
        time.sleep(0.5)  # the guard has run: the server waits for the rest of the body
        url = f"http://127.0.0.1:{web}/v1/games"
        started = time.monotonic()
        assert requests.get(f"{url}/{other_game}", timeout=10).status_code == 200
        create_game(web)
        assert time.monotonic() - started < 5, "a half-sent body held the database"


def test_a_bad_token_is_refused_before_the_body_is_parsed(web):
    """The web process reads a body whole before Flask sees it (issue 22: no thread
    waits for a slow client), but Flask refuses a bad token before it parses or
    validates the body: 401, not 400, for a body that is not JSON."""
    game_id, _ = create_game(web)
    body = b"{not json" + b" " * 990
    raw = (
        f"POST /v1/games/{game_id}/moves HTTP/1.1\r\nHost: t\r\n"
        "Authorization: Bearer wrong\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    got, _, answer, _ = exchange(web, raw)
    assert got == 401, answer


def chunked(body: bytes, size: int = 4096) -> bytes:
    """Return ``body`` in the chunked transfer coding."""
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


def test_a_chunked_body_is_read(web):
    body = json.dumps(
        {
            "engine": "space-worm",
            "options": {},
            "players": [{"name": "Ann", "email": None}, {"name": "Bob", "email": None}],
        }
    ).encode()
    raw = (
        b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    ) + chunked(body, 10)
    got, _, answer, _ = exchange(web, raw)
    assert got == 201, answer
    assert [s["name"] for s in json.loads(answer)["seats"]] == ["Ann", "Bob"]


def test_a_chunked_body_too_large_is_refused(web):
    body = b'{"engine": "' + b"z" * 300_000 + b'"}'
    raw = (
        b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    ) + chunked(body)
    assert_problem(exchange(web, raw), 413, "body-too-large")


def test_a_chunked_body_that_is_not_json_is_refused(web):
    raw = (
        b"POST /v1/games HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    ) + chunked(b"engine=space-worm")
    assert_problem(exchange(web, raw), 415, "unsupported-media-type")


def test_a_client_that_sends_a_large_body_in_full_reads_the_413(web):
    """python-requests sends the whole body before it reads: the server reads it
    (up to BODY_DRAIN_BYTES) before it answers, so the 413 arrives, not a reset."""
    game_id, tokens = create_game(web)
    answer = requests.post(
        f"http://127.0.0.1:{web}/v1/games/{game_id}/moves",
        data=b'{"move": "' + b"x" * 600_000 + b'"}',
        timeout=10,
        headers={"Authorization": f"Bearer {tokens[0]}", "Content-Type": "application/json"},
    )
    assert answer.status_code == 413 and answer.json()["code"] == "body-too-large"
