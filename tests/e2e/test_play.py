"""A real game on real parts: gunicorn, a Celery worker and beat as processes, mail to
a real SMTP server on loopback, played over HTTP only by ``arbiter play``.

Once on the embedded default (SQLite, filesystem broker) and once on PostgreSQL +
Redis. Checks: the game ends, the scores match the engine's own replay (the record
verifies), every player got one turn mail per prompt and no duplicates, and the
game's end mailed everyone.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
import requests

import engines

from arbiter.play import play
from tests import processes
from tests.conftest import REDIS_URL, free_port, need

BIN = processes.BIN
ENGINES_TO_PLAY = list(engines.ENGINE_MODULES)


def wait_until_up(url: str, procs: list[subprocess.Popen], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for proc in procs:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args} exited with {proc.returncode}")
        try:
            if requests.get(f"{url}/v1/engines", timeout=10).ok:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up")


@pytest.fixture
def stack(tmp_path, smtp, request):
    """Start web, worker and beat with the environment the test asks for."""
    smtp_url, inbox = smtp

    def start(database_url: str | None, broker_url: str | None) -> str:
        port = free_port()
        env = {**os.environ, "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
               "SMTP_URL": smtp_url, "BASE_URL": f"http://127.0.0.1:{port}", "OPEN_CREATION": "1",
               "PATH": f"{BIN}:{os.environ['PATH']}"}
        for key, value in (("DATABASE_URL", database_url), ("CELERY_BROKER_URL", broker_url)):
            if value:
                env[key] = value
            else:
                env.pop(key, None)
        subprocess.run([BIN / "arbiter", "db-upgrade"], env=env, check=True,
                       capture_output=True)
        commands = {
            "web": [BIN / "gunicorn", "--bind", f"127.0.0.1:{port}", "--worker-class",
                    "gthread", "--workers", "2", "--threads", "4", "arbiter:create_app()"],
            **processes.celery_commands(tmp_path),
        }
        procs = processes.start(commands, env, tmp_path / "logs")
        request.addfinalizer(lambda: processes.stop(procs))
        url = f"http://127.0.0.1:{port}"
        wait_until_up(url, procs)
        return url

    return start, inbox


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
