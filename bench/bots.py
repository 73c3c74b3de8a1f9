"""The search bot against the random bot, for every engine: win rate, CPU per move, memory.

What it measures (issue 25): for each engine, ``--games`` two-seat games (default 200)
of ``mcts`` at ``--level`` (default 5) against ``random``, the bot's seat alternating
(seat 0 in even games, seat 1 in odd ones); printed: the search bot's wins, draws and
losses and its win rate, its CPU time per move (``time.process_time``: mean and p95 over
all its moves) and the peak of Python memory allocated while it plays one game
(``tracemalloc``, a separate game: tracing slows the search) besides the process's peak
resident size (``resource``). Then, where the engine takes 4 seats, ``--four`` games
(default 40) of the search bot against 3 random bots, its seat rotating: how many each
kind won (a shared first place counts for every seat in it) and whether the search bot
won the most. Games are seeded 0, 1, 2, ... (chance outcomes and each bot's ``rng``), so
a run is repeatable apart from where the CPU budget cuts a search; ``--first N`` starts
the two-seat games at seed N, so that runs on several cores can share one series. The
running tally is printed every 10 games, so that a run cut short still tells what it
played.

Run alone: ``.venv/bin/python bench/bots.py [--games N] [--four N] [--level L]
[--engine ID ...] [--first N]``. The target: the search bot wins at least 90 % of the
two-seat games of each engine at no more than 1 s of CPU per move.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
import tracemalloc

import common  # noqa: F401 - puts the repository on sys.path

import engines
from arbiter.bots import match
from arbiter.bots.players import Bot


def p95(values: list[float]) -> float:
    """Return the 95th percentile of ``values``."""
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def duel(engine, games: int, level: int, first: int = 0) -> dict:
    """Play ``games`` two-seat games of mcts against random, seeded ``first`` on; return
    the tallies."""
    wins = draws = 0
    cpu: list[float] = []
    for g in range(first, first + games):
        seat = g % 2
        bots = [Bot("random"), Bot("random")]
        bots[seat] = Bot("mcts", level)
        played = match.play(engine, bots, seed=g)
        cpu += played.cpu[seat]
        winners = played.winners()
        wins += winners == [seat]
        draws += seat in winners and len(winners) > 1
        if (g - first + 1) % 10 == 0:  # a run cut short still tells what it played
            print(f"  seeds {first}-{g}: mcts won {wins}, {draws} draws", flush=True)
    return {"wins": wins, "draws": draws, "losses": games - wins - draws, "cpu": cpu}


def memory(engine, level: int) -> float:
    """Return the peak MB of Python memory allocated during one game of mcts vs random."""
    tracemalloc.start()
    try:
        match.play(engine, [Bot("mcts", level), Bot("random")], seed=10_000)
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def table(engine, games: int, level: int) -> list[int]:
    """Play ``games`` 4-seat games of mcts against 3 random bots; return the wins of
    the search bot and of each random opponent in its position after it."""
    wins = [0, 0, 0, 0]  # [mcts, next seat, the one after, the last]
    for g in range(games):
        seat = g % 4
        bots = [Bot("random")] * 4
        bots = [*bots[:seat], Bot("mcts", level), *bots[seat + 1 :]]
        for w in match.play(engine, bots, seed=g).winners():
            wins[(w - seat) % 4] += 1
        if (g + 1) % 10 == 0:
            print(f"  4 seats, seeds 0-{g}: wins {wins}", flush=True)
    return wins


def main() -> None:
    """Run the duels and tables of the chosen engines and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--four", type=int, default=40)
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--engine", action="append", default=None)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}; level {args.level}")
    for engine_id in args.engine or list(engines.ENGINE_MODULES):
        engine = engines.get(engine_id)
        if args.games:
            two_seats(engine, args)
        if engine.max_players >= 4 and args.four:
            w = table(engine, args.four, args.level)
            most = "mcts won the most" if w[0] > max(w[1:]) else "mcts did NOT win the most"
            print(
                f"{engine_id}, 4 seats, {args.four} games: mcts won {w[0]}, the random "
                f"seats {w[1]}, {w[2]}, {w[3]}: {most}",
                flush=True,
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak resident size: {peak:.0f} MB; load average at end: {os.getloadavg()}")


def two_seats(engine, args: argparse.Namespace) -> None:
    """Play and print the two-seat duels of ``engine`` and the memory of one game."""
    start = time.time()
    d = duel(engine, args.games, args.level, args.first)
    rate = 100 * d["wins"] / args.games
    print(
        f"{engine.id}: mcts won {d['wins']}/{args.games} ({rate:.1f} %), "
        f"{d['draws']} draws, {d['losses']} losses; CPU per move mean "
        f"{1000 * statistics.fmean(d['cpu']):.0f} ms, p95 {1000 * p95(d['cpu']):.0f} ms, "
        f"max {1000 * max(d['cpu']):.0f} ms over {len(d['cpu'])} moves; "
        f"{time.time() - start:.0f} s",
        flush=True,
    )
    print(f"  peak traced memory in one game: {memory(engine, args.level):.1f} MB", flush=True)


if __name__ == "__main__":
    main()
