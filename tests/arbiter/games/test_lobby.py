"""Public tables, seats and rematches (issue 23, item 1), through the REST API on
SQLite and PostgreSQL: a game with open seats waits in the lobby, anyone signed in
takes a seat, it starts when full; a finished game's players ask for a rematch."""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import lobby
from arbiter.models import Event, Game
from tests.helpers import auth, inviter, roll


def _at(name: str) -> str:
    """Return an address of its own for ``name`` (PostgreSQL's schema is the session's:
    other tests' accounts and tables are there too)."""
    return f"{name.lower()}-{uuid.uuid4().hex[:8]}@example.org"


def _person(client, app, name: str) -> str:
    """Return the personal token of a new account called ``name``."""
    return inviter(client, app, _at(name), name)


def _table(client, app, seats: int = 3, **extra):
    """Create a public table: the host's seat and ``seats - 1`` open seats."""
    host = _at("host")
    token = inviter(client, app, host, "Host")
    players = [{"name": "Host", "email": host}]
    players += [{"open": True} for _ in range(seats - 1)]
    made = client.post(
        "/v1/games",
        json={"engine": "space-worm", "players": players, **extra},
        headers=auth(token),
    )
    assert made.status_code == 201, made.json
    return made.json


def _kinds(app, game_id):
    with app.app_context():
        return [
            e.kind
            for e in db.session.scalars(
                sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq)
            )
        ]


def test_a_public_table_waits_in_the_lobby_and_starts_when_full(any_app):
    client = any_app.test_client()
    made = _table(client, any_app)
    assert made["status"] == "waiting"
    assert [p["open"] for p in made["players"]] == [False, True, True]
    listed = client.get("/v1/lobby").json
    assert [(t["id"], t["seats_free"], t["waiting"]) for t in listed] == [(made["id"], 2, ["Host"])]
    ann = _person(client, any_app, "Ann")
    taken = client.post(f"/v1/games/{made['id']}/seats", headers=auth(ann))
    assert taken.status_code == 201, taken.json
    assert taken.json == {"game_id": made["id"], "seat": 1, "name": "Ann", "status": "waiting"}
    again = client.post(f"/v1/games/{made['id']}/seats", headers=auth(ann))
    assert again.status_code == 409 and again.json["code"] == "already-seated"
    assert client.get(f"/v1/games/{made['id']}").json["status"] == "waiting"
    bob = _person(client, any_app, "Ann")  # the same name as Ann
    last = client.post(f"/v1/games/{made['id']}/seats", headers=auth(bob))
    assert last.status_code == 201 and last.json["status"] == "active"
    assert last.json["name"] == "Ann (2)"
    assert made["id"] not in [t["id"] for t in client.get("/v1/lobby").json]
    summary = client.get(f"/v1/games/{made['id']}").json
    assert [p["name"] for p in summary["players"]] == ["Host", "Ann", "Ann (2)"]
    assert _kinds(any_app, made["id"])[-3:] == ["seat-joined", "seat-joined", "game-started"]
    carl = _person(client, any_app, "Carl")
    full = client.post(f"/v1/games/{made['id']}/seats", headers=auth(carl))
    assert full.status_code == 409 and full.json["code"] == "table-full"
    assert full.headers["Content-Type"] == "application/problem+json"
    roll(any_app, made["id"])
    assert client.get(f"/v1/games/{made['id']}").json["to_act"] != []


def test_taking_a_seat_needs_a_personal_token(client, app):
    made = _table(client, app, seats=2)
    refused = client.post(f"/v1/games/{made['id']}/seats")
    assert refused.status_code == 401
    seat_token = made["seats"][0]["token"]
    by_seat = client.post(f"/v1/games/{made['id']}/seats", headers=auth(seat_token))
    assert by_seat.status_code in (401, 403)
    missing = client.post("/v1/games/nope/seats", headers=auth(_person(client, app, "Ann")))
    assert missing.status_code == 404


def test_an_open_seat_has_no_address_and_others_need_a_name(client, app):
    token = _person(client, app, "Host")
    for players, field in (
        ([{"name": "Host"}, {"open": True, "email": "x@example.org"}], "email"),
        ([{"name": "Host"}, {"email": "x@example.org"}], "name"),
    ):
        answer = client.post(
            "/v1/games", json={"engine": "space-worm", "players": players}, headers=auth(token)
        )
        assert answer.status_code == 422, answer.json
        assert field in str(answer.json)


def test_the_last_seat_goes_to_the_first_taker(any_app):
    client = any_app.test_client()
    made = _table(client, any_app, seats=2)
    tokens = [_person(client, any_app, f"P{i}") for i in range(2)]
    answers = [client.post(f"/v1/games/{made['id']}/seats", headers=auth(t)) for t in tokens]
    assert [a.status_code for a in answers] == [201, 409]
    assert answers[1].json["code"] == "table-full"


def test_a_waiting_table_says_for_whom_it_waits(client, app):
    from arbiter.games.moves import waiting_for

    made = _table(client, app, seats=3)
    with app.app_context():
        game = db.session.get(Game, made["id"])
        assert waiting_for(game) == "it waits for 2 more players to take a seat in the lobby"
        assert lobby.clock_words(game.clock) == "no clock"
        assert lobby.clock_words({"type": "per-move", "seconds": 86400}) == "1 day per move"


def _finished(client, app):
    """A finished two-player game of the host and Ann (Ann resigned)."""
    made = _table(client, app, seats=2)
    ann = _person(client, app, "Ann")
    assert client.post(f"/v1/games/{made['id']}/seats", headers=auth(ann)).status_code == 201
    roll(app, made["id"])
    gone = client.post(f"/v1/games/{made['id']}/resign", headers=auth(ann))
    assert gone.status_code == 201 and gone.json["status"] == "over", gone.json
    return made, ann


def test_a_rematch_has_the_same_players_and_a_new_seed(any_app):
    client = any_app.test_client()
    made, ann = _finished(client, any_app)
    again = client.post(f"/v1/games/{made['id']}/rematch", headers=auth(ann))
    assert again.status_code == 201, again.json
    new = again.json
    assert new["id"] != made["id"] and new["engine"] == "space-worm"
    assert [p["name"] for p in new["players"]] == ["Host", "Ann"]
    assert new["seed_commitment"] != made["seed_commitment"]
    assert new["status"] == "active"  # both players are accounts: linked as at creation
    with any_app.app_context():
        before = db.session.get(Game, made["id"]).seats
        seats = db.session.get(Game, new["id"]).seats
        assert [(s.email, s.account_id) for s in seats] == [(s.email, s.account_id) for s in before]
        assert all(s.account_id for s in seats)


def test_a_rematch_only_for_its_players_and_only_after_the_end(client, app):
    made, ann = _finished(client, app)
    stranger = _person(client, app, "Zed")
    refused = client.post(f"/v1/games/{made['id']}/rematch", headers=auth(stranger))
    assert refused.status_code == 403 and refused.json["code"] == "not-a-player"
    live = _table(client, app, seats=2)
    early = client.post(f"/v1/games/{live['id']}/rematch", headers=auth(_person(client, app, "X")))
    assert early.status_code == 409 and early.json["code"] == "game-not-over"
