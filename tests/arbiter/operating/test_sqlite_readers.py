"""On SQLite, readers do not wait on the write lock (issue 22, item 15): a request
that only reads begins a deferred transaction, a writer ``BEGIN IMMEDIATE``."""

from __future__ import annotations

import sqlite3
import threading

from sqlalchemy import event

from arbiter.extensions import db
from tests.helpers import auth, new_game, sign_in, until_decision


def test_a_read_proceeds_while_another_connection_holds_the_write_lock(app, client):
    """Issue 22, item 15: every SQLite transaction was ``BEGIN IMMEDIATE``, so a
    read waited for the write lock (up to the 30 s busy timeout, then ``503 database
    is locked``). Now a game summary, the games page, a long-poll's first read and an
    authenticated read (whose token's last-used time is due) answer at once while
    another connection holds the lock; the token's time is written on a later use."""
    game_id, tokens = new_game(client)
    until_decision(client, app, game_id)
    token = sign_in(client, app, "reader@example.org", "Reader")
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    holder = sqlite3.connect(path, isolation_level=None, timeout=1)
    holder.execute("UPDATE api_tokens SET last_used_at = NULL")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("UPDATE api_tokens SET last_used_at = NULL")  # a writer at work
    answers: dict[str, int] = {}

    def read() -> None:
        answers["summary"] = client.get(f"/v1/games/{game_id}").status_code
        answers["page"] = client.get("/games").status_code
        answers["events"] = client.get(f"/v1/games/{game_id}/events?after=0").status_code
        answers["me"] = client.get("/v1/me", headers=auth(token)).status_code

    reader = threading.Thread(target=read, daemon=True)
    try:
        reader.start()
        reader.join(5)
        assert not reader.is_alive(), "the reads waited on the write lock"
    finally:
        holder.execute("ROLLBACK")
        reader.join(60)
        holder.close()
    assert answers == {"summary": 200, "page": 200, "events": 200, "me": 200}
    assert client.get("/v1/me", headers=auth(token)).status_code == 200
    with app.app_context():
        used = db.session.execute(db.text("SELECT last_used_at FROM api_tokens")).scalars()
        assert all(u is not None for u in used)


def test_writers_begin_immediate_and_readers_deferred(app, client):
    """Issue 22, item 15: writers keep ``BEGIN IMMEDIATE`` (no deadlock on a lock
    upgrade between two read-then-write transactions); readers begin plain."""
    game_id, tokens = new_game(client)
    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def record(conn, cursor, statement, *args):
        if statement.startswith("BEGIN"):
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        assert client.get(f"/v1/games/{game_id}").status_code == 200
        reads = list(seen)
        seen.clear()
        assert client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[0])).status_code in (
            200,
            201,
        )
        writes = list(seen)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert reads and set(reads) == {"BEGIN"}
    assert writes and set(writes) == {"BEGIN IMMEDIATE"}
