"""Built-in bots' ratings (issue 25): a rated game may seat bots; each is rated as one
player per engine, kind and level; a bot against itself is not rated by that game."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from tests.arbiter.accounts.test_ratings import accounts
from tests.arbiter.games.bot_helpers import drive
from tests.helpers import random_move

MCTS = {"kind": "mcts", "level": 2}
RANDOM = {"kind": "random", "level": 1}


def bots_of(client, engine: str) -> dict:
    """Return the leaderboard's bots at ``engine`` by (kind, level)."""
    rows = client.get(f"/v1/ratings/{engine}").json["bots"]
    return {(r["bot"]["kind"], r["bot"]["level"]): r for r in rows}


def play(client, app, made: dict) -> dict:
    """Play the game: people by random legal moves, bots by the worker's tasks."""
    tokens = [s["token"] for s in made["seats"]]
    rng = random.Random(2)
    while drive(app, made["id"]).status != "over":
        _, _, answer = random_move(client, app, made["id"], tokens, rng)
        assert answer.status_code == 201, answer.json
    return client.get(f"/v1/games/{made['id']}").json


def test_a_rated_game_with_bots_rates_each_bot_per_kind_and_level(any_app):
    """Given a rated game of an account and two bots, the account and each bot
    (engine, kind, level) are rated by the game's ranking, from their ratings before."""
    client = any_app.test_client()
    [(email, name, _)] = accounts(client, any_app, 1)
    before = bots_of(client, "dark-horse")
    model = PlackettLuce()

    def start(key):
        row = before.get(key)
        return model.rating(mu=row["mu"], sigma=row["sigma"]) if row else model.rating()

    players = [
        {"name": name, "email": email},
        {"name": "Deep", "bot": MCTS},
        {"name": "Dice", "bot": RANDOM},
    ]
    made = client.post(
        "/v1/games", json={"engine": "dark-horse", "rated": True, "players": players}
    ).json
    over = play(client, any_app, made)
    ranking = over["result"]["ranking"]
    ranks = [next(n for n, g in enumerate(ranking) if s in g) for s in range(3)]
    teams = [[model.rating()], [start(("mcts", 2))], [start(("random", 1))]]
    want = model.rate(teams, ranks=ranks)
    after = bots_of(client, "dark-horse")
    for key, (rated,) in ((("mcts", 2), want[1]), (("random", 1), want[2])):
        assert abs(after[key]["mu"] - rated.mu) < 1e-3
        assert after[key]["games"] == (before[key]["games"] if key in before else 0) + 1
    board = client.get("/v1/ratings/dark-horse?limit=1000").json["ratings"]
    [mine] = [r for r in board if r["display_name"] == name]
    assert abs(mine["mu"] - want[0][0].mu) < 1e-3


def test_a_bot_against_itself_is_not_rated_by_the_game(any_app):
    """Given a rated game of an account against two seats of the same bot, the account
    is rated and that bot's rating does not change (level 2: the level is not what is
    tested, and level 5 thinks 0.9 s a move)."""
    client = any_app.test_client()
    [(email, name, _)] = accounts(client, any_app, 1)
    before = bots_of(client, "dark-horse").get(("mcts", 2))
    players = [
        {"name": name, "email": email},
        {"name": "One", "bot": {"kind": "mcts", "level": 2}},
        {"name": "Two", "bot": {"kind": "mcts", "level": 2}},
    ]
    made = client.post(
        "/v1/games", json={"engine": "dark-horse", "rated": True, "players": players}
    ).json
    play(client, any_app, made)
    assert bots_of(client, "dark-horse").get(("mcts", 2)) == before
    board = client.get("/v1/ratings/dark-horse?limit=1000").json["ratings"]
    assert [r["games"] for r in board if r["display_name"] == name] == [1]


def test_a_rated_game_still_needs_accounts_in_its_other_seats(app, client):
    """Given a rated game of a bot and a seat without an account, 422 unrated-seat."""
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "rated": True,
            "players": [{"name": "Ann"}, {"name": "R", "bot": MCTS}],
        },
    )
    assert answer.status_code == 422 and answer.json["code"] == "unrated-seat"
