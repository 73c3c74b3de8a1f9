"""Slow request bodies: how many it takes before an unrelated GET waits over 2 s (issue 22).

What it measures: the Procfile's web process (uvicorn, 2 workers, ``WEB_THREADS`` 32 as
by default) and Celery workers (``common.Stack``), on the embedded default (SQLite,
filesystem broker) and on PostgreSQL + Redis with ``SECRET_KEY`` set. For each step N
of ``ARBITER_BENCH_SLOW_STEPS`` (default 20, 40, 50, 60, 70, 80, 100, 150, 300, 600,
1000, 2000, 4000): N connections each announce a 60 KB JSON body to ``POST
/v1/auth/links`` (no token needed) and send one byte of it a second; 2 s later ``GET
/v1/engines``, a game's summary and the ``/games`` page are each timed on a new
connection (given up after 5 s); then the N connections are closed and the next step
begins. Two ways: every slow connection from one address (127.0.0.1) and each from its
own (127.1.x.y: all of 127.0.0.0/8 is this machine), the GETs from 127.0.0.9. Printed
per step: the slowest of the three GETs, and how many of the N the server still held
then (neither answered nor closed); and the threshold: the first N whose slowest GET
took over 2 s. A way stops at its threshold. The machine's load is printed at the
start and end of each backend: other work moves the figures.

Run alone: ``.venv/bin/python bench/slow_bodies.py``.
"""

from __future__ import annotations

import os
import time

import common
import requests

from tests import slow_clients as slow

STEPS = [
    int(n)
    for n in os.environ.get(
        "ARBITER_BENCH_SLOW_STEPS", "20,40,50,60,70,80,100,150,300,600,1000,2000,4000"
    ).split(",")
]
LIMIT = 2.0
WAYS = {
    "one address": lambda n: ["127.0.0.1"],
    "an address each": lambda n: [f"127.1.{i // 250}.{i % 250 + 1}" for i in range(n)],
}


def slowest_get(port: int, game_id: str) -> float:
    """Return the longest of three unrelated GETs (5 s if one got no answer)."""
    worst = 0.0
    for path in ("/v1/engines", f"/v1/games/{game_id}", "/games"):
        status, seconds = slow.get(port, path, source="127.0.0.9", timeout=5)
        worst = max(worst, seconds if status == 200 else 5.0)
    return worst


def step(port: int, game_id: str, n: int, sources: list[str]) -> tuple[float, int]:
    """Hold ``n`` slow bodies; return the slowest unrelated GET and how many of the
    ``n`` the server still held at that moment."""
    with slow.SlowClients(port, n, slow.slow_body_head(), sources=sources) as clients:
        time.sleep(2.0)
        worst = slowest_get(port, game_id)
        held = clients.open_count()
    time.sleep(1.0)  # the server lets go of what the closed connections held
    return worst, held


def run(report: common.Report, case: str, folder, database_url, broker_url) -> None:
    """Run both ways on one backend."""
    saved = os.environ.get("SECRET_KEY")
    if database_url:
        os.environ["SECRET_KEY"] = "bench-slow-bodies-secret"
    try:
        with common.Stack(folder, database_url, broker_url, threads=32) as stack:
            report.add(case, "machine at start", common.machine())
            players = [{"name": "Ann"}, {"name": "Bob"}]
            game = requests.post(
                f"{stack.url}/v1/games",
                json={"engine": "space-worm", "players": players},
                timeout=30,
            ).json()
            for way, sources in WAYS.items():
                threshold = None
                for n in STEPS:
                    worst, held = step(stack.port, game["id"], n, sources(n))
                    report.add(
                        f"{case}, {way}", f"{n} slow: slowest GET, held", f"{worst:.2f} s, {held}"
                    )
                    if worst > LIMIT:
                        threshold = n
                        break
                report.add(
                    f"{case}, {way}",
                    f"threshold (GET > {LIMIT:g} s)",
                    f"{threshold} slow bodies" if threshold else f"none up to {STEPS[-1]}",
                )
            report.add(case, "machine at end", common.machine())
    finally:
        if saved is None:
            os.environ.pop("SECRET_KEY", None)
        else:
            os.environ["SECRET_KEY"] = saved


def main(argv: list[str] | None = None) -> None:
    report = common.Report("slow_bodies", argv)
    common.raise_fd_limit()
    print(f"slow_bodies: slow request bodies against the web process ({common.machine()})")
    common.run_on_backends(report, run)


if __name__ == "__main__":
    main()
