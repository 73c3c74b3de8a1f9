"""How many SQL statements each hot route issues (issue 13, "A cheaper move"), counted
with SQLAlchemy's ``before_cursor_execute`` event on SQLite and PostgreSQL, so that
re-reads after commit and lazy loads do not creep back. SQLite's ``BEGIN IMMEDIATE``
(issued by :func:`arbiter.database.install_sqlite_pragmas`) is a transaction marker,
not a statement, and is not counted; PostgreSQL's BEGIN/COMMIT never reach the cursor.
"""

from __future__ import annotations

import uuid
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games.chance import advance_chance
from tests.helpers import agreed

MOVE_LIMIT = 5
READ_LIMIT = 2
HOOKS_LOOKUP = "SELECT webhooks."
"""A game between accounts (the only seats mail may go to, issue 10) also looks up
those accounts' web hooks when a turn begins (issue 14): one SELECT, counted apart."""


@contextmanager
def statements(app):
    """Collect the SQL text of every statement sent to the database inside the block."""
    seen: list[str] = []

    def record(conn, cursor, statement, params, context, executemany):
        if not statement.lstrip().upper().startswith("BEGIN"):
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


@pytest.fixture
def game(any_app):
    """A two-player Space Worm game with emails (so moves write outbox rows), rolled
    to its first decision: ``(client, game id, seat on turn, its token)``."""
    client = any_app.test_client()
    agreed(any_app, "ann@example.org", "bob@example.org")  # accounts: they agreed to mail
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [
                {"name": "Ann", "email": "ann@example.org"},
                {"name": "Bob", "email": "bob@example.org"},
            ],
        },
    ).get_json()
    with any_app.app_context():
        advance_chance(made["id"], made["version"])
    seat = client.get(f"/v1/games/{made['id']}").get_json()["to_act"][0]
    return client, made["id"], seat, made["seats"][seat]["token"]


def test_accepted_move_is_five_statements_and_reads_nothing_after_writing(any_app, game):
    """Read the game with its seats (and the Idempotency-Key's stored answer) in one
    SELECT, then update the snapshot, insert the events, the outbox mails and the stored
    answer: nothing is read again, not even after the commit. On PostgreSQL the snapshot's
    UPDATE and the events' INSERT are one statement (a data-modifying WITH), one fewer."""
    client, game_id, seat, token = game
    auth = {"Authorization": f"Bearer {token}"}
    listed = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth).get_json()
    with statements(any_app) as seen:
        answer = client.post(
            f"/v1/games/{game_id}/moves",
            headers={**auth, "Idempotency-Key": str(uuid.uuid4())},
            json={"move": listed["moves"][0], "expected_version": listed["version"]},
        )
    assert answer.status_code == 201, answer.get_json()
    hooks = [s for s in seen if s.lstrip().startswith(HOOKS_LOOKUP)]
    assert len(hooks) <= 1, hooks
    seen = [s for s in seen if s not in hooks]
    kinds = [s.lstrip().split()[0].upper() for s in seen]
    assert kinds[0] == "SELECT" and "SELECT" not in kinds[1:], kinds
    if any_app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        assert len(seen) <= MOVE_LIMIT - 1, seen
        (both,) = [s for s in seen if s.lstrip().upper().startswith("WITH")]
        assert "UPDATE games" in both and "INSERT INTO events" in both, both
        assert "UPDATE" not in kinds, kinds
    else:
        assert len(seen) <= MOVE_LIMIT, seen
        assert {"UPDATE", "INSERT"} <= set(kinds)
    with any_app.app_context():
        mails = db.session.scalar(sa.text("SELECT count(*) FROM outbox"))
    assert mails >= 1  # the move's "your turn" mail was written by one of those


@pytest.mark.parametrize("route", ["", "/view", "/legal-moves"])
def test_reads_take_at_most_two_statements(any_app, game, route):
    """The summary, the view and the legal moves each read in at most two statements
    (the game with its seats, then the state only where it is needed)."""
    client, game_id, _seat, token = game
    with statements(any_app) as seen:
        answer = client.get(
            f"/v1/games/{game_id}{route}", headers={"Authorization": f"Bearer {token}"}
        )
    assert answer.status_code == 200
    assert len(seen) <= READ_LIMIT, seen


def test_summary_reads_no_state(any_app, game):
    """The public summary never loads the engine state snapshot."""
    client, game_id, _seat, _token = game
    with statements(any_app) as seen:
        assert client.get(f"/v1/games/{game_id}").status_code == 200
    assert len(seen) == 1 and "state" not in seen[0].split("FROM")[0].replace("clock_state", ""), (
        seen
    )


@pytest.mark.parametrize("route", ["", "/view", "/legal-moves"])
def test_if_none_match_gives_304_in_one_statement(any_app, game, route):
    """A poller that sends back the ETag gets 304 with no body, in one statement, until
    the game moves; then the ETag changes and the full answer comes again."""
    client, game_id, seat, token = game
    auth = {"Authorization": f"Bearer {token}"}
    first = client.get(f"/v1/games/{game_id}{route}", headers=auth)
    tag = first.headers["ETag"]
    with statements(any_app) as seen:
        again = client.get(f"/v1/games/{game_id}{route}", headers={**auth, "If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    assert len(seen) == 1, seen
    listed = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth).get_json()
    moved = client.post(
        f"/v1/games/{game_id}/moves", headers=auth, json={"move": listed["moves"][0]}
    )
    assert moved.status_code == 201
    after = client.get(f"/v1/games/{game_id}{route}", headers={**auth, "If-None-Match": tag})
    assert after.status_code == 200 and after.headers["ETag"] != tag


def test_view_etag_differs_per_reader(any_app, game):
    """The view's ETag names the reader, so one seat's cached view is never confirmed
    to another reader (a spectator or another seat)."""
    client, game_id, _seat, token = game
    mine = client.get(f"/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"})
    spectator = client.get(
        f"/v1/games/{game_id}/view", headers={"If-None-Match": mine.headers["ETag"]}
    )
    assert spectator.status_code == 200
    assert spectator.headers["ETag"] != mine.headers["ETag"]


def test_games_list_page_seats_and_total_in_one_statement(any_app):
    """``GET /v1/games`` reads its page, each game's seats and the X-Pagination total
    in one statement (arbiter.resources.paging); the total stays exact, each filter
    still applies, the pages hold the newest first, and a page past the end (empty)
    costs a second statement, the count alone."""
    import json

    client = any_app.test_client()
    engine = "dark-horse"  # the PostgreSQL schema is shared: count only a fresh player
    player = f"P-{uuid.uuid4().hex[:8]}"
    made = [
        client.post(
            "/v1/games",
            json={"engine": engine, "players": [{"name": player}, {"name": "Bob"}, {"name": "Cy"}]},
        ).get_json()["id"]
        for _ in range(3)
    ]
    with statements(any_app) as seen:
        first = client.get(f"/v1/games?player={player}&page_size=2")
    assert first.status_code == 200 and len(seen) == 1, seen
    paging = json.loads(first.headers["X-Pagination"])
    assert paging["total"] == 3 and paging["total_pages"] == 2 and paging["next_page"] == 2
    assert [g["id"] for g in first.json] == made[::-1][:2]
    assert all([p["name"] for p in g["players"]] == [player, "Bob", "Cy"] for g in first.json)
    last = client.get(f"/v1/games?player={player}&page_size=2&page=2")
    assert [g["id"] for g in last.json] == made[:1]
    assert json.loads(last.headers["X-Pagination"])["total"] == 3
    with statements(any_app) as seen:
        past = client.get(f"/v1/games?player={player}&page_size=2&page=3")
    assert past.json == [] and json.loads(past.headers["X-Pagination"])["total"] == 3
    assert len(seen) == 2, seen
    assert client.get(f"/v1/games?player={player}&status=over").json == []
    summary = client.get(f"/v1/games/{made[0]}").get_json()
    assert [g for g in last.json] == [summary]  # the list shows each game's summary
