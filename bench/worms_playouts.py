"""Worms random playouts per option set: games per second, and the largest legal-move
list with and without parts (issue 14, "Measured").

What it measures: for each option set of ``tests/engines/worms/test_playouts.py``
(each setup, each optional rule on, all at once), how many complete random games
:func:`arbiter.playout.random_game` plays per second on one core (players 2, 3, 4 in
turn, games seeded 0, 1, 2, ...) with the mean number of inputs (moves and chance
outcomes) per game; then, over ``ARBITER_BENCH_WORMS_WIDEST`` more games of the set
(default 6: two each of 2, 3 and 4 players), among the turns' decisions and among
the standard setup's (Map Tiles, Things), the longest list of legal moves a decision had
(``len(legal_moves)``: what playouts, timeouts and move checks use) and
what ``/legal-moves`` shows for it: its entries (listed moves plus parts,
:mod:`engines.move_parts`) and its size as JSON, against the full list's size.

How: ``ARBITER_BENCH_WORMS_SECONDS`` (default 1) seconds of wall time per option set.
Run alone: ``nice .venv/bin/python bench/worms_playouts.py`` (engine version printed
first: the figures are for today's rules).
"""

from __future__ import annotations

import json
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
WIDEST_GAMES = int(os.environ.get("ARBITER_BENCH_WORMS_WIDEST", "6"))


SETUP_KINDS = {"tile", "place"}
"""Decisions of the standard setup (Map Tiles, Things); every other is a turn's."""


def widest(game, setup: bool) -> tuple[int, int, int, int, str]:
    """Return the widest decision of a game's states among the setup's decisions
    (``setup``) or the turns': (its legal moves, its /legal-moves entries, the full
    list's JSON bytes, the /legal-moves JSON bytes, its kind)."""
    best = (0, 0, 0, 0, "")
    for state in game.states:
        prompt = ENGINE.prompt(state)
        if isinstance(prompt, Decision) and (prompt.kind in SETUP_KINDS) == setup:
            seat = prompt.seats[0]
            moves = ENGINE.legal_moves(state, seat)
            if len(moves) > best[0]:
                parts = ENGINE.legal_parts(state, seat)
                shown = moves if parts is None else parts
                entries = len(moves) if parts is None else len(parts["moves"]) + len(parts["parts"])
                best = (
                    len(moves),
                    entries,
                    len(json.dumps(moves)),
                    len(json.dumps(shown)),
                    prompt.kind,
                )
    return best


def main(argv: list[str] | None = None) -> None:
    report = common.Report("worms_playouts", argv)
    print(
        f"worms_playouts: random Worms games (engine version {ENGINE.version}) per "
        f"option set, one core, {SECONDS:g} s each, widest decision over "
        f"{WIDEST_GAMES} games ({common.machine()})",
        flush=True,
    )
    overall = {True: ((0,), ""), False: ((0,), "")}
    for name, options in OPTION_SETS.items():
        games, inputs, started = 0, 0, time.perf_counter()
        while time.perf_counter() - started < SECONDS:
            game = random_game(ENGINE, 2 + games % 3, options, random.Random(games))
            games += 1
            inputs += len(game.inputs)
        elapsed = time.perf_counter() - started
        sample = [
            random_game(ENGINE, 2 + n % 3, options, random.Random(-1 - n), keep_states=True)
            for n in range(WIDEST_GAMES)
        ]
        longest = {setup: max(widest(g, setup) for g in sample) for setup in (True, False)}
        report.add(
            name,
            "games/s (inputs/game); widest->shown",
            f"{games / elapsed:,.1f} ({inputs / games:.0f}); turn "
            f"{longest[False][0]} -> {longest[False][1]}, setup "
            f"{longest[True][0]} -> {longest[True][1]}",
        )
        for setup in (True, False):
            if longest[setup][0] > overall[setup][0][0]:
                overall[setup] = (longest[setup], name)
    for setup, label in ((False, "largest turn decision"), (True, "largest setup decision")):
        (moves, entries, full, shown, kind), where = overall[setup]
        report.add(
            label,
            "moves -> /legal-moves entries",
            f"{moves} -> {entries} ({full:,} -> {shown:,} bytes; {kind}, {where})",
        )
    report.done()


if __name__ == "__main__":
    main(sys.argv[1:])
