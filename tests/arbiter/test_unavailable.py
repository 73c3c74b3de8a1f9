"""A database that cannot be reached is a 503 problem with Retry-After (issue 16),
never a 500 or a hang. (Stopping a real PostgreSQL mid-game: tests/e2e/test_faults.py.)"""

from __future__ import annotations

import time

import pytest

from arbiter import create_app
from tests.conftest import free_port


@pytest.fixture
def unreachable_client():
    """A client of an app whose PostgreSQL URL points at a port nobody listens on."""
    port = free_port()
    app = create_app({"TESTING": True, "ENQUEUE": False, "DB_RETRY_AFTER_SECONDS": 7,
                      "SQLALCHEMY_DATABASE_URI":
                          f"postgresql+psycopg://postgres@127.0.0.1:{port}/nothing"})
    return app.test_client()


@pytest.mark.parametrize("method, path, body", [
    ("get", "/v1/games/abc", None),
    ("get", "/v1/games", None),
    ("get", "/v1/games/abc/events?after=0&wait=5", None),
    ("post", "/v1/games", {"engine": "space-worm", "players": [{"name": "Ann"}]}),
    ("post", "/v1/games/abc/moves", {"move": {"die": 0, "direction": "up"}}),
])
def test_requests_needing_the_database_get_503_with_retry_after(unreachable_client,
                                                                method, path, body):
    """Given the database down, reads, writes and long-polls answer at once with 503
    ``database-unavailable`` as problem+json, and Retry-After the configured seconds."""
    started = time.monotonic()
    token = {"Authorization": "Bearer " + "x" * 43} if path.endswith("/moves") else {}
    answer = getattr(unreachable_client, method)(path, json=body, headers=token)
    assert time.monotonic() - started < 5
    assert answer.status_code == 503
    assert answer.mimetype == "application/problem+json"
    assert answer.headers["Retry-After"] == "7"
    assert answer.json["code"] == "database-unavailable"
    assert "nothing was recorded" in answer.json["detail"]


def test_what_needs_no_database_still_answers(unreachable_client):
    """Given the database down, the engine list (no database) still answers 200."""
    assert unreachable_client.get("/v1/engines").status_code == 200


def test_a_stream_asked_for_while_the_database_is_down_gets_503(unreachable_client):
    """Given the database down, the web front's own route (the SSE stream, served
    outside Flask) answers 503 problem+json with Retry-After too."""
    import asyncio

    from arbiter.streams.asgi import Front

    front = Front(unreachable_client.application)
    sent = []

    async def receive():
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/v1/games/abc/stream",
             "query_string": b"", "headers": []}
    asyncio.run(front(scope, receive, send))
    start = sent[0]
    assert start["status"] == 503
    assert dict(start["headers"])[b"retry-after"] == b"7"
    assert dict(start["headers"])[b"content-type"] == b"application/problem+json"
    assert b"database-unavailable" in sent[1]["body"]
