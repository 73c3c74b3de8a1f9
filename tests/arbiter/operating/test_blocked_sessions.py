"""``arbiter doctor`` and ``/metrics`` see blocked sessions and long-held locks, and
tell "beat not running" from "sweeps blocked" (issue 30, item 2), with real locks on
the real PostgreSQL: a session left open in a transaction holding the clock's row (a
host that died), and a statement waiting behind it. The database is shared with other
test runs: assertions look only at this test's own sessions."""

from __future__ import annotations

import re
import threading
import time
from datetime import timedelta

import sqlalchemy as sa

from arbiter import health
from arbiter.extensions import db
from arbiter.games import clock_sweep
from arbiter.models.timestamps import utcnow
from tests.conftest import make_app

TOKEN = "metrics-token-for-tests"


def set_rows(app, **ages) -> None:
    """Set the ``clock_sweeps`` rows (``clock``, ``clock_attempt``) to that many
    seconds ago (None: no such row)."""
    with app.app_context():
        db.session.execute(sa.text("DELETE FROM clock_sweeps"))
        for name, age in ages.items():
            if age is not None:
                db.session.execute(
                    sa.text("INSERT INTO clock_sweeps (name, last_run) VALUES (:n, :t)"),
                    {"n": name.replace("_", "-"), "t": utcnow() - timedelta(seconds=age)},
                )
        db.session.commit()


def gauge(text: str, name: str) -> float:
    """Return the value of gauge ``name`` in a Prometheus exposition."""
    return float(re.search(rf"^{name} (\S+)$", text, flags=re.M).group(1))


def test_doctor_and_metrics_name_the_session_that_blocks_the_sweeps(own_postgres_url):
    """Given the clock's row held for minutes by a silent session (from 127.0.0.1,
    application ``dead-host``) and an ``UPDATE`` of it waiting behind, while beat keeps
    attempting sweeps: the doctor's beat check says the sweeps are blocked, not beat,
    and names the holder (pid, address, state, query); its locks check names both
    sessions (the waiter blocked by the holder); ``/metrics`` shows the clock blocked,
    a session idle in a transaction and one waiting on a lock, and a fresh attempt."""
    app = make_app(own_postgres_url, DB_HELD_REPORT_SECONDS=1.0, METRICS_TOKEN=TOKEN)
    set_rows(app, clock=600, clock_attempt=600)
    engine = sa.create_engine(
        own_postgres_url,
        poolclass=sa.pool.NullPool,
        connect_args={"application_name": "dead-host"},
    )
    holder = engine.connect()
    holder_pid = holder.execute(sa.text("SELECT pg_backend_pid()")).scalar()
    holder.rollback()
    holder.begin()
    holder.execute(sa.text("UPDATE clock_sweeps SET last_run = last_run WHERE name = 'clock'"))
    waiter = engine.connect()
    waiter_pid = waiter.execute(sa.text("SELECT pg_backend_pid()")).scalar()
    waiter.rollback()
    waiting = threading.Thread(
        target=lambda: waiter.execute(
            sa.text("UPDATE clock_sweeps SET last_run = now() WHERE name = 'clock'")
        ),
        daemon=True,
    )
    try:
        waiting.start()
        with app.app_context():
            assert clock_sweep.sweep(utcnow())["skipped"] == 1  # beat runs; skipped
        time.sleep(1.5)
        with app.app_context():
            beat = health.beat(app)
            locks = health.locks(app)
        assert beat.level == "problem"
        assert "sweeps are blocked, not beat" in beat.detail
        assert f"session {holder_pid} from 127.0.0.1 (dead-host)" in beat.detail
        assert "idle in transaction" in beat.detail and "UPDATE clock_sweeps" in beat.detail
        assert f"pg_terminate_backend({holder_pid})" in beat.detail
        assert "is `beat` running" not in beat.detail
        assert locks.level == "problem"
        assert f"session {holder_pid} from 127.0.0.1 (dead-host), idle in transaction" in (
            locks.detail
        )
        assert re.search(
            rf"session {waiter_pid} from 127\.0\.0\.1 \(dead-host\), waiting \d+ s on a lock "
            rf"held by session\(s\) [\d, ]*{holder_pid}",
            locks.detail,
        ), locks.detail
        scraped = app.test_client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert scraped.status_code == 200
        text = scraped.get_data(as_text=True)
        assert gauge(text, "arbiter_clock_sweep_blocked") == 1
        assert gauge(text, "arbiter_db_idle_in_transaction_sessions") >= 1
        assert gauge(text, "arbiter_db_lock_waiting_sessions") >= 1
        assert gauge(text, "arbiter_db_lock_wait_max_seconds") >= 1
        assert 0 <= gauge(text, "arbiter_clock_sweep_attempt_age_seconds") < 30
        assert gauge(text, "arbiter_clock_sweep_age_seconds") >= 600
    finally:
        holder.rollback()
        holder.close()
        waiting.join(10)
        waiter.rollback()
        waiter.close()
        engine.dispose()
    with app.app_context():
        assert health.beat(app).level == "problem"  # still late, but no longer blocked
        assert "blocked" not in health.beat(app).detail
        scraped = app.test_client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert gauge(scraped.get_data(as_text=True), "arbiter_clock_sweep_blocked") == 0
        db.engine.dispose()


def test_doctor_tells_beat_not_running_from_sweeps_that_do_not_complete(own_postgres_url):
    """No lock held: a stale heartbeat with no recent attempt is "is `beat` running?";
    with a recent attempt it is sweeps that fail (beat runs); a fresh heartbeat is ok."""
    app = make_app(own_postgres_url, DB_HELD_REPORT_SECONDS=1.0)
    set_rows(app, clock=600, clock_attempt=None)
    with app.app_context():
        found = health.beat(app)
    assert found.level == "problem"
    assert "no sweep was attempted ever" in found.detail and "is `beat` running" in found.detail
    set_rows(app, clock=600, clock_attempt=500)
    with app.app_context():
        found = health.beat(app)
    assert "no sweep was attempted for 500 s" in found.detail
    set_rows(app, clock=600, clock_attempt=5)
    with app.app_context():
        found = health.beat(app)
    assert "beat is running" in found.detail and "do not complete" in found.detail
    set_rows(app, clock=5, clock_attempt=5)
    with app.app_context():
        assert health.beat(app).level == "ok"
        db.engine.dispose()
