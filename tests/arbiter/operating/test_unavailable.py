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
    app = create_app(
        {
            "TESTING": True,
            "ENQUEUE": False,
            "DB_RETRY_AFTER_SECONDS": 7,
            "SQLALCHEMY_DATABASE_URI": f"postgresql+psycopg://postgres@127.0.0.1:{port}/nothing",
        }
    )
    return app.test_client()


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("get", "/v1/games/abc", None),
        ("get", "/v1/games", None),
        ("get", "/v1/games/abc/events?after=0&wait=5", None),
        ("post", "/v1/games", {"engine": "space-worm", "players": [{"name": "Ann"}]}),
        ("post", "/v1/games/abc/moves", {"move": {"die": 0, "direction": "up"}}),
    ],
)
def test_requests_needing_the_database_get_503_with_retry_after(
    unreachable_client, method, path, body
):
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

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/v1/games/abc/stream",
        "query_string": b"",
        "headers": [],
    }
    asyncio.run(front(scope, receive, send))
    start = sent[0]
    assert start["status"] == 503
    assert dict(start["headers"])[b"retry-after"] == b"7"
    assert dict(start["headers"])[b"content-type"] == b"application/problem+json"
    assert b"database-unavailable" in sent[1]["body"]


@pytest.mark.parametrize("pre_ping", [False, True])
def test_a_pooled_connection_that_died_gives_503_once_then_the_pool_recovers(
    postgres_url, pre_ping
):
    """Given the web process's pool (no pre-ping, ``role="web"``) holding
    connections whose server processes were terminated (as a PostgreSQL restart does),
    the next request answers 503 problem+json with Retry-After, never a 500, and the
    one after it 200 on fresh connections; with ``DB_PRE_PING`` on the dead connection
    is replaced before use and the first request already answers 200."""
    import sqlalchemy as sa

    from arbiter.extensions import db
    from tests.conftest import make_app

    app = make_app(postgres_url, role="web", DB_RETRY_AFTER_SECONDS=7, DB_PRE_PING=pre_ping)
    client = app.test_client()
    assert client.get("/v1/games").status_code == 200
    with app.app_context():
        mine = db.session.execute(sa.text("SELECT pg_backend_pid()")).scalar()
        db.session.rollback()
    admin = sa.create_engine(postgres_url)
    with admin.begin() as conn:  # this app's pooled connection (the other tests' are theirs)
        conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": mine})
    admin.dispose()
    first = client.get("/v1/games")
    if pre_ping:
        assert first.status_code == 200
    else:
        assert first.status_code == 503, first.get_data()[:300]
        assert first.mimetype == "application/problem+json"
        assert first.headers["Retry-After"] == "7"
        assert first.json["code"] == "database-unavailable"
    assert client.get("/v1/games").status_code == 200
    assert client.get("/v1/games/nothing").status_code == 404
    with app.app_context():
        db.engine.dispose()


def test_the_web_process_pings_no_connection_unless_told_to():
    """The web front's app lends pooled connections without a ping (a round trip per
    request); ``DB_PRE_PING=1`` turns it on; workers keep their ping."""
    from arbiter.config import engine_options
    from arbiter.settings import Settings, environment

    def options(env, role="web"):
        return engine_options(Settings.from_env({"SECRET_KEY": "k", **env}, "/tmp", role).database)

    url = "postgresql://postgres@db.example/arbiter"
    assert options({"DATABASE_URL": url})["pool_pre_ping"] is False
    on = {"DATABASE_URL": url, **environment({"DB_PRE_PING": 1})}
    assert options(on)["pool_pre_ping"] is True
    assert options({"DATABASE_URL": url})["pool_size"] == 10
    assert options({})["pool_pre_ping"] is False  # the embedded SQLite default
    assert options({"DATABASE_URL": url}, "workers")["pool_pre_ping"] is True
