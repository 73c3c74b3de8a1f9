"""Whole games played by email only (issue 9, "The play command by email"): web,
worker, beat and the mailin listener as real processes, every move an SMTP reply to
the turn mail sent to mailin, every mail of the arbiter received by a real SMTP
server on loopback (the player's sink).

Every reply is written as people write them (issue 24): "Hi Arbiter," above the
move, thanks and a signature below it; invitations are answered "Yes, count me in!".
For every engine on the embedded default, and once on PostgreSQL + Redis. Checks:
the game ends; every move in the log came by mail; every seat got exactly one turn
mail per prompt and one answer per command; no Message-ID twice; the record verifies.
"""

from __future__ import annotations

import os
import threading
from collections import Counter

import pytest

import engines
from arbiter.play_mail import Sink, play_by_email
from tests.conftest import REDIS_URL, free_port, need


def play_games(start_stack, tmp_path, games: list[str], database_url=None, broker_url=None) -> dict:
    """Start one stack (web, worker, beat, mailin) with its mail going to a sink, play
    a 2-seat game of each engine in ``games`` by mail at the same time (one thread
    each), and return ``{engine: (played, check) or the exception}``."""
    sink_url = f"smtp://127.0.0.1:{free_port()}"
    mailin_url = f"smtp://127.0.0.1:{free_port()}"
    results: dict = {}

    def one(engine: str) -> None:
        try:
            results[engine] = play_by_email(
                url,
                engine,
                2,
                sink,
                mailin_url,
                seed=7,
                out_dir=tmp_path / "records",
                echo=lambda _: None,
                timeout=float(os.environ.get("ARBITER_E2E_TIMEOUT", 420)),
            )
        except Exception as err:  # noqa: BLE001 - reported by the test, per engine
            results[engine] = err

    with Sink(sink_url) as sink:
        url = start_stack(database_url, broker_url, sink_url, mailin_url)
        threads = [threading.Thread(target=one, args=(e,)) for e in games]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return results


def check_played(engine: str, result) -> None:
    """Assert what the issue asks of a game played by mail."""
    assert not isinstance(result, Exception), f"{engine}: {result!r}"
    played, check = result
    assert played.record["result"] is not None, engine
    assert played.verdict.ok, (engine, played.verdict.mismatch)
    assert check.problems == [], (engine, check.problems)  # not by mail; duplicate ids
    prompts = Counter(e["seat"] for e in played.record["events"] if e["kind"] == "move")
    for seat, address in enumerate(check.addresses):
        assert check.turn_mails[address] == prompts[seat], (engine, address, check)
        assert check.commands[address] >= prompts[seat], (engine, address, check)
        assert check.answers[address] == check.commands[address], (engine, address, check)


def test_every_engine_by_email_on_the_embedded_default(start_stack, tmp_path):
    """Given SQLite and the filesystem broker, a 2-player game of every engine plays
    out by mail (the four at once on one stack)."""
    games = list(engines.ENGINE_MODULES)
    results = play_games(start_stack, tmp_path, games)
    for engine in games:
        check_played(engine, results[engine])


@pytest.mark.soak  # make test runs the other backend; make soak both
def test_a_game_by_email_on_postgres_and_redis(start_stack, tmp_path, postgres_url):
    """Given PostgreSQL and Redis, a 2-player Worms game plays out by mail."""
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    results = play_games(start_stack, tmp_path, ["worms"], postgres_url, broker)
    check_played("worms", results["worms"])


def test_a_dark_horse_game_by_polite_mail_ends_with_a_game_over_mail(start_stack, tmp_path):
    """Given replies that open "Hi Arbiter," and end with a signature, a Dark Horse
    game plays out by mail; every game-over mail tells how the scores were made and
    carries a Reply-To."""
    results = play_games(start_stack, tmp_path, ["dark-horse"])
    check_played("dark-horse", results["dark-horse"])
