"""Bots on real parts (issue 25): the Procfile's game worker and beat as processes on
Redis. Games of two bots of every engine play to their end by themselves; a bot
answers a person's every move; in a game of every engine whose person is absent, the
clock (2 s per move) hands the seat to the autopilot, which finishes it."""

from __future__ import annotations

import os
import time

import pytest

from arbiter.settings import environment
from tests import processes
from tests.arbiter.clock_helpers import events
from tests.arbiter.games.bot_helpers import ENGINES, bot_game
from tests.conftest import REDIS_URL, make_app, need
from tests.helpers import auth, summary

BIN = processes.BIN
BOT = {"kind": "mcts", "level": 1}
AUTOPILOT = {
    "type": "per-move",
    "seconds": 2,
    "timeout_policy": "autopilot",
    "autopilot": {"kind": "random"},
    "autopilot_until": "end",
}


@pytest.fixture
def stack(tmp_path, db_url):
    """Start the game worker and beat on Redis (database of this run) and ``db_url``;
    yield ``(app, procs, logs)``."""
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    celery_conf = {
        "broker_url": broker,
        "task_ignore_result": True,
        "broker_connection_retry_on_startup": True,
    }
    app = make_app(db_url, ENQUEUE=True, CELERY=celery_conf)
    app.extensions["celery"].conf.update(celery_conf)
    env = {
        **os.environ,
        "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
        "DATABASE_URL": db_url,
        "CELERY_BROKER_URL": broker,
        "CLOCK_SWEEP_SECONDS": "0.5",
        "PATH": f"{BIN}:{os.environ['PATH']}",
    }
    env.pop("SMTP_URL", None)
    env = environment(env)
    logs = tmp_path / "logs"
    commands = processes.celery_commands(tmp_path)
    procs = processes.start({k: commands[k] for k in ("worker", "beat")}, env, logs)
    try:
        yield app, procs, logs
    finally:
        processes.stop(procs)


def wait_for(app, procs, logs, done, seconds: float = 240) -> None:
    """Wait until ``done()`` holds, the processes alive."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for proc in procs:
            assert proc.poll() is None, (logs / "worker.log").read_text()[-3000:]
        if done():
            return
        time.sleep(0.3)
    raise AssertionError((logs / "worker.log").read_text()[-3000:])


def test_bots_play_from_the_worker_alone(stack):
    """Given the worker, a 2-bot game of every engine ends with nobody moving; a bot
    answers each move of a person; an absent person's seat goes to the autopilot at
    its first deadline, and the game of every engine ends."""
    app, procs, logs = stack
    client = app.test_client()
    bots = [bot_game(client, engine, [BOT, {"kind": "random"}])["id"] for engine in ENGINES]
    absent = [bot_game(client, engine, [BOT, None], clock=AUTOPILOT)["id"] for engine in ENGINES]
    person = bot_game(client, "space-worm", [None, BOT])
    game_id, token = person["id"], person["seats"][0]["token"]
    answered = 0
    deadline = time.monotonic() + 240
    while summary(client, game_id)["status"] != "over" and time.monotonic() < deadline:
        s = summary(client, game_id)
        if s["to_act"] != [0]:
            time.sleep(0.1)
            continue
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token)).json
        answer = client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(token),
            json={"move": legal["moves"][0], "expected_version": legal["version"]},
        )
        assert answer.status_code in (201, 409), answer.json
        answered += answer.status_code == 201
    assert summary(client, game_id)["status"] == "over" and answered > 3
    wait_for(
        app,
        procs,
        logs,
        lambda: all(summary(client, g)["status"] == "over" for g in bots + absent),
    )
    for game in absent:
        assert summary(client, game)["result"]["autopilot"] == [1]
        assert [e.seat for e in events(app, game, "autopilot-on")] == [1]
