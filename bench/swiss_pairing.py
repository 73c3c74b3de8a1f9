"""Pairing Swiss rounds of 30 to 200 players, and how evenly k-player round robins spread
meetings.

What it measures (pure functions, no database, no HTTP): a Swiss is paired round by round
with ``arbiter.tournaments.formats.swiss_round`` (its history passed, as the Dutch system needs)
for 5 rounds of seeded random results (2-player: 20% draws; k-player: random places),
then round 6 is paired ``ARBITER_BENCH_REPEATS`` times (default 3): reported are the p50
and max of those pairings, in ms, for 2-player games (the FIDE Dutch system: 30, 100 and
200 entrants; it grows about as the cube of the field, networkx's matching being pure
Python) and for 3-player tables (200 entrants), the repeat pairings in the 6 rounds (0 is
the target) and the spread of seat-0 counts. networkx's import (about a second, paid once
per process) is done before timing and reported apart. Then, for k-player round robins
of several sizes: rounds, and min/max meetings of a pair (the evenness the round-robin
docstring states) and the time to build the schedule.

Run alone: ``.venv/bin/python bench/swiss_pairing.py``.
"""

from __future__ import annotations

import itertools
import os
import random
import time
from collections import Counter

import common

from arbiter.tournaments.formats import (
    GameResult,
    default_scoring,
    round_robin_schedule,
    swiss_round,
)

SIZES = {2: (30, 100, 200), 3: (200,)}
ROUNDS_BEFORE = 5
REPEATS = int(os.environ.get("ARBITER_BENCH_REPEATS", "3"))
ROUND_ROBINS = [
    (5, 2),
    (9, 3),
    (5, 3),
    (6, 3),
    (10, 3),
    (12, 3),
    (15, 3),
    (8, 4),
    (12, 4),
    (16, 4),
    (10, 5),
    (25, 5),
]


def play(rnd, k: int, rng: random.Random) -> list[GameResult]:
    """Random results for every table of ``rnd``."""
    results = []
    for table in rnd.tables:
        places = list(range(1, k + 1))
        rng.shuffle(places)
        if k == 2 and rng.random() < 0.2:
            places = [1, 1]
        results.append(GameResult(rnd.number, table.players, tuple(places)))
    return results


def swiss(report: common.Report, k: int, size: int) -> None:
    """Pair 5 rounds of a Swiss of ``size`` entrants at tables of k, then time round 6."""
    rng = random.Random(11)
    entrants = [f"e{i:03d}" for i in range(size)]
    scoring = default_scoring(k)
    results: list[GameResult] = []
    byes: Counter = Counter()
    rounds = []

    def pair(number: int):
        return swiss_round(
            entrants, results, byes, k, number, scoring, rounds=9, history=list(rounds)
        )

    for number in range(1, ROUNDS_BEFORE + 1):
        rnd = pair(number)
        rounds.append(rnd)
        byes.update(rnd.byes)
        results.extend(play(rnd, k, rng))
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        rnd = pair(ROUNDS_BEFORE + 1)
        times.append(time.perf_counter() - started)
    rounds.append(rnd)
    met = Counter(
        frozenset(pair)
        for r in rounds
        for t in r.tables
        for pair in itertools.combinations(t.players, 2)
    )
    seat0 = Counter(t.players[0] for r in rounds for t in r.tables)
    case = f"{size} entrants, {k}-player"
    report.add(
        case,
        "round 6 pairing ms p50 / max",
        f"{common.ms(common.percentile(times, 50))} / {common.ms(max(times))}",
    )
    report.add(case, "repeat pairings in 6 rounds", str(sum(v - 1 for v in met.values())))
    report.add(
        case,
        "seat-0 count min / max",
        f"{min(seat0[e] for e in entrants)} / {max(seat0[e] for e in entrants)}",
    )


def evenness(report: common.Report) -> None:
    """Rounds and min/max pair meetings of k-player round robins."""
    for n, k in ROUND_ROBINS:
        entrants = [f"e{i}" for i in range(n)]
        started = time.perf_counter()
        rounds = round_robin_schedule(entrants, k)
        elapsed = time.perf_counter() - started
        met = Counter(
            frozenset(pair)
            for r in rounds
            for t in r.tables
            for pair in itertools.combinations(t.players, 2)
        )
        counts = [met[frozenset(p)] for p in itertools.combinations(entrants, 2)]
        report.add(
            f"round robin {n} at {k}",
            "rounds, meetings min / max, ms",
            f"{len(rounds)}, {min(counts)} / {max(counts)}, {common.ms(elapsed)}",
        )


def main(argv: list[str] | None = None) -> None:
    report = common.Report("swiss_pairing", argv)
    print(
        "swiss_pairing: Swiss rounds of 30 to 200 entrants, round-robin evenness "
        f"({common.machine()})",
        flush=True,
    )
    started = time.perf_counter()
    import networkx  # noqa: F401 - paid once per process; not part of a pairing

    report.add("networkx", "import ms (once per process)", common.ms(time.perf_counter() - started))
    for k, sizes in SIZES.items():
        for size in sizes:
            swiss(report, k, size)
    evenness(report)
    report.done()


if __name__ == "__main__":
    main()
