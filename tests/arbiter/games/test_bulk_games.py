"""``POST /v1/bulk-games``: up to 500 games in one request, all created in one
transaction or none (issue 11, "Bulk creation"), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import uuid

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Event, Game, IdempotentResponse, Seat
from tests.conftest import make_app
from tests.helpers import auth, roll, scoped_token, sign_in

TABLES = (Game, Seat, Event, IdempotentResponse)

MIX = [("space-worm", 2), ("dark-horse", 3), ("star-maps", 2), ("worms", 2), ("space-worm", 4)]
"""Engines and player counts the batches cycle through."""


def batch(count: int) -> dict:
    """Return a bulk request of ``count`` games cycling through ``MIX``."""
    games = []
    for i in range(count):
        engine, players = MIX[i % len(MIX)]
        games.append({"engine": engine, "players": [{"name": f"G{i}P{p}"} for p in range(players)]})
    return {"games": games}


def padded(body: dict, length: int) -> dict:
    """Return ``body`` with every player's name padded to ``length`` characters."""
    for game in body["games"]:
        for player in game["players"]:
            player["name"] = player["name"].ljust(length, "x")
    return body


def counts(app) -> dict[str, int]:
    """Return the number of rows of each table a creation writes (the PostgreSQL
    schema is shared by the session's tests: compare before and after)."""
    with app.app_context():
        return {
            t.__tablename__: db.session.scalar(sa.select(sa.func.count()).select_from(t))
            for t in TABLES
        }


@pytest.fixture
def closed_app(db_url):
    """An app on each database with OPEN_CREATION off."""
    app = make_app(db_url, OPEN_CREATION=False)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def organiser(closed_app):
    """A personal token with only ``games:create`` (and a client)."""
    client = closed_app.test_client()
    full = sign_in(client, closed_app, "org@example.org", "Org")
    return client, scoped_token(client, full, "games:create")


@pytest.mark.slow  # make check creates 500 games in one request in the 413 test below
def test_500_games_in_one_request_are_all_created(closed_app, organiser):
    client, token = organiser
    body, before = batch(500), counts(closed_app)
    answer = client.post("/v1/bulk-games", json=body, headers=auth(token))
    assert answer.status_code == 201, answer.json
    created = answer.json["games"]
    assert len(created) == 500 and len({g["id"] for g in created}) == 500
    for spec, game in zip(body["games"], created):
        assert game["engine"] == spec["engine"] and game["status"] == "active"
        assert [s["name"] for s in game["seats"]] == [p["name"] for p in spec["players"]]
    seats = sum(len(g["players"]) for g in body["games"])
    after = counts(closed_app)
    assert after["games"] - before["games"] == 500
    assert after["seats"] - before["seats"] == seats
    with closed_app.app_context():
        rows = list(
            db.session.scalars(sa.select(Game).where(Game.id.in_([g["id"] for g in created])))
        )
        assert len(rows) == 500 and {g.engine for g in rows} == {e for e, _ in MIX}
        assert all(g.creator_account_id is not None and g.version >= 1 for g in rows)
    for game in (created[0], created[499]):  # each seat token opens its own game
        seat = game["seats"][-1]
        view = client.get(f"/v1/games/{game['id']}/view", headers=auth(seat["token"]))
        assert view.status_code == 200 and view.json["seat"] == seat["seat"]
    other = client.get(
        f"/v1/games/{created[1]['id']}/view", headers=auth(created[0]["seats"][0]["token"])
    )
    assert other.status_code == 401
    first = created[0]
    roll(closed_app, first["id"])  # the worker's part; then the game plays on
    to_act = client.get(f"/v1/games/{first['id']}").json["to_act"]
    moves = client.get(
        f"/v1/games/{first['id']}/legal-moves", headers=auth(first["seats"][to_act[0]]["token"])
    )
    assert moves.status_code == 200 and moves.json["moves"]


# make check names an unknown engine in the batch; the other refusals are single-game
# checks (tests of creation and of the clock), run in the batch by make test
@pytest.mark.parametrize(
    "bad, code",
    [
        ({"engine": "chess", "players": [{"name": "A"}, {"name": "B"}]}, "unknown-engine"),
        pytest.param(
            {"engine": "space-worm", "players": [{"name": f"P{i}"} for i in range(9)]},
            "bad-player-count",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            {
                "engine": "space-worm",
                "players": [{"name": "A"}, {"name": "B"}],
                "options": {"no-such-option": 1},
            },
            "bad-options",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            {
                "engine": "space-worm",
                "players": [{"name": "A"}, {"name": "B"}],
                "clock": {"type": "per-move", "seconds": -5},
            },
            "bad-clock",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_one_bad_game_creates_nothing_and_is_named(closed_app, organiser, bad, code):
    client, token = organiser
    body = batch(300)
    body["games"][137] = bad
    before = counts(closed_app)
    answer = client.post(
        "/v1/bulk-games", json=body, headers={**auth(token), "Idempotency-Key": str(uuid.uuid4())}
    )
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == "bad-game" and answer.json["index"] == 137
    assert answer.json["problem"]["code"] == code
    assert "Game 138 of the batch (index 137)" in answer.json["detail"]  # counted from 1
    assert counts(closed_app) == before  # no game, seat, event or stored answer


def test_a_bad_last_game_creates_nothing(closed_app, organiser):
    client, token = organiser
    body = batch(50)
    body["games"][-1]["players"] = [{"name": f"P{i}"} for i in range(9)]  # 1-6 play
    before = counts(closed_app)
    answer = client.post("/v1/bulk-games", json=body, headers=auth(token))
    assert answer.status_code == 422 and answer.json["index"] == 49
    assert counts(closed_app) == before


def test_a_game_the_schema_refuses_is_named_by_its_index(closed_app, organiser):
    client, token = organiser
    body = batch(10)
    body["games"][4]["players"][0]["name"] = ""
    before = counts(closed_app)
    answer = client.post("/v1/bulk-games", json=body, headers=auth(token))
    assert answer.status_code == 422 and answer.json["code"] == "invalid-request"
    assert "games.4.players.0.name" in answer.json["detail"]
    assert counts(closed_app) == before


def test_idempotent_replay_returns_the_first_answer_and_creates_nothing(closed_app, organiser):
    client, token = organiser
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = batch(20)
    first = client.post("/v1/bulk-games", json=body, headers={**auth(token), **key})
    assert first.status_code == 201
    after_first = counts(closed_app)
    again = client.post("/v1/bulk-games", json=body, headers={**auth(token), **key})
    assert again.status_code == 201 and again.json == first.json
    assert counts(closed_app) == after_first
    other_body = client.post("/v1/bulk-games", json=batch(3), headers={**auth(token), **key})
    assert other_body.status_code == 422
    assert other_body.json["code"] == "idempotency-key-reused"
    assert counts(closed_app) == after_first


def test_another_callers_key_makes_its_own_games(closed_app, organiser):
    client, token = organiser
    full = sign_in(client, closed_app, "bob@example.org", "Bob")
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body, before = batch(2), counts(closed_app)
    mine = client.post("/v1/bulk-games", json=body, headers={**auth(token), **key})
    theirs = client.post("/v1/bulk-games", json=body, headers={**auth(full), **key})
    assert mine.status_code == theirs.status_code == 201
    assert {g["id"] for g in mine.json["games"]}.isdisjoint(g["id"] for g in theirs.json["games"])
    assert counts(closed_app)["games"] - before["games"] == 4


def test_creation_needs_a_token_with_games_create(closed_app, organiser):
    client, token = organiser
    full = sign_in(client, closed_app, "ann@example.org", "Ann")
    player = scoped_token(client, full, "games:play")
    before = counts(closed_app)
    none = client.post("/v1/bulk-games", json=batch(2))
    assert none.status_code == 401 and none.json["code"] == "missing-token"
    weak = client.post("/v1/bulk-games", json=batch(2), headers=auth(player))
    assert weak.status_code == 403 and weak.json["code"] == "missing-scope"
    assert counts(closed_app) == before


def test_the_batch_limit_is_configuration(sqlite_url):
    app = make_app(sqlite_url, BULK_GAMES_MAX=3)
    client = app.test_client()
    over = client.post("/v1/bulk-games", json=batch(4))
    assert over.status_code == 422 and over.json["code"] == "too-many-games"
    assert over.json["limit"] == 3
    assert counts(app)["games"] == 0
    assert client.post("/v1/bulk-games", json=batch(3)).status_code == 201
    assert counts(app)["games"] == 3


def test_a_body_over_the_bulk_limit_is_413_and_other_routes_keep_64_kib(sqlite_url):
    app = make_app(sqlite_url, BULK_BODY_BYTES=100 * 1024)
    client = app.test_client()
    fits, big = padded(batch(500), 30), padded(batch(500), 80)
    assert 64 * 1024 < len(json.dumps(fits)) < 100 * 1024 < len(json.dumps(big))
    refused = client.post("/v1/bulk-games", json=big)
    assert refused.status_code == 413 and refused.json["code"] == "body-too-large"
    assert "100 KiB" in refused.json["detail"]
    assert counts(app)["games"] == 0
    assert client.post("/v1/bulk-games", json=fits).status_code == 201
    single = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "A"}, {"name": "B"}],
            "options": {"pad": "x" * 70_000},
        },
    )
    assert single.status_code == 413 and "64 KiB" in single.json["detail"]
    assert counts(app)["games"] == 500
