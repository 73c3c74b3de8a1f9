"""The reads a player's script repeats (the summary, legal moves, the log) run on
PostgreSQL without a transaction around them: no ``BEGIN`` and ``ROLLBACK`` round trips
for one SELECT (issue 26, "whatever the summary, the legal moves ... cost beyond the
bare stack's read")."""

from __future__ import annotations

import psycopg.pq
from sqlalchemy import event

from arbiter.extensions import db
from tests.conftest import make_app
from tests.helpers import auth


def test_summary_legal_moves_and_events_open_no_transaction(postgres_url):
    """Issue 26: each statement of a game's GETs leaves the server's session idle (no
    transaction open, as the server itself reports after every statement), while a
    move still commits its writes in one transaction."""
    app = make_app(postgres_url, role="web")
    client = app.test_client()
    created = client.post(
        "/v1/games", json={"engine": "dark-horse", "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    token = created.json["seats"][0]["token"]
    with app.app_context():
        engine = db.engine
    states: list[tuple[str, psycopg.pq.TransactionStatus]] = []

    def after(conn, cursor, statement, *args):
        states.append(
            (statement.split()[0], conn.connection.dbapi_connection.info.transaction_status)
        )

    event.listen(engine, "after_cursor_execute", after)
    try:
        for url, status in (
            (f"/v1/games/{game_id}", 200),
            (f"/v1/games/{game_id}/legal-moves", 200),
            (f"/v1/games/{game_id}/events?after=0", 200),
            (f"/v1/games/{game_id}/view", 200),
            (f"/v1/games/{game_id}/board.svg", 200),
            (f"/v1/games/{game_id}/notes", 200),
            (f"/v1/games/{game_id}/record", 409),
        ):
            states.clear()
            answer = client.get(url, headers=auth(token))
            assert answer.status_code == status, (url, answer.status_code)
            assert states and all(
                status == psycopg.pq.TransactionStatus.IDLE for _, status in states
            ), (url, states)
        # a finished game's whole record: its events too, each statement idle
        other = created.json["seats"][1]["token"]
        assert client.post(f"/v1/games/{game_id}/resign", headers=auth(other)).status_code == 201
        states.clear()
        answer = client.get(f"/v1/games/{game_id}/record", headers=auth(token))
        assert answer.status_code == 200 and answer.json["events"], answer.json
        assert len(states) > 1 and all(
            status == psycopg.pq.TransactionStatus.IDLE for _, status in states
        ), states
    finally:
        event.remove(engine, "after_cursor_execute", after)
    with app.app_context():
        db.engine.dispose()
