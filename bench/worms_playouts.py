"""Worms random playouts per option set: games per second, and the largest legal-move
list with and without parts (issue 14, "Measured").

What it measures: for each option set of ``tests/engines/worms/test_playouts.py``
(each setup, each optional rule on, all at once), how many complete random games
:func:`arbiter.playout.random_game` plays per second on one core (players 2, 3, 4 in
turn, games seeded 0, 1, 2, ...), and over three more games (2, 3 and 4 players) the
longest list of legal moves an engine decision had (``len(legal_moves)``) against the number of entries
``/legal-moves`` shows for it (listed moves plus parts, :mod:`engines.move_parts`).

How: ``ARBITER_BENCH_WORMS_SECONDS`` (default 1) seconds of wall time per option set.
Run alone: ``.venv/bin/python bench/worms_playouts.py``.
"""

from __future__ import annotations

import os
import random
import sys
import time

import common  # noqa: F401 - puts the repository on sys.path

from arbiter.playout import random_game
from engines.base import Decision
from engines.worms import ENGINE
from tests.engines.worms.test_playouts import OPTION_SETS

SECONDS = float(os.environ.get("ARBITER_BENCH_WORMS_SECONDS", "1"))


def widest(game) -> tuple[int, int]:
    """Return (longest legal-move list, its /legal-moves entries) over a game's states."""
    longest, shown = 0, 0
    for state in game.states:
        prompt = ENGINE.prompt(state)
        if isinstance(prompt, Decision):
            seat = prompt.seats[0]
            moves = ENGINE.legal_moves(state, seat)
            if len(moves) > longest:
                parts = ENGINE.legal_parts(state, seat)
                longest = len(moves)
                shown = len(moves) if parts is None else len(parts["moves"]) + len(parts["parts"])
    return longest, shown


def main(argv: list[str] | None = None) -> None:
    report = common.Report("worms_playouts", argv)
    print(f"worms_playouts: random Worms games per option set, one core, {SECONDS:g} s "
          f"each ({common.machine()})", flush=True)
    overall = (0, 0, "")
    for name, options in OPTION_SETS.items():
        games, inputs, started = 0, 0, time.perf_counter()
        while time.perf_counter() - started < SECONDS:
            game = random_game(ENGINE, 2 + games % 3, options, random.Random(games))
            games += 1
            inputs += len(game.inputs)
        elapsed = time.perf_counter() - started
        longest = max(widest(random_game(ENGINE, n, options, random.Random(n),
                                         keep_states=True)) for n in (2, 3, 4))
        report.add(name, "games/s (mean inputs/game)",
                   f"{games / elapsed:,.1f} ({inputs / games:.0f})")
        if longest[0] > overall[0]:
            overall = (*longest, name)
    report.add("largest decision", "legal moves -> /legal-moves entries",
               f"{overall[0]} -> {overall[1]} ({overall[2]})")
    report.done()


if __name__ == "__main__":
    main(sys.argv[1:])
