"""``GET /v1/me/games`` on each database: on PostgreSQL a DISTINCT over the game row
failed (JSON columns have no equality operator); found by ``bench/many_games.py``."""

from __future__ import annotations

import uuid

from arbiter.games.chance import advance_chance
from tests.helpers import auth, sign_in


def test_my_games_to_act_on_every_database(any_app):
    """An account in two games sees both, and with ``to_act`` the one where it owes
    the move, on SQLite and PostgreSQL alike."""
    client = any_app.test_client()
    email = f"ann-{uuid.uuid4().hex[:8]}@example.org"  # the PostgreSQL schema is shared
    token = sign_in(client, any_app, email, "Ann")
    ids = []
    for seat_of_ann in (0, 1):
        players = [{"name": "Bob"}, {"name": "Carl"}]
        players[seat_of_ann] = {"name": "Ann", "email": email}
        made = client.post("/v1/games", json={"engine": "space-worm", "players": players})
        assert made.status_code == 201
        ids.append(made.json["id"])
        with any_app.app_context():
            advance_chance(made.json["id"], made.json["version"])
    every = client.get("/v1/me/games", headers=auth(token))
    assert every.status_code == 200
    assert sorted(g["id"] for g in every.json["games"]) == sorted(ids)
    mine = client.get("/v1/me/games?to_act=true", headers=auth(token))
    assert mine.status_code == 200
    assert [g["id"] for g in mine.json["games"]] == [ids[0]]  # seat 0 starts Space Worm


def test_to_act_limit_counts_only_games_owing_a_move(any_app, monkeypatch):
    """Given more games than the list holds, the newest not waiting for me, ``to_act``
    still lists the older one that is: the owing seats are picked before the limit
    (the limit used to cut first, then the filter found nothing). Each answer is
    exactly what its schema would dump (the route sends it without a dump)."""
    from arbiter.games import my_games
    from arbiter.resources.me.schemas import MyGamesSchema

    client = any_app.test_client()
    email = f"ann-{uuid.uuid4().hex[:8]}@example.org"
    token = sign_in(client, any_app, email, "Ann")
    ids = []
    for seat_of_ann in (0, 1):  # seat 0 starts Space Worm: the older game owes, the newer not
        players = [{"name": "Bob"}, {"name": "Carl"}]
        players[seat_of_ann] = {"name": "Ann", "email": email}
        made = client.post("/v1/games", json={"engine": "space-worm", "players": players})
        ids.append(made.json["id"])
        with any_app.app_context():
            advance_chance(made.json["id"], made.json["version"])
    monkeypatch.setattr(my_games, "MAX_GAMES", 1)
    every = client.get("/v1/me/games", headers=auth(token)).json
    assert [g["id"] for g in every["games"]] == [ids[1]]
    mine = client.get("/v1/me/games?to_act=true", headers=auth(token)).json
    assert [(g["id"], g["seats"], g["to_act"]) for g in mine["games"]] == [(ids[0], [0], [0])]
    for body in (every, mine):
        assert MyGamesSchema().dump(body) == body


def test_my_games_filter_by_every_status_a_game_has(any_app):
    """``status`` takes every status a game has, as ``GET /v1/games`` does: a game
    waiting for an invited player is listed under ``waiting``, not ``active``."""
    client = any_app.test_client()
    email = f"ann-{uuid.uuid4().hex[:8]}@example.org"
    token = sign_in(client, any_app, email, "Ann")
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [
                {"name": "Ann", "email": email},
                {"name": "Bob", "email": f"bob-{uuid.uuid4().hex[:8]}@example.org"},
            ],
        },
        headers=auth(token),  # Ann invites Bob
    )
    assert made.status_code == 201 and made.json["status"] == "waiting", made.json
    for status, listed in (
        ("waiting", [made.json["id"]]),
        ("active", []),
        ("over", []),
        ("cancelled", []),
    ):
        answer = client.get(f"/v1/me/games?status={status}", headers=auth(token))
        assert answer.status_code == 200, answer.json
        assert [g["id"] for g in answer.json["games"]] == listed, status
    assert client.get("/v1/me/games?status=lost", headers=auth(token)).status_code == 422
