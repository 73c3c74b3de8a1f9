"""A host that dies mid-transaction (issue 29, item 1): on the real PostgreSQL, a
session that holds a lock and never answers again (a second connection left open in
a transaction stands for it) must not stall the singleton sweeps, and the server
must end such a session of ours after ``DB_IDLE_IN_TRANSACTION_SECONDS``; the
session settings reach every connection of the app's engine."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
import sqlalchemy as sa
import time_machine

from arbiter.config import postgres_connect_args
from arbiter.extensions import db
from arbiter.games import clock_sweep, game_start
from arbiter.models import TournamentRound
from arbiter.models.timestamps import iso, utcnow
from arbiter.settings import Database, Settings
from arbiter.tournaments import tournament_rounds
from tests.arbiter.clock_helpers import clocked_game, timeouts
from tests.arbiter.games.test_invitations import _create
from tests.arbiter.tournaments.test_tournaments import accounts, create, enter_all, start
from tests.conftest import make_app
from tests.helpers import auth, new_game, until_decision


def run_within(seconds: float, call):
    """Run ``call`` in a thread; return ``(finished in time, its result)``."""
    out = {}

    def target():
        out["result"] = call()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive(), out.get("result"), thread


class DeadHost:
    """A session that took a row lock in a transaction and went silent."""

    def __init__(self, url: str, statement: str, **params):
        self.engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
        self.conn = self.engine.connect()
        self.conn.begin()
        self.conn.execute(sa.text(statement), params)

    def close(self) -> None:
        self.conn.rollback()
        self.conn.close()
        self.engine.dispose()


def test_a_clock_sweep_skips_its_turn_while_a_dead_host_holds_the_clock_row(own_postgres_url):
    """Given the clock's row locked by a session left open in a transaction (a worker
    host that lost power in the heartbeat's transaction), a sweep returns within
    seconds, saying it skipped (never waiting on the lock), and records its attempt;
    once the server ends that session, the next sweep enforces the due deadline."""
    app = make_app(own_postgres_url)
    client = app.test_client()
    game_id, *_ = clocked_game(client, app, {"type": "per-move", "seconds": 1}, players=1)
    with app.app_context():
        clock_sweep.sweep(utcnow())  # the heartbeat row exists
    host = DeadHost(
        own_postgres_url,
        "UPDATE clock_sweeps SET last_run = last_run WHERE name = 'clock'",
    )
    later = utcnow() + timedelta(seconds=30)
    try:

        def sweep():
            with app.app_context():
                try:
                    return clock_sweep.sweep(later)
                finally:
                    db.session.remove()

        started = time.monotonic()
        finished, counts, thread = run_within(8, sweep)
        assert finished, "the sweep waited on the dead host's lock"
        assert time.monotonic() - started < 3
        assert counts["skipped"] == 1 and counts["timeouts"] == 0
        assert timeouts(app, game_id) == []
        with app.app_context():
            attempt = db.session.execute(
                sa.text("SELECT last_run FROM clock_sweeps WHERE name = 'clock-attempt'")
            ).scalar()
        assert attempt is not None
    finally:
        host.close()  # the server ended the session: its locks are gone
        thread.join(30)
    with app.app_context():
        counts = clock_sweep.sweep(later + timedelta(seconds=1))
    assert counts["timeouts"] == 1 and "skipped" not in counts
    assert len(timeouts(app, game_id)) == 1
    with app.app_context():
        db.engine.dispose()


def test_a_tournament_sweep_passes_over_a_tournament_a_dead_host_holds(own_postgres_url):
    """Given a running tournament past its round deadline whose row a silent session
    holds, the tournament sweep returns within seconds without it; once released,
    the next sweep applies the deadline."""
    app = make_app(own_postgres_url)
    client = app.test_client()
    organiser, *players = accounts(client, app, 3)
    t = create(client, organiser, rounds=2, round_seconds=3600)
    enter_all(client, t["id"], players)
    start(client, t["id"], organiser)
    with app.app_context():
        late = db.session.get(TournamentRound, (t["id"], 1)).deadline + timedelta(seconds=1)
    host = DeadHost(
        own_postgres_url, "SELECT id FROM tournaments WHERE id = :id FOR UPDATE", id=t["id"]
    )
    try:

        def sweep():
            with app.app_context():
                try:
                    return tournament_rounds.sweep(late)
                finally:
                    db.session.remove()

        finished, counts, thread = run_within(8, sweep)
        assert finished, "the tournament sweep waited on the dead host's lock"
        assert counts == {"advanced": 0, "waiting": 0, "failed": 0}
    finally:
        host.close()
        thread.join(30)
    with app.app_context():
        assert tournament_rounds.sweep(late)["advanced"] == 1
        db.engine.dispose()


def test_the_server_ends_a_session_of_ours_left_idle_in_a_transaction(own_postgres_url):
    """Given ``DB_IDLE_IN_TRANSACTION_SECONDS=1``, a session of the app that opened a
    transaction and went quiet is terminated by PostgreSQL within seconds: its server
    process is gone (its locks with it) and its next statement fails."""
    app = make_app(own_postgres_url, DB_IDLE_IN_TRANSACTION_SECONDS=1)
    admin = sa.create_engine(own_postgres_url, poolclass=sa.pool.NullPool)
    with app.app_context():
        pid = db.session.execute(sa.text("SELECT pg_backend_pid()")).scalar()
        db.session.execute(sa.text("SELECT 1 FROM clock_sweeps FOR UPDATE"))
        gone = False
        for _ in range(50):
            time.sleep(0.1)
            with admin.connect() as conn:
                gone = not conn.execute(
                    sa.text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
                ).scalar()
            if gone:
                break
        assert gone, "the idle-in-transaction session outlived its timeout"
        with pytest.raises(sa.exc.DBAPIError, match="idle-in-transaction timeout"):
            db.session.execute(sa.text("SELECT 1"))
        db.session.rollback()
        db.session.remove()
        db.engine.dispose()
    admin.dispose()


def server_settings(app) -> dict:
    """Return the session settings the server sees on a connection of the app's
    engine (raw units: milliseconds, seconds for keep-alives), with the libpq
    parameters of the client."""
    names = [
        "statement_timeout",
        "lock_timeout",
        "idle_in_transaction_session_timeout",
        "tcp_keepalives_idle",
        "tcp_keepalives_interval",
        "tcp_keepalives_count",
        "tcp_user_timeout",
    ]
    with app.app_context():
        with db.engine.connect() as conn:
            rows = dict(
                conn.execute(
                    sa.text("SELECT name, setting FROM pg_settings WHERE name = ANY(:names)"),
                    {"names": names},
                ).all()
            )
            rows["search_path"] = conn.execute(sa.text("SHOW search_path")).scalar()
            rows["client"] = conn.connection.driver_connection.info.get_parameters()
        db.engine.dispose()
    return rows


def test_the_session_settings_reach_the_connections_of_workers_and_web(own_postgres_url):
    """Every connection of the app's engine carries the limits: the workers' defaults
    (60 s, 10 s, 60 s), the web process's (30 s, 5 s, 30 s) and a value from the
    environment; keep-alives and the TCP user timeout on both ends; and the URL's own
    ``options`` (the tests' search_path) are kept."""
    workers = server_settings(make_app(own_postgres_url))
    assert workers["statement_timeout"] == "60000"
    assert workers["lock_timeout"] == "10000"
    assert workers["idle_in_transaction_session_timeout"] == "60000"
    assert workers["tcp_keepalives_idle"] == "10"
    assert workers["tcp_keepalives_interval"] == "5"
    assert workers["tcp_keepalives_count"] == "3"
    assert workers["tcp_user_timeout"] == "15000"
    assert workers["search_path"].startswith("t_")  # the URL's options are kept
    client = workers["client"]
    assert client["connect_timeout"] == "5"
    assert client["keepalives"] == "1" and client["keepalives_idle"] == "10"
    assert client["tcp_user_timeout"] == "15000"

    web = server_settings(make_app(own_postgres_url, role="web", DB_LOCK_TIMEOUT_SECONDS=2.5))
    assert web["statement_timeout"] == "30000"
    assert web["lock_timeout"] == "2500"
    assert web["idle_in_transaction_session_timeout"] == "30000"
    assert web["search_path"].startswith("t_")


def test_games_due_to_start_skip_one_a_dead_host_holds(own_postgres_url):
    """Given two waiting games due to start (``start_at`` passed, an unfilled seat:
    cancelled by default), one of whose rows a silent session holds, the start sweep
    settles the other at once and leaves the held one to a later sweep, which
    settles it once the session is gone."""
    app = make_app(own_postgres_url)
    client = app.test_client()
    start = utcnow() + timedelta(hours=1)
    ids = [
        _create(client, None, f"bob{i}@example.org", start_at=iso(start)).json["id"]
        for i in range(2)
    ]
    host = DeadHost(own_postgres_url, "SELECT id FROM games WHERE id = :id FOR UPDATE", id=ids[0])
    try:

        def starts():
            with time_machine.travel(start + timedelta(seconds=1), tick=False):
                with app.app_context():
                    try:
                        return game_start.start_due()
                    finally:
                        db.session.remove()

        finished, done, thread = run_within(8, starts)
        assert finished, "the start sweep waited on the dead host's lock"
        assert done == 1
        assert client.get(f"/v1/games/{ids[1]}").json["status"] == "cancelled"
        assert client.get(f"/v1/games/{ids[0]}").json["status"] == "waiting"
    finally:
        host.close()
        thread.join(30)
    with time_machine.travel(start + timedelta(seconds=2), tick=False):
        with app.app_context():
            assert game_start.start_due() == 1
            db.engine.dispose()
    assert client.get(f"/v1/games/{ids[0]}").json["status"] == "cancelled"


def test_a_move_on_a_game_a_dead_host_holds_is_503_after_the_lock_timeout(own_postgres_url):
    """Given a game whose row a silent session holds (``UPDATE games`` in an open
    transaction, as a worker that lost power mid-write), a move on it answers 503
    ``database-unavailable`` with Retry-After after ``DB_LOCK_TIMEOUT_SECONDS`` (1 s
    here), never a hang; once the session is gone the retried move is accepted."""
    app = make_app(own_postgres_url, DB_LOCK_TIMEOUT_SECONDS=1.0)
    client = app.test_client()
    game_id, tokens = new_game(client, players=1)
    s = until_decision(client, app, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    body = {"move": legal["moves"][0], "expected_version": s["version"]}
    host = DeadHost(
        own_postgres_url,
        "UPDATE games SET engine_version = engine_version WHERE id = :id",
        id=game_id,
    )
    try:
        headers = {**auth(tokens[0]), "Idempotency-Key": "dead-host-move-0001"}
        started = time.monotonic()
        finished, answer, _ = run_within(
            10, lambda: client.post(f"/v1/games/{game_id}/moves", json=body, headers=headers)
        )
        assert finished, "the move waited on the dead host's lock"
        assert time.monotonic() - started < 5
        assert answer.status_code == 503, answer.get_data()[:300]
        assert answer.json["code"] == "database-unavailable"
        assert answer.headers["Retry-After"]
    finally:
        host.close()
    again = client.post(f"/v1/games/{game_id}/moves", json=body, headers=headers)
    assert again.status_code == 201, again.json
    with app.app_context():
        db.engine.dispose()


def test_the_server_side_limits_keep_the_urls_options_and_can_be_left_out():
    """The ``options`` of the URL come first (the settings append to them); with
    ``DB_SESSION_OPTIONS=0`` (PgBouncer) no ``options`` are sent, only the client's
    TCP limits."""
    url = "postgresql+psycopg://u@db.example/a?options=-csearch_path%3Dmine"
    args = postgres_connect_args(url, Database())
    assert args["options"].startswith("-csearch_path=mine -c statement_timeout=60000")
    web = Settings.from_env({"DB_SESSION_OPTIONS": "0", "SECRET_KEY": "k"}, "/tmp", role="web")
    off = postgres_connect_args(url, web.database)
    assert "options" not in off
    assert off["connect_timeout"] == 5 and off["tcp_user_timeout"] == 15000
