"""Bot accounts and ratings, deletion: a rated game seats no person twice (a bot
account is its owner's) and needs a person's own account; a deleted bot account's
seats in games under way are resigned, as its own resignation would be."""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Event, Game, Seat
from tests.helpers import auth, play_out, sign_in, until_decision

MCTS = {"kind": "mcts", "level": 1}
RANDOM = {"kind": "random", "level": 1}


def person(client, app, name: str) -> tuple[str, str, str]:
    """Sign up a fresh person; return ``(email, display name, token)``."""
    tag = uuid.uuid4().hex[:8]
    email, shown = f"{name.lower()}-{tag}@example.org", f"{name}{tag}"
    return email, shown, sign_in(client, app, email, shown)


def bot(client, owner: str, name: str, public: bool = False) -> dict:
    """Make a bot account with ``owner``'s token; return the answer's body."""
    answer = client.post("/v1/me/bots", headers=auth(owner), json={"name": name, "public": public})
    assert answer.status_code == 201, answer.json
    return answer.json


def create(client, token: str, players: list[dict], rated: bool = True, engine="space-worm"):
    """Ask ``POST /v1/games`` with ``token``; return the answer."""
    body = {"engine": engine, "rated": rated, "players": players}
    return client.post("/v1/games", headers=auth(token), json=body)


def games_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Game))


def test_a_rated_game_refuses_a_person_with_their_own_bot_account(any_app):
    client = any_app.test_client()
    ann_email, ann, ann_token = person(client, any_app, "Ann")
    bob_email, bob, _ = person(client, any_app, "Bob")
    robo = bot(client, ann_token, "Robo")
    rob2 = bot(client, ann_token, "Rob2")
    before = games_count(any_app)
    own = create(
        client,
        ann_token,
        [{"name": ann, "email": ann_email}, {"name": "Robo", "account": robo["id"]}],
    )
    assert own.status_code == 422 and own.json["code"] == "unrated-seat"
    assert "'Robo (bot)' is a bot account owned by" in own.json["detail"]
    assert ann in own.json["detail"]
    two_bots = create(
        client,
        ann_token,
        [
            {"name": bob, "email": bob_email},
            {"name": "Robo", "account": robo["id"]},
            {"name": "Rob2", "account": rob2["id"]},
        ],
        engine="dark-horse",
    )
    assert two_bots.status_code == 422 and two_bots.json["code"] == "unrated-seat"
    assert "both are bot accounts of the same person" in two_bots.json["detail"]
    bulk = client.post(
        "/v1/bulk-games",
        headers=auth(ann_token),
        json={
            "games": [
                {
                    "engine": "space-worm",
                    "rated": True,
                    "players": [
                        {"name": ann, "email": ann_email},
                        {"name": "Robo", "account": robo["id"]},
                    ],
                }
            ]
        },
    )
    assert bulk.status_code == 422 and "bot account owned by" in bulk.json["detail"]
    assert games_count(any_app) == before
    unrated = create(
        client,
        ann_token,
        [{"name": ann, "email": ann_email}, {"name": "Robo", "account": robo["id"]}],
        rated=False,
    )
    assert unrated.status_code == 201, unrated.json


def test_a_rated_game_of_bots_only_is_refused(any_app):
    client = any_app.test_client()
    _, _, ann_token = person(client, any_app, "Ann")
    robo = bot(client, ann_token, "Robo")
    before = games_count(any_app)
    builtin = create(
        client, ann_token, [{"name": "Rando", "bot": RANDOM}, {"name": "Deep", "bot": MCTS}]
    )
    assert builtin.status_code == 422 and builtin.json["code"] == "unrated-seat"
    assert "at least one person" in builtin.json["detail"]
    assert "'Rando (bot)'" in builtin.json["detail"]
    mixed = create(
        client, ann_token, [{"name": "Robo", "account": robo["id"]}, {"name": "D", "bot": MCTS}]
    )
    assert mixed.status_code == 422 and mixed.json["code"] == "unrated-seat"
    assert games_count(any_app) == before
    board = client.get("/v1/ratings/space-worm?limit=1000").json
    assert not [b for b in board.get("bots", []) if b["games"] and b["bot"]["kind"] == "random"]


def test_legal_rated_games_still_work(any_app):
    client = any_app.test_client()
    ann_email, ann, ann_token = person(client, any_app, "Ann")
    bob_email, bob, bob_token = person(client, any_app, "Bob")
    people = create(
        client, ann_token, [{"name": ann, "email": ann_email}, {"name": bob, "email": bob_email}]
    )
    assert people.status_code == 201 and people.json["rated"] is True
    with_builtin = create(
        client, ann_token, [{"name": ann, "email": ann_email}, {"name": "Deep", "bot": MCTS}]
    )
    assert with_builtin.status_code == 201 and with_builtin.json["rated"] is True
    bobs = bot(client, bob_token, "Bobot", public=True)
    against = create(
        client,
        ann_token,
        [{"name": ann, "email": ann_email}, {"name": "Bobot", "account": bobs["id"]}],
    )
    assert against.status_code == 201 and against.json["rated"] is True
    game_id = against.json["id"]
    until_decision(client, any_app, game_id)
    resigned = client.post(f"/v1/games/{game_id}/resign", headers=auth(bobs["token"]["token"]))
    assert resigned.status_code == 201 and resigned.json["status"] == "over"
    board = client.get("/v1/ratings/space-worm?limit=1000").json["ratings"]
    rows = {r["account"]: r for r in board}
    assert rows[bobs["id"]]["games"] == 1 and rows[bobs["id"]]["mu"] < 25
    ann_id = client.get("/v1/me", headers=auth(ann_token)).json["id"]
    assert rows[ann_id]["games"] == 1 and rows[ann_id]["mu"] > 25


def resigned_events(app, game_id: str) -> list[dict]:
    with app.app_context():
        rows = db.session.scalars(
            sa.select(Event).where(Event.game_id == game_id, Event.kind == "resigned")
        )
        return [{"seat": r.seat, **(r.payload or {})} for r in rows]


def test_deleting_a_bot_account_resigns_its_seats_in_games_under_way(any_app):
    client = any_app.test_client()
    ann_email, ann, ann_token = person(client, any_app, "Ann")
    bob_email, bob, _ = person(client, any_app, "Bob")
    robo = bot(client, ann_token, "Robo")
    three = create(
        client,
        ann_token,
        [
            {"name": ann, "email": ann_email},
            {"name": "Robo", "account": robo["id"]},
            {"name": bob, "email": bob_email},
        ],
        rated=False,
        engine="dark-horse",
    ).json
    two = create(
        client,
        ann_token,
        [{"name": ann, "email": ann_email}, {"name": "Robo", "account": robo["id"]}],
        rated=False,
    ).json
    done = create(
        client,
        ann_token,
        [{"name": ann, "email": ann_email}, {"name": "Robo", "account": robo["id"]}],
        rated=False,
    ).json
    for game in (three, two, done):
        until_decision(client, any_app, game["id"])
    ann_seat = done["seats"][0]["token"]
    assert client.post(f"/v1/games/{done['id']}/resign", headers=auth(ann_seat)).status_code == 201
    done_before = resigned_events(any_app, done["id"])

    assert client.delete(f"/v1/me/bots/{robo['id']}", headers=auth(ann_token)).status_code == 204

    # the 3-seat game goes on without it; the seat is resigned, as a resignation is
    assert resigned_events(any_app, three["id"]) == [
        {"seat": 1, "name": "(deleted player)", "account_deleted": True}
    ]
    going = until_decision(client, any_app, three["id"])
    assert going["status"] == "active" and 1 not in going["to_act"]
    assert [p["resigned"] for p in going["players"]] == [False, True, False]
    over = play_out(client, any_app, three["id"], [s["token"] for s in three["seats"]], seed=2)
    assert over["status"] == "over" and over["result"]["ranking"][-1] == [1]
    # the 2-seat game ends: Ann wins
    ended = client.get(f"/v1/games/{two['id']}").json
    assert ended["status"] == "over" and ended["result"]["ranking"][0] == [0]
    assert resigned_events(any_app, two["id"])[-1]["account_deleted"] is True
    # the game already over is untouched
    assert resigned_events(any_app, done["id"]) == done_before
    with any_app.app_context():
        seats = db.session.scalars(sa.select(Seat).where(Seat.account_id == robo["id"])).all()
        assert {s.game_id for s in seats} == {three["id"], two["id"], done["id"]}
        assert all(s.resigned for s in seats if s.game_id != done["id"])


def test_deleting_the_owner_resigns_their_bots_seats_not_their_own(any_app):
    client = any_app.test_client()
    ann_email, ann, ann_token = person(client, any_app, "Ann")
    bob_email, bob, bob_token = person(client, any_app, "Bob")
    robo = bot(client, ann_token, "Robo")
    game = create(
        client,
        bob_token,
        [
            {"name": ann, "email": ann_email},
            {"name": "Robo", "account": robo["id"]},
            {"name": bob, "email": bob_email},
        ],
        rated=False,
        engine="dark-horse",
    )
    # Robo is private: Bob cannot seat it; Ann makes the game
    assert game.json["code"] == "bot-not-yours"
    game = create(
        client,
        ann_token,
        [
            {"name": ann, "email": ann_email},
            {"name": "Robo", "account": robo["id"]},
            {"name": bob, "email": bob_email},
        ],
        rated=False,
        engine="dark-horse",
    ).json
    until_decision(client, any_app, game["id"])
    assert client.delete("/v1/me", headers=auth(ann_token)).status_code == 204
    assert [e["seat"] for e in resigned_events(any_app, game["id"])] == [1]
    summary = client.get(f"/v1/games/{game['id']}").json
    assert summary["status"] == "active"
    assert [p["resigned"] for p in summary["players"]] == [False, True, False]


def test_a_bot_account_cannot_enter_a_tournament(app, client):
    """Given a bot account's token, entering a tournament is 403 bot-cannot-enter and
    writes no entry; its owner enters as before."""
    _, _, owner = person(client, app, "Ann")
    robo = bot(client, owner, "Robo")
    body = {"engine": "space-worm", "table_size": 2, "format": "swiss", "rounds": 1}
    made = client.post("/v1/tournaments", headers=auth(owner), json=body)
    assert made.status_code == 201, made.json
    entries = f"/v1/tournaments/{made.json['id']}/entries"
    refused = client.post(entries, headers=auth(robo["token"]["token"]))
    assert refused.status_code == 403 and refused.json["code"] == "bot-cannot-enter"
    assert "organiser can enter built-in bots" in refused.json["detail"]
    assert client.get(f"/v1/tournaments/{made.json['id']}").json["entries"] == []
    assert client.post(entries, headers=auth(owner)).status_code == 201
