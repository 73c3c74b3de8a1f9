"""A real game on real parts: the Procfile's processes (uvicorn web, Celery workers, beat), mail to
a real SMTP server on loopback, played over HTTP only by ``arbiter play``.

Once on the embedded default (SQLite, filesystem broker) and once on PostgreSQL +
Redis. Checks: the game ends, the scores match the engine's own replay (the record
verifies), every player got one turn mail per prompt and no duplicates, and the
game's end mailed everyone.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

import engines

from arbiter.play import play
from tests.conftest import REDIS_URL, need

ENGINES_TO_PLAY = list(engines.ENGINE_MODULES)


@pytest.fixture
def stack(start_stack, smtp):
    """Start web, worker and beat with mail to the loopback SMTP server."""
    smtp_url, inbox = smtp
    return (lambda database_url, broker_url: start_stack(database_url, broker_url,
                                                           smtp_url)), inbox


def check_game(url: str, inbox, engine: str, players: int, tmp_path: Path) -> None:
    emails = [f"seat{i}-{engine}@example.org" for i in range(players)]
    lines: list[str] = []
    played = play(url, engine, players, seed=42, out_dir=tmp_path / "records",
                  emails=emails, echo=lines.append, timeout=300)
    assert played.verdict.ok, played.verdict.mismatch
    assert played.record["result"]["scores"] is not None
    assert any(line.startswith("record: ") and "verified" in line for line in lines)
    prompts = Counter()
    for event in played.record["events"]:
        if event["kind"] == "move":
            prompts[event["seat"]] += 1
    expected = {emails[s]: prompts[s] + 1 for s in range(players)}  # + the end mail
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(
            len(inbox.to(a)) < n for a, n in expected.items()):
        time.sleep(0.2)
    time.sleep(1)  # a duplicate would arrive now
    for address, count in expected.items():
        got = inbox.to(address)
        assert len(got) == count, (address, len(got), count)
        assert len({m["Message-ID"] for m in got}) == count
        assert sum("is over" in m["Subject"] for m in got) == 1


@pytest.mark.parametrize("engine", ENGINES_TO_PLAY)
def test_a_game_on_the_embedded_default(stack, tmp_path, engine):
    """Given SQLite and the filesystem broker, a 3-player game plays out."""
    start, inbox = stack
    url = start(None, None)
    check_game(url, inbox, engine, 3, tmp_path)


@pytest.mark.parametrize("engine", ENGINES_TO_PLAY)
def test_a_game_on_postgres_and_redis(stack, tmp_path, postgres_url, engine):
    """Given PostgreSQL and Redis, a 3-player game plays out."""
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    start, inbox = stack
    url = start(postgres_url, broker)
    check_game(url, inbox, engine, 3, tmp_path)
