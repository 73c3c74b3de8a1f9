"""The clock on real parts: a Celery worker and Celery beat as processes on Redis, a
2-second time control, nobody moving: beat's sweep times the seat out, once per
deadline, and the game goes on (the worker rolls what each timeout leads to)."""

from __future__ import annotations

import os
import time

from arbiter.settings import environment
from tests import processes
from tests.arbiter.clock_helpers import clocked_game, timeouts
from tests.conftest import REDIS_URL, make_app, need

BIN = processes.BIN


def test_beat_and_a_worker_enforce_short_deadlines_exactly_once(tmp_path):
    """Given worker + beat on Redis and 2 s per move, two deadlines pass unanswered:
    two timeout moves appear, each enforcing a different deadline, none twice; a game
    whose deadline is ahead is left alone."""
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    db_url = f"sqlite:///{tmp_path / 'arbiter.sqlite3'}"
    app = make_app(db_url)
    client = app.test_client()
    env = {
        **os.environ,
        "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
        "DATABASE_URL": db_url,
        "CELERY_BROKER_URL": broker,
        "CLOCK_SWEEP_SECONDS": "0.5",
        "PATH": f"{BIN}:{os.environ['PATH']}",
    }
    env.pop("SMTP_URL", None)
    env = environment(env)  # CLOCK_SWEEP_SECONDS goes in ARBITER_OVERRIDES
    logs = tmp_path / "logs"
    procs = processes.start(processes.celery_commands(tmp_path), env, logs)
    try:
        game_id, _, _, _ = clocked_game(client, app, {"type": "per-move", "seconds": 2}, players=1)
        quiet, _, _, _ = clocked_game(client, app, {"type": "per-move", "seconds": 300}, players=1)
        deadline = time.monotonic() + 45
        while time.monotonic() < deadline and len(timeouts(app, game_id)) < 2:
            for proc in procs:
                assert proc.poll() is None, (logs / "worker.log").read_text()[-3000:]
            time.sleep(0.2)
        found = timeouts(app, game_id)
        assert len(found) >= 2, (logs / "beat.log").read_text()[-2000:]
        enforced = [e.payload["timeout"]["deadline"] for e in found]
        assert len(set(enforced)) == len(enforced)
        assert timeouts(app, quiet) == []  # its deadline is still ahead
    finally:
        processes.stop(procs)
