"""Bots on the whole stack (issue 25): the Procfile's processes (uvicorn web, the Celery
workers, beat), on the embedded default (SQLite, filesystem broker) and on PostgreSQL +
Redis. Over HTTP only: a person plays a bot, which answers each move from the worker;
a Swiss of three entrants with ``fill_with_bot`` is filled by a bot at its start (no
byes), its bot's games played by the worker, its rounds paired by the worker, and its
record verifies."""

from __future__ import annotations

import random
import time

import pytest
import requests

from engines import move_parts
from tests.conftest import REDIS_URL, need
from tests.e2e.test_tournaments import (
    GAME_SECONDS,
    ROUND_SECONDS,
    bearer,
    check_record,
    ok,
    sign_up,
)

BOT = {"kind": "mcts", "level": 1}


def play_people(url: str, game_id: str, tokens: list[str | None], seed: int) -> int:
    """Play the people's seats (``tokens``; None: a bot seat, left to the worker) by
    random legal moves until the game ends; return how many moves they made."""
    http, rng = requests.Session(), random.Random(seed)
    started, made = time.monotonic(), 0
    while time.monotonic() - started < GAME_SECONDS:
        game = ok(http.get(f"{url}/v1/games/{game_id}", timeout=30))
        if game["status"] == "over":
            return made
        people = [s for s in game["to_act"] if tokens[s] is not None]
        if not people:
            http.get(
                f"{url}/v1/games/{game_id}/events",
                timeout=30,
                params={"after": game["version"], "wait": 2},
            )
            continue
        auth = bearer(tokens[rng.choice(people)])
        legal = http.get(f"{url}/v1/games/{game_id}/legal-moves", headers=auth, timeout=30)
        if legal.status_code == 409:
            continue
        legal = ok(legal)
        answer = http.post(
            f"{url}/v1/games/{game_id}/moves",
            headers=auth,
            timeout=30,
            json={"move": move_parts.pick(legal, rng), "expected_version": legal["version"]},
        )
        assert answer.status_code in (201, 409), answer.text
        made += answer.status_code == 201
    raise AssertionError(f"game {game_id} did not end within {GAME_SECONDS} s")


def a_person_against_a_bot(url: str) -> None:
    """The bot answers every move of the person, its moves marked as a bot's."""
    made = ok(
        requests.post(
            f"{url}/v1/games",
            timeout=30,
            json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "R", "bot": BOT}]},
        ),
        201,
    )
    assert made["seats"][1]["token"] is None
    assert play_people(url, made["id"], [made["seats"][0]["token"], None], 1) > 3
    record = ok(requests.get(f"{url}/v1/games/{made['id']}/record", timeout=30))
    bot_moves = [e for e in record["events"] if e["kind"] == "move" and e["seat"] == 1]
    assert bot_moves and all(e["payload"]["via"]["channel"] == "bot" for e in bot_moves)


def a_swiss_filled_by_a_bot(url: str, inbox, tmp_path) -> None:
    """Three entrants, fill_with_bot: two tables every round, the bot at one of them."""
    organiser, *tokens = sign_up(url, inbox, 4)
    settings = {
        "name": "Filled",
        "engine": "space-worm",
        "table_size": 2,
        "format": "swiss",
        "rounds": 2,
        "fill_with_bot": BOT,
    }
    t = ok(requests.post(f"{url}/v1/tournaments", json=settings, headers=bearer(organiser)), 201)
    base = f"{url}/v1/tournaments/{t['id']}"
    token_of = {}
    for token in tokens:
        entry = ok(requests.post(f"{base}/entries", headers=bearer(token), timeout=30), 201)
        token_of[entry["id"]] = token
    ok(requests.post(f"{base}/start", headers=bearer(organiser), timeout=30))
    [filler] = [e for e in ok(requests.get(base, timeout=30))["entries"] if e.get("bot")]
    for number in (1, 2):
        rnd = ok(requests.get(f"{base}/rounds/{number}", timeout=30))
        assert rnd["byes"] == [] and len(rnd["tables"]) == 2
        assert filler["id"] in {p["entry"] for x in rnd["tables"] for p in x["players"]}
        for table in rnd["tables"]:
            seats = [token_of.get(p["entry"]) for p in table["players"]]
            play_people(url, table["game"], seats, number * 10 + table["table"])
        deadline = time.monotonic() + ROUND_SECONDS
        while True:
            t = ok(requests.get(base, timeout=30))
            if t["status"] == "over" or t["round"] > number:
                break
            assert time.monotonic() < deadline, f"round {number + 1} was never paired"
            time.sleep(0.5)
    assert t["status"] == "over"
    check_record(url, t, tmp_path)


@pytest.fixture
def stack(start_stack, smtp):
    """Start web, worker, mailer and beat with mail to the loopback SMTP server."""
    smtp_url, inbox = smtp
    return (lambda database_url, broker_url: start_stack(database_url, broker_url, smtp_url)), inbox


@pytest.mark.soak  # make test runs the other backend; make soak both
def test_bots_on_the_embedded_default(stack, tmp_path):
    start, inbox = stack
    url = start(None, None)
    a_person_against_a_bot(url)
    a_swiss_filled_by_a_bot(url, inbox, tmp_path)


def test_bots_on_postgres_and_redis(stack, tmp_path, postgres_url):
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    start, inbox = stack
    url = start(postgres_url, broker)
    a_person_against_a_bot(url)
    a_swiss_filled_by_a_bot(url, inbox, tmp_path)
