"""Bulk creation: ``POST /v1/bulk-games`` with 500 games in one request, timed over HTTP.

What it measures: the wall time of one ``POST /v1/bulk-games`` request of
``ARBITER_BENCH_BULK_GAMES`` games (default 500: the default ``BULK_GAMES_MAX``),
from sending the body to the last byte of the 201 answer, against the real stack
(the Procfile's uvicorn web and Celery workers, ``common.Stack``) on the embedded default (SQLite
file + filesystem broker) and on PostgreSQL + Redis. The batch cycles through every
engine (Space Worm 2 and 4 players, Dark Horse 3, Star Maps 2, Worms 2), each player
with a name only, so no mail is written. The time includes validating every game,
writing all games, seats and first events in one transaction, and enqueueing the
chance rolls the new games need after the commit (not rolling them: the worker does
that afterwards). ``ARBITER_BENCH_BULK_REPS`` requests (default 3) are made per
backend; reported: the fastest and the median, in seconds and games/s, and the
answer's size. Each request's games are counted in ``GET /v1/games`` afterwards.

Run alone: ``.venv/bin/python bench/bulk_games.py``. The machine is shared: figures
move with its load (printed at the start).
"""

from __future__ import annotations

import json
import os
import statistics
import time

import common
import requests

GAMES = int(os.environ.get("ARBITER_BENCH_BULK_GAMES", "500"))
REPS = int(os.environ.get("ARBITER_BENCH_BULK_REPS", "3"))
MIX = [("space-worm", 2), ("dark-horse", 3), ("star-maps", 2), ("worms", 2), ("space-worm", 4)]


def batch(count: int, rep: int) -> dict:
    """Return a bulk request of ``count`` games cycling through ``MIX``."""
    games = []
    for i in range(count):
        engine, players = MIX[i % len(MIX)]
        games.append(
            {"engine": engine, "players": [{"name": f"R{rep}G{i}P{p}"} for p in range(players)]}
        )
    return {"games": games}


def run(report: common.Report, case: str, folder, database_url, broker_url) -> None:
    """Time ``REPS`` bulk requests on one backend and report them."""
    with common.Stack(folder, database_url, broker_url) as stack:
        http = requests.Session()
        times, size = [], 0
        for rep in range(REPS):
            body = batch(GAMES, rep)
            started = time.perf_counter()
            answer = http.post(f"{stack.url}/v1/bulk-games", json=body, timeout=600)
            times.append(time.perf_counter() - started)
            if answer.status_code != 201:
                raise RuntimeError(f"bulk answer {answer.status_code}: {answer.text[:300]}")
            size = len(answer.content)
            assert len(answer.json()["games"]) == GAMES
        listed = http.get(f"{stack.url}/v1/games", params={"page_size": 1}, timeout=60)
        total = json.loads(listed.headers["X-Pagination"])["total"]
        if total != GAMES * REPS:
            raise RuntimeError(f"{total} games listed, {GAMES * REPS} created")
        best, median = min(times), statistics.median(times)
        report.add(
            case, f"{GAMES} games, fastest of {REPS}", f"{best:.2f} s ({GAMES / best:.0f} games/s)"
        )
        report.add(case, f"{GAMES} games, median", f"{median:.2f} s ({GAMES / median:.0f} games/s)")
        report.add(case, "answer size", f"{size / 1024:.0f} KiB")


def main(argv: list[str] | None = None) -> None:
    report = common.Report("bulk_games", argv)
    print(
        f"bulk_games: one POST /v1/bulk-games of {GAMES} games, {REPS} times per backend "
        f"({common.machine()})",
        flush=True,
    )
    common.run_on_backends(report, run)


if __name__ == "__main__":
    main()
