"""Random playouts of each bare engine: full games per second, on one core.

What it measures: for every engine in the registry (``engines.all_engines()``) and for
its smallest and largest player count (and 3 when in between), how many complete
games :func:`arbiter.playout.random_game` plays per second: random legal moves, chance
derived from a random seed exactly as the arbiter derives it (HMAC stream), no
database, no HTTP. One process, one thread (the figure is per core).

How: each configuration runs for ``ARBITER_BENCH_PLAYOUT_SECONDS`` (default 2) seconds
of wall time, games seeded 0, 1, 2, ... so a run is repeatable. Reported: games/s,
inputs (moves + chance outcomes) per second and the mean inputs per game. An engine
that raises is reported with its error and does not stop the others.

Run alone: ``.venv/bin/python bench/playouts.py``.
"""

from __future__ import annotations

import os
import random
import sys
import time

import common  # noqa: F401 - puts the repository on sys.path

import engines
from arbiter.playout import random_game

SECONDS = float(os.environ.get("ARBITER_BENCH_PLAYOUT_SECONDS", "2"))


def player_counts(engine) -> list[int]:
    """Return the player counts to measure: min, 3 (if in range), max."""
    counts = {engine.min_players, engine.max_players}
    if engine.min_players < 3 < engine.max_players:
        counts.add(3)
    return sorted(counts)


def measure(engine, players: int, seconds: float) -> tuple[int, int, float]:
    """Play seeded random games for ``seconds``; return (games, inputs, elapsed)."""
    games = inputs = 0
    started = time.perf_counter()
    while True:
        playout = random_game(engine, players, rng=random.Random(games))
        games += 1
        inputs += len(playout.inputs)
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return games, inputs, elapsed


def main(argv: list[str] | None = None) -> None:
    report = common.Report("playouts", argv)
    print(
        f"playouts: random games of each bare engine, one core, {SECONDS:g} s per "
        f"configuration ({common.machine()})",
        flush=True,
    )
    for engine_id in engines.ENGINE_MODULES:
        try:
            engine = engines.get(engine_id)
            for players in player_counts(engine):
                case = f"{engine.id} x{players}"
                games, inputs, elapsed = measure(engine, players, SECONDS)
                report.add(case, "games/s", f"{games / elapsed:,.0f}")
                report.add(
                    case,
                    "inputs/s (mean inputs/game)",
                    f"{inputs / elapsed:,.0f} ({inputs / games:.1f})",
                )
        except Exception as err:  # noqa: BLE001 - report and go on with the others
            report.add(engine_id, "error", f"{type(err).__name__}: {err}"[:200])
    report.done()


if __name__ == "__main__":
    main(sys.argv[1:])
