"""Whole games played by email only (issue 9, "The play command by email"): web,
worker, beat and the mailin listener as real processes, every move an SMTP reply to
the turn mail sent to mailin, every mail of the arbiter received by a real SMTP
server on loopback (the player's sink).

For every engine on the embedded default, and once on PostgreSQL + Redis. Checks:
the game ends; every move in the log came by mail; every seat got exactly one turn
mail per prompt and one answer per command; no Message-ID twice; the record verifies.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

import engines
from arbiter.play_mail import Sink, play_by_email
from tests.conftest import REDIS_URL, free_port, need


def check_by_email(start_stack, tmp_path, engine: str, database_url=None, broker_url=None):
    """Play a 2-seat game of ``engine`` by mail on a fresh stack and check its mail."""
    sink_url = f"smtp://127.0.0.1:{free_port()}"
    mailin_url = f"smtp://127.0.0.1:{free_port()}"
    with Sink(sink_url) as sink:
        url = start_stack(database_url, broker_url, sink_url, mailin_url)
        lines: list[str] = []
        played, check = play_by_email(url, engine, 2, sink, mailin_url, seed=7,
                                      out_dir=tmp_path / "records", echo=lines.append,
                                      timeout=float(os.environ.get("ARBITER_E2E_TIMEOUT", 420)))
    assert played.record["result"] is not None
    assert played.verdict.ok, played.verdict.mismatch
    assert check.problems == [], check.problems  # moves not by mail, duplicate Message-IDs
    prompts = Counter(e["seat"] for e in played.record["events"] if e["kind"] == "move")
    for seat, address in enumerate(check.addresses):
        assert check.turn_mails[address] == prompts[seat], (address, check)
        assert check.commands[address] >= prompts[seat]
        assert check.answers[address] == check.commands[address], (address, check)
    assert any(line.startswith("record: ") and "verified" in line for line in lines)


@pytest.mark.parametrize("engine", list(engines.ENGINE_MODULES))
def test_a_game_by_email_on_the_embedded_default(start_stack, tmp_path, engine):
    """Given SQLite and the filesystem broker, a 2-player game plays out by mail."""
    check_by_email(start_stack, tmp_path, engine)


def test_a_game_by_email_on_postgres_and_redis(start_stack, tmp_path, postgres_url):
    """Given PostgreSQL and Redis, a 2-player Worms game plays out by mail."""
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    check_by_email(start_stack, tmp_path, "worms", postgres_url, broker)
