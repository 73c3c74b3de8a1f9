"""The clock sweep settles due games in batches (issue 13, "clock sweep with 10,000
active games, 500 due"): one transaction and one statement per kind of row per batch,
still exactly once per deadline, on SQLite and PostgreSQL, with two sweepers at once,
and with a broken game in a batch."""

from __future__ import annotations

import threading
import uuid
from contextlib import contextmanager
from urllib.parse import quote

import pytest
import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.games import clock_sweep
from arbiter.models import Game
from tests.arbiter.clock_helpers import T0, after, clocked_game, sweep, timeouts
from tests.conftest import POSTGRES_URL, make_app, need


@pytest.fixture(params=["sqlite", "postgres"])
def own_app(request, tmp_path):
    """An app on a database of its own (SQLite, or a fresh PostgreSQL schema): the
    statement counts below must not see other tests' due games."""
    if request.param == "sqlite":
        app = make_app(f"sqlite:///{tmp_path / 'arbiter.sqlite3'}")
        yield app
    else:
        from arbiter.settings import database_url

        base = database_url(need(POSTGRES_URL, "PostgreSQL", "ARBITER_TEST_POSTGRES_URL"), "")
        schema = f"t_{uuid.uuid4().hex[:12]}"
        admin = sa.create_engine(base)
        with admin.begin() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in base else "?"
        app = make_app(f"{base}{sep}options={quote(f'-csearch_path={schema}')}")
        yield app
        with app.app_context():
            db.engine.dispose()
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()
        return
    with app.app_context():
        db.engine.dispose()


def due_games(app, count: int) -> list[str]:
    """Create ``count`` one-seat games on a 60 s per-move clock at T0; return their ids
    (all due at T0 + 61)."""
    client = app.test_client()
    with time_machine.travel(T0, tick=False):
        return [
            clocked_game(client, app, {"type": "per-move", "seconds": 60}, players=1)[0]
            for _ in range(count)
        ]


@contextmanager
def statements(app):
    """Collect the SQL text of every statement sent inside the block."""
    seen: list[str] = []

    def record(conn, cursor, statement, params, context, executemany):
        seen.append(" ".join(statement.split()))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def test_a_batch_is_one_update_and_one_insert_and_each_game_times_out_once(own_app, monkeypatch):
    """Given 5 due games and batches of 2, one sweep times each out once, writing the
    snapshots with one UPDATE statement per batch (not per game) and the events with
    one INSERT per batch; a second sweep finds nothing."""
    monkeypatch.setattr(clock_sweep, "BATCH_GAMES", 2)
    ids = due_games(own_app, 5)
    with statements(own_app) as seen, time_machine.travel(after(T0, 61), tick=False):
        counts = sweep(own_app, after(T0, 61))
    assert counts["claimed"] == counts["timeouts"] == 5
    for game_id in ids:
        [timeout] = timeouts(own_app, game_id)
        assert timeout.payload["timeout"]["deadline"].startswith("2026-12-01T12:01:00")
    snapshot_updates = [s for s in seen if s.startswith("UPDATE games SET engine_version")]
    event_inserts = [s for s in seen if s.startswith("INSERT INTO events")]
    assert len(snapshot_updates) == 3 and len(event_inserts) == 3  # batches of 2, 2, 1
    assert sweep(own_app, after(T0, 62))["timeouts"] == 0
    assert all(len(timeouts(own_app, game_id)) == 1 for game_id in ids)


def test_two_sweepers_at_once_time_each_game_out_once(own_app, monkeypatch):
    """Given 12 due games and batches of 3, two sweeps started together (a barrier)
    time out every game exactly once between them."""
    monkeypatch.setattr(clock_sweep, "BATCH_GAMES", 3)
    ids = due_games(own_app, 12)
    barrier = threading.Barrier(2)
    counts, errors = [], []

    def sweeper():
        with own_app.app_context():
            try:
                barrier.wait()
                counts.append(clock_sweep.sweep(after(T0, 61)))
            except Exception as err:  # noqa: BLE001 - reported by the assertion
                errors.append(err)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    with time_machine.travel(after(T0, 61), tick=False):  # new deadlines lie ahead
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert not errors and len(counts) == 2
    assert [len(timeouts(own_app, game_id)) for game_id in ids] == [1] * len(ids)


def test_a_broken_game_in_a_batch_does_not_stop_the_others(own_app, monkeypatch):
    """Given a batch of 4 due games, one with a snapshot its engine cannot read, the
    batch falls back to one game per transaction: the 3 others time out once, the
    broken one is left due (the next sweep tries again) and nothing of it is written."""
    monkeypatch.setattr(clock_sweep, "BATCH_GAMES", 4)
    ids = due_games(own_app, 4)
    broken = ids[1]
    with own_app.app_context():
        db.session.execute(sa.update(Game).where(Game.id == broken).values(state={}))
        db.session.commit()
        version = db.session.get(Game, broken).version
    with time_machine.travel(after(T0, 61), tick=False):
        counts = sweep(own_app, after(T0, 61))
    assert counts["timeouts"] == 3
    assert [len(timeouts(own_app, game_id)) for game_id in ids] == [1, 0, 1, 1]
    with own_app.app_context():
        game = db.session.get(Game, broken)
        assert game.version == version and game.deadline <= after(T0, 61)
