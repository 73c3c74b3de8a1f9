"""The clock sweep at scale: 10,000 active games whose deadlines are spread over a day,
on PostgreSQL (a fresh schema).

What it measures:

- the sweep's query: ``SELECT .. WHERE deadline <= now AND status = 'active' ORDER BY
  deadline LIMIT 500`` on the indexed column, with nothing due, with the ~2 games a
  15 s sweep finds due, and with a backlog of 500 due (median of repeated runs; the
  plan is printed to show the index is used);
- the delay between a deadline and its timeout event (the event's ``at`` minus the
  deadline it enforced), in real time: the sweep runs every ``ARBITER_BENCH_SWEEP``
  seconds (default 15, beat's schedule) for ``ARBITER_BENCH_CLOCK_SECONDS`` (default
  90); deadlines one per 8.64 s (10,000 a day) fall due meanwhile;
- a burst: 500 deadlines at the same instant, 1 s ago (e.g. after a pause of the
  sweep shorter than the outage threshold): how long one sweep takes to time them all
  out (target <= 1 s), the delays, and the CPU it used in this process and in its
  PostgreSQL backend (read from /proc: what the figure would be on a quiet machine),
  with the load average beside it.

The games are one real game created through the service (a 2-seat Space Worm at its
first decision, per-move clock), copied 10,000 times with fresh ids and deadlines.

Run alone: ``.venv/bin/python bench/clock_sweep.py``.
"""

from __future__ import annotations

import copy
import os
import statistics
import time
from datetime import timedelta

import common

GAMES = int(os.environ.get("ARBITER_BENCH_CLOCK_GAMES", 10_000))
RUN_SECONDS = float(os.environ.get("ARBITER_BENCH_CLOCK_SECONDS", 90))
SWEEP_EVERY = float(os.environ.get("ARBITER_BENCH_SWEEP", 15))
BURST = 500
DAY = 86400.0


def populate(template_id: str, start, spacing: float, count: int, prefix: str) -> None:
    """Copy game ``template_id`` ``count`` times, deadline i at ``start + i*spacing``."""
    import sqlalchemy as sa

    from arbiter.extensions import db
    from arbiter.games import clock
    from arbiter.models import Game, Seat
    from arbiter.models.timestamps import iso

    game = db.session.get(Game, template_id)
    cols = {c.key: getattr(game, c.key) for c in Game.__table__.columns}
    seat_rows = [{c.key: getattr(s, c.key) for c in Seat.__table__.columns} for s in game.seats]
    [owing] = game.to_act
    budget = game.clock_state["seats"][owing]["budget"]
    games, seats = [], []
    for i in range(count):
        deadline = start + timedelta(seconds=i * spacing)
        state = copy.deepcopy(game.clock_state)
        state["seats"][owing]["started"] = iso(deadline - timedelta(seconds=budget))
        gid = f"{prefix}{i:07d}"
        games.append(
            {**cols, "id": gid, "clock_state": state, "deadline": deadline, "remind_at": None}
        )
        seats.extend({**s, "game_id": gid} for s in seat_rows)
        assert clock.seat_deadline(state["seats"][owing]) == deadline
    for chunk in range(0, count, 2000):
        db.session.execute(sa.insert(Game), games[chunk : chunk + 2000])
        db.session.execute(
            sa.insert(Seat), seats[chunk * len(seat_rows) : (chunk + 2000) * len(seat_rows)]
        )
    db.session.commit()
    db.session.execute(sa.text("ANALYZE games"))
    db.session.commit()


def query_time(now, runs: int = 30) -> float:
    """Return the median time of the sweep's select of due games at ``now``."""
    import sqlalchemy as sa

    from arbiter.extensions import db
    from arbiter.models import Game

    query = (
        sa.select(Game.id, Game.version, Game.deadline)
        .where(Game.deadline <= now, Game.status == "active")
        .order_by(Game.deadline)
        .limit(500)
    )
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        db.session.execute(query).all()
        times.append(time.perf_counter() - began)
        db.session.rollback()
    return statistics.median(times)


def delays(prefix: str) -> list[float]:
    """Return, per timeout event of the games with ``prefix``, event time - deadline."""
    import sqlalchemy as sa

    from arbiter.extensions import db
    from arbiter.games.clock import parse
    from arbiter.models import Event

    rows = db.session.execute(
        sa.select(Event.at, Event.payload).where(
            Event.game_id.like(f"{prefix}%"), Event.kind == "move"
        )
    ).all()
    return [
        (at - parse(p["timeout"]["deadline"])).total_seconds() for at, p in rows if "timeout" in p
    ]


def postgres_cpu() -> float:
    """Return the CPU seconds used so far by this session's PostgreSQL backend (from
    /proc; NaN when the server is on another machine or not readable)."""
    import sqlalchemy as sa

    from arbiter.extensions import db

    pid = db.session.execute(sa.text("SELECT pg_backend_pid()")).scalar()
    db.session.commit()
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    report = common.Report("clock_sweep")
    print(f"clock sweep: {GAMES} games, deadlines over a day, PostgreSQL")
    try:
        with common.postgres_schema() as url:
            run(report, url)
    except common.Skip as err:
        report.skip("postgres", str(err))
    report.done()


def run(report, url: str) -> None:
    from flask_migrate import upgrade

    from arbiter import create_app
    from arbiter.extensions import db
    from arbiter.games import chance, clock_sweep, creation, games
    from arbiter.models.timestamps import utcnow
    from arbiter.uow import UnitOfWork

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "ENQUEUE": False, "CLOCK_OUTAGE_SECONDS": 3600.0}
    )
    with app.app_context():
        upgrade()
        game = creation.create_game(
            UnitOfWork(),
            creation.CreateGame(
                "space-worm",
                [games.NewPlayer("A"), games.NewPlayer("B")],
                {},
                {"type": "per-move", "seconds": 3 * 86400},
            ),
        )
        chance.advance_chance(game.id, game.version)
        began = time.perf_counter()
        now = utcnow()
        populate(game.id, now + timedelta(seconds=20), DAY / GAMES, GAMES, "d")
        report.add("setup", f"insert {GAMES} games", common.ms(time.perf_counter() - began))
        plan = (
            db.session.execute(
                __import__("sqlalchemy").text(
                    "EXPLAIN SELECT id FROM games WHERE deadline <= now() AND status = 'active' "
                    "ORDER BY deadline LIMIT 500"
                )
            )
            .scalars()
            .all()
        )
        db.session.rollback()
        report.note("plan: " + " / ".join(line.strip() for line in plan[:3]))
        report.add("query", "nothing due (median)", common.ms(query_time(now)))
        report.add(
            "query",
            "~2 due, one 15 s sweep (median)",
            common.ms(query_time(now + timedelta(seconds=20 + 15))),
        )
        report.add(
            "query",
            "500 due, backlog (median)",
            common.ms(query_time(now + timedelta(seconds=20 + 500 * DAY / GAMES))),
        )

        clock_sweep.sweep(utcnow())  # heartbeat
        sweeps, stop = [], time.monotonic() + RUN_SECONDS
        while time.monotonic() < stop:
            began = time.perf_counter()
            counts = clock_sweep.sweep()
            sweeps.append((time.perf_counter() - began, counts["timeouts"]))
            time.sleep(max(0.0, SWEEP_EVERY - (time.perf_counter() - began)))
        found = delays("d")
        report.add(
            "steady",
            f"sweeps every {SWEEP_EVERY:g} s for {RUN_SECONDS:g} s",
            f"{len(sweeps)} sweeps, {len(found)} timeouts",
        )
        report.add(
            "steady",
            "sweep duration median / max",
            f"{common.ms(statistics.median(t for t, _ in sweeps))} / "
            f"{common.ms(max(t for t, _ in sweeps))}",
        )
        if found:
            report.add(
                "steady",
                "deadline -> timeout median / p95 / max",
                f"{found and statistics.median(found):.2f} s / "
                f"{common.percentile(found, 95):.2f} s / {max(found):.2f} s",
            )

        now = utcnow()
        populate(game.id, now - timedelta(seconds=1), 0.0, BURST, "b")
        backend = postgres_cpu()
        began, cpu = time.perf_counter(), time.process_time()
        counts = clock_sweep.sweep()
        took, cpu = time.perf_counter() - began, time.process_time() - cpu
        burst = delays("b")
        report.add("burst", f"{BURST} due at once: one sweep", common.ms(took))
        report.add("burst", "timeouts applied", str(counts["timeouts"]))
        report.add("burst", "per timeout", common.ms(took / max(1, counts["timeouts"])))
        report.add(
            "burst",
            "CPU: this process / PostgreSQL backend",
            f"{common.ms(cpu)} / {common.ms(postgres_cpu() - backend)}",
        )
        report.note(
            f"load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())} "
            f"after the burst (2 cores shared)"
        )
        if burst:
            report.add(
                "burst",
                "deadline -> timeout median / max",
                f"{statistics.median(burst):.2f} s / {max(burst):.2f} s",
            )
        db.session.remove()
        db.engine.dispose()


if __name__ == "__main__":
    main()
