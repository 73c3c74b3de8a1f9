"""Ratings per engine with openskill's Plackett-Luce model, updated when a rated game
ends; the leaderboard, ratings and reliability on /v1/me (issue 11, "Ratings")."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
import time_machine
from openskill.models import PlackettLuce

from arbiter.extensions import db
from arbiter.models import Game, Rating
from tests.arbiter.clock_helpers import T0, after, parse, sweep
from tests.helpers import auth, play_out, sign_in, until_decision


def accounts(client, app, count: int) -> list[tuple[str, str, str]]:
    """Sign up ``count`` fresh accounts; return ``(email, name, token)`` of each."""
    tag = uuid.uuid4().hex[:8]
    out = []
    for i in range(count):
        email, name = f"r{i}-{tag}@example.org", f"R{i}{tag}"
        out.append((email, name, sign_in(client, app, email, name)))
    return out


def rated_game(client, players, engine: str, rated: bool = True, clock=None) -> dict:
    """Create a game whose seats are ``players``' addresses; return the answer."""
    body = {
        "engine": engine,
        "rated": rated,
        "clock": clock or {},
        "players": [{"name": name, "email": email} for email, name, _ in players],
    }
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.json
    return answer.json


def expected(ranking: list[list[int]], players: int) -> list[tuple[float, float]]:
    """Recompute the ratings after one game from fresh ones, independently."""
    model = PlackettLuce()
    ranks = [next(n for n, group in enumerate(ranking) if seat in group) for seat in range(players)]
    rated = model.rate([[model.rating()] for _ in range(players)], ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in rated]


def test_a_rated_multiplayer_game_updates_every_players_rating(any_app):
    client = any_app.test_client()
    players = accounts(client, any_app, 3)
    game = rated_game(client, players, "dark-horse")
    assert game["rated"] is True
    over = play_out(client, any_app, game["id"], [s["token"] for s in game["seats"]], seed=3)
    want = expected(over["result"]["ranking"], 3)
    board = client.get("/v1/ratings/dark-horse?limit=1000").json["ratings"]
    mine = {row["display_name"]: row for row in board}
    for (_email, name, token), (mu, sigma) in zip(players, want):
        row = mine[name]
        assert abs(row["mu"] - mu) < 1e-3 and abs(row["sigma"] - sigma) < 1e-3
        assert row["games"] == 1 and abs(row["ordinal"] - (mu - 3 * sigma)) < 1e-2
        me = client.get("/v1/me", headers=auth(token)).json
        assert [(r["engine"], r["games"]) for r in me["ratings"]] == [("dark-horse", 1)]
        assert abs(me["ratings"][0]["mu"] - mu) < 1e-3
    ordinals = [row["ordinal"] for row in board]
    assert ordinals == sorted(ordinals, reverse=True)


def test_a_resignation_lowers_the_resigner_and_counts_in_reliability(any_app):
    client = any_app.test_client()
    players = accounts(client, any_app, 2)
    game = rated_game(client, players, "space-worm")
    until_decision(client, any_app, game["id"])
    bob = players[1][2]
    assert client.post(f"/v1/games/{game['id']}/resign", headers=auth(bob)).status_code == 201
    ann_me = client.get("/v1/me", headers=auth(players[0][2])).json
    bob_me = client.get("/v1/me", headers=auth(bob)).json
    assert ann_me["ratings"][0]["mu"] > 25 > bob_me["ratings"][0]["mu"]
    assert bob_me["reliability"] == {"timeouts": 0, "resignations": 1, "games": 1, "score": 0.0}
    assert ann_me["reliability"] == {"timeouts": 0, "resignations": 0, "games": 1, "score": 1.0}


def test_timeouts_count_in_reliability_rated_or_not(own_app):
    client = own_app.test_client()
    players = accounts(client, own_app, 2)
    with time_machine.travel(T0, tick=False):
        game = rated_game(
            client, players, "space-worm", rated=False, clock={"type": "per-move", "seconds": 3600}
        )
        s = until_decision(client, own_app, game["id"])
    late = s["to_act"][0]
    deadline = parse(s["deadline"])
    with time_machine.travel(after(deadline, 5), tick=False):
        assert sweep(own_app, after(deadline, 5))["timeouts"] == 1
    after_sweep = client.get(f"/v1/games/{game['id']}").json
    assert after_sweep["version"] > s["version"]
    me = client.get("/v1/me", headers=auth(players[late][2])).json
    assert me["reliability"]["timeouts"] == 1 and me["ratings"] == []
    other = client.get("/v1/me", headers=auth(players[1 - late][2])).json
    assert other["reliability"]["timeouts"] == 0


def test_an_unrated_game_changes_no_rating(any_app):
    client = any_app.test_client()
    players = accounts(client, any_app, 2)
    game = rated_game(client, players, "space-worm", rated=False)
    play_out(client, any_app, game["id"], [s["token"] for s in game["seats"]])
    with any_app.app_context():
        ids = [
            a
            for (a,) in db.session.execute(
                sa.select(Rating.account_id).where(Rating.engine == "space-worm")
            )
        ]
    me = client.get("/v1/me", headers=auth(players[0][2])).json
    assert me["id"] not in ids and me["ratings"] == []


def test_a_rated_game_needs_distinct_accounts_in_every_seat(any_app):
    client = any_app.test_client()
    ((email, name, _),) = accounts(client, any_app, 1)
    with any_app.app_context():
        before = db.session.scalar(sa.select(sa.func.count()).select_from(Game))
    # a seat without an account cannot be rated; one account in two seats is refused
    # earlier, by the rule that every seat has its own address (duplicate-player-email)
    for players, code in (
        ([{"name": name, "email": email}, {"name": "Anon"}], "unrated-seat"),
        (
            [{"name": name, "email": email}, {"name": "Again", "email": email}],
            "duplicate-player-email",
        ),
    ):
        answer = client.post(
            "/v1/games", json={"engine": "space-worm", "rated": True, "players": players}
        )
        assert answer.status_code == 422 and answer.json["code"] == code
    bulk = client.post(
        "/v1/bulk-games",
        json={
            "games": [
                {"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]},
                {"engine": "space-worm", "rated": True, "players": [{"name": "A"}, {"name": "B"}]},
            ]
        },
    )
    assert bulk.status_code == 422 and bulk.json["index"] == 1
    assert bulk.json["problem"]["code"] == "unrated-seat"
    with any_app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == before


def test_the_leaderboard_of_an_unknown_engine_is_404(any_app):
    client = any_app.test_client()
    answer = client.get("/v1/ratings/chess")
    assert answer.status_code == 404 and answer.json["code"] == "unknown-engine"


def test_moves_played_by_their_players_are_no_timeouts(any_app):
    """Only a move the clock played counts as a timeout (SQLite once counted every
    move: its JSON_QUOTE of a missing key is the text 'null', never NULL)."""
    client = any_app.test_client()
    players = accounts(client, any_app, 2)
    game = rated_game(client, players, "space-worm", rated=False)
    play_out(client, any_app, game["id"], [s["token"] for s in game["seats"]], seed=5)
    moves = client.get(f"/v1/games/{game['id']}/events").json["events"]
    assert sum(1 for e in moves if e["kind"] == "move") >= 2
    for _, _, token in players:
        me = client.get("/v1/me", headers=auth(token)).json
        assert me["reliability"]["timeouts"] == 0
