"""A database of 100,000 games on PostgreSQL: do the list, the sweep and the event
reads stay fast, and does any query scan a whole table?

What it builds (a fresh schema): ``ARBITER_BENCH_ACTIVE`` (default 10,000) active
Space Worm games on a per-move clock, 500 of them due now (copies of one real game,
as ``bench/clock_sweep.py`` makes them), and ``ARBITER_BENCH_OVER`` (default 90,000)
finished games of the four engines (copies, made in SQL, of one real game per engine
ended by a resignation), every game with its seats (player names shared by about 5
games each) and its events; one account holds a seat in 1,000 of the active games.

What it measures, in this process through the Flask test client (no network; the
app, with the web process's settings, and PostgreSQL only): the p50 of 30 requests of
``GET /v1/games`` with each filter (target: ``status=active&engine=...`` p50 <= 20
ms), of ``GET /v1/me/games?to_act=true`` for that account, of ``GET
/v1/games/{id}/events`` and of a summary, each with the median CPU time per request
of this process, the statements and the time spent in them per request (what the
load of a shared machine inflates least) and the load average; one clock sweep with
500 due (target <= 1 s), with its CPU time here and in its PostgreSQL backend; the
resident memory of this process before and after ``ARBITER_BENCH_REQUESTS`` (default
3,000) more list and event requests (flat or not). Then the plan of every
query those routes and the sweep send (captured with SQLAlchemy's
``before_cursor_execute``, run again under ``EXPLAIN``): any sequential scan on
``games``, ``seats`` or ``events`` is reported. Figures are noisy (a shared machine).

Run alone: ``.venv/bin/python bench/many_games.py``.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import time
from datetime import timedelta

import common

ACTIVE = int(os.environ.get("ARBITER_BENCH_ACTIVE", "10000"))
OVER = int(os.environ.get("ARBITER_BENCH_OVER", "90000"))
REQUESTS = int(os.environ.get("ARBITER_BENCH_REQUESTS", "3000"))
DUE = 500
MINE = 1000
ENGINES = ["space-worm", "dark-horse", "star-maps", "worms"]
SCANNED = ("games", "seats", "events")


def finished_template(engine: str) -> str:
    """Create a 2-seat game of ``engine``, roll it, resign seat 1; return its id."""
    from arbiter.games import chance, creation, games, moves
    from arbiter.uow import UnitOfWork

    players = [games.NewPlayer("A"), games.NewPlayer("B")]
    game = creation.create_game(UnitOfWork(), creation.CreateGame(engine, players, {}))
    chance.advance_chance(game.id, 2 + 1)
    moves.resign(UnitOfWork(), moves.Resign(game.id, game.tokens[1]))
    return game.id


def copy_over(template: str, prefix: str, count: int) -> None:
    """Copy finished game ``template`` (its row, seats and events) ``count`` times in
    SQL; ids ``<prefix><n>``, creation times one minute apart into the past."""
    import sqlalchemy as sa

    from arbiter.extensions import db
    from arbiter.models import Event, Game, Seat

    def columns(table, replace: dict) -> tuple[str, str]:
        names = [c.name for c in table.columns]
        return ", ".join(names), ", ".join(replace.get(n, f"t.{n}") for n in names)

    gid = f"'{prefix}' || lpad(i::text, 7, '0')"
    into, select = columns(
        Game.__table__,
        {
            "id": gid,
            "created_at": "t.created_at - i * interval '1 minute'",
            "updated_at": "t.updated_at - i * interval '1 minute'",
        },
    )
    db.session.execute(
        sa.text(
            f"INSERT INTO games ({into}) SELECT {select} FROM games t, "
            f"generate_series(1, :n) i WHERE t.id = :t"
        ),
        {"n": count, "t": template},
    )
    into, select = columns(
        Seat.__table__, {"game_id": gid, "name": "'P' || ((i * 2 + t.seat) % 40000)"}
    )
    db.session.execute(
        sa.text(
            f"INSERT INTO seats ({into}) SELECT {select} FROM seats t, "
            f"generate_series(1, :n) i WHERE t.game_id = :t"
        ),
        {"n": count, "t": template},
    )
    into, select = columns(Event.__table__, {"game_id": gid})
    db.session.execute(
        sa.text(
            f"INSERT INTO events ({into}) SELECT {select} FROM events t, "
            f"generate_series(1, :n) i WHERE t.game_id = :t"
        ),
        {"n": count, "t": template},
    )
    db.session.commit()


SERVER = {"statements": 0, "db": 0.0}
"""Statements sent and seconds spent in them (cursor execute to its return), counted
by SQLAlchemy events on the app's engine (:func:`count_statements`)."""


def count_statements(engine) -> None:
    """Count into ``SERVER`` every statement ``engine`` sends and the time it takes."""
    import sqlalchemy as sa

    def before(conn, cursor, statement, params, context, many):
        conn.info["bench_began"] = time.perf_counter()

    def after(conn, cursor, statement, params, context, many):
        SERVER["statements"] += 1
        SERVER["db"] += time.perf_counter() - conn.info.pop("bench_began")

    sa.event.listen(engine, "before_cursor_execute", before)
    sa.event.listen(engine, "after_cursor_execute", after)


def p50(client, path: str, runs: int = 30, headers: dict | None = None) -> str:
    """Return the median time of ``runs`` GETs of ``path``, with the median CPU time
    of this process per request, the statements and database time per request and
    the load average (a figure for the report)."""
    times, cpu = [], []
    statements, db_time = SERVER["statements"], SERVER["db"]
    for _ in range(runs):
        began, used = time.perf_counter(), time.process_time()
        answer = client.get(path, headers=headers or {})
        cpu.append(time.process_time() - used)
        times.append(time.perf_counter() - began)
        assert answer.status_code == 200, (path, answer.status_code, answer.get_data()[:300])
    return (
        f"{common.ms(statistics.median(times))} (CPU {common.ms(statistics.median(cpu))}, "
        f"{(SERVER['statements'] - statements) / runs:.0f} statements "
        f"{common.ms((SERVER['db'] - db_time) / runs)}, load {os.getloadavg()[0]:.1f})"
    )


def account_with_games(count: int) -> str:
    """Make an account holding seat 0 of ``count`` active games (the 'a' copies);
    return a personal token with ``games:read``."""
    import secrets

    import sqlalchemy as sa

    from arbiter.accounts import accounts
    from arbiter.extensions import db
    from arbiter.models import Account, Seat
    from arbiter.uow import UnitOfWork

    account = Account(id=secrets.token_hex(8), email="many@example.org", display_name="Many")
    db.session.add(account)
    db.session.commit()
    ids = [f"a{i:07d}" for i in range(count)]
    db.session.execute(
        sa.update(Seat).where(Seat.game_id.in_(ids), Seat.seat == 0).values(account_id=account.id)
    )
    db.session.commit()
    return accounts.create_token(UnitOfWork(), account, "bench", ["games:read"]).plain


def rss_mb() -> float:
    """Return this process's resident memory now (MB), from /proc."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def seq_scans(plan: dict) -> list[str]:
    """Return the tables of ``SCANNED`` that a JSON plan reads by sequential scan."""
    found = []
    if plan.get("Node Type") == "Seq Scan" and plan.get("Relation Name") in SCANNED:
        found.append(plan["Relation Name"])
    for child in plan.get("Plans", []):
        found += seq_scans(child)
    return found


def main() -> None:
    report = common.Report("many_games")
    print(
        f"many games: {ACTIVE} active + {OVER} over on PostgreSQL; {common.machine()}", flush=True
    )
    try:
        with common.postgres_schema() as url:
            run(report, url)
    except common.Skip as err:
        report.skip("postgres", str(err))
    report.done()


def run(report: common.Report, url: str) -> None:
    import clock_sweep as sweep_bench
    import sqlalchemy as sa
    from flask_migrate import upgrade

    from arbiter import create_app
    from arbiter.extensions import db
    from arbiter.games import chance, clock_sweep, creation, games
    from arbiter.models.timestamps import utcnow
    from arbiter.uow import UnitOfWork

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "ENQUEUE": False,
            "CLOCK_OUTAGE_SECONDS": 3600.0,
        },
        role="web",  # the web process's pool (no pre-ping)
    )
    case = f"{ACTIVE + OVER} games"
    with app.app_context():
        upgrade()
        began = time.perf_counter()
        live = creation.create_game(
            UnitOfWork(),
            creation.CreateGame(
                "space-worm",
                [games.NewPlayer("A"), games.NewPlayer("B")],
                {},
                {"type": "per-move", "seconds": 3 * 86400},
            ),
        )
        chance.advance_chance(live.id, live.version)
        live_id, now = live.id, utcnow()
        sweep_bench.populate(live_id, now - timedelta(seconds=DUE), 1.0, DUE, "d")
        sweep_bench.populate(live_id, now + timedelta(hours=1), 30.0, ACTIVE - DUE, "a")
        for i, engine in enumerate(ENGINES):
            copy_over(finished_template(engine), f"o{i}", OVER // len(ENGINES))
        db.session.commit()
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE games, seats, events")  # as autovacuum would
        report.add("setup", "build the database", f"{time.perf_counter() - began:.0f} s")
        seen: list[tuple[str, dict]] = []
        sa.event.listen(
            db.engine, "before_cursor_execute", lambda c, cur, s, p, ctx, many: seen.append((s, p))
        )
        count_statements(db.engine)
        client = app.test_client()
        paths = {
            "status=active&engine=space-worm": "/v1/games?status=active&engine=space-worm",
            "status=over&engine=worms": "/v1/games?status=over&engine=worms",
            "status=active": "/v1/games?status=active",
            "engine=dark-horse": "/v1/games?engine=dark-horse",
            "player=P1234": "/v1/games?player=P1234",
            "no filter, page 50": "/v1/games?page=50",
            "summary": "/v1/games/o20000123",
            "events": "/v1/games/o20000123/events",
            "events after 3": "/v1/games/o20000123/events?after=3",
        }
        for name, path in paths.items():
            report.add(case, f"GET {name} p50", p50(client, path))
        token = account_with_games(MINE)
        mine = p50(client, "/v1/me/games?to_act=true", headers={"Authorization": f"Bearer {token}"})
        report.add(case, f"GET /v1/me/games?to_act=true ({MINE} games) p50", mine)
        backend = sweep_bench.postgres_cpu()
        began, used = time.perf_counter(), time.process_time()
        counts = clock_sweep.sweep()
        took, used = time.perf_counter() - began, time.process_time() - used
        report.add(
            case,
            f"clock sweep, {DUE} due (<= 1 s)",
            f"{took:.2f} s ({counts['timeouts']} timeouts; CPU {common.ms(used)}, "
            f"its PostgreSQL backend {common.ms(sweep_bench.postgres_cpu() - backend)}"
            f", load {os.getloadavg()[0]:.1f})",
        )
        before = rss_mb()
        for i in range(REQUESTS):
            client.get(list(paths.values())[i % len(paths)])
        report.add(
            case, f"RSS before / after {REQUESTS} requests", f"{before:.0f} MB / {rss_mb():.0f} MB"
        )
        explain(report, case, seen)
        db.session.remove()
        db.engine.dispose()


def explain(report: common.Report, case: str, seen: list[tuple[str, dict]]) -> None:
    """EXPLAIN every distinct SELECT and UPDATE seen; report sequential scans."""
    from arbiter.extensions import db

    distinct: dict[str, dict] = {}
    for statement, params in seen:
        head = statement.lstrip().split()[0].upper()
        if head in ("SELECT", "UPDATE", "WITH") and statement not in distinct:
            distinct[statement] = params
    scans = []
    with db.engine.connect() as conn:
        for statement, params in distinct.items():
            if isinstance(params, (list, tuple)):
                continue
            raw = conn.connection.driver_connection
            with raw.cursor() as cursor:
                cursor.execute("EXPLAIN (FORMAT JSON) " + statement, params)
                plan = cursor.fetchone()[0]
                plan = plan if isinstance(plan, list) else json.loads(plan)
            for table in seq_scans(plan[0]["Plan"]):
                scans.append(f"{table}: {' '.join(statement.split())[:160]}")
        conn.rollback()
    report.add(case, "distinct queries explained", str(len(distinct)))
    report.add(case, "sequential scans of games/seats/events", str(len(scans)))
    for line in scans[:10]:
        report.note("seq scan on " + line)


if __name__ == "__main__":
    main()
