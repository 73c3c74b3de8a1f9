"""Round-robin schedules, every round fixed up front.

2-player tables: the Berger tables of the FIDE Handbook (C.05, Annex 1), the entrants
numbered in the order given (with an odd number, a last number is added and whoever
meets it sits the round out: the bye). With n numbers there are n-1 rounds; in round r
the last number meets p = (r+1)/2 (r odd, p has white) or p = n/2 + r/2 (r even, the
last number has white) on board 1, and board k pairs p+(k-1) (white) with p-(k-1),
counted round 1..n-1. Every pair meets once; every entrant's white and black games
differ by at most one (by none with an odd number).

k-player tables (k > 2): each entrant must meet n-1 others, k-1 per game, so needs
g = ceil((n-1)/(k-1)) games; a round seats (n // k) * k entrants and the other n mod k
have a bye (byes rotate through the entrants, so bye counts differ by at most one, and so
do game counts; a bye scores the mean of a seat by default, see ``default_scoring``). The
schedule starts from the fewest rounds giving everyone g games, R = ceil(n*g / ((n // k) *
k)), and adds rounds (at most EXTRA_ROUNDS) until every pair meets at least once. Tables
come from a local search (seeded from n, k and R, so the same entrants give the same
schedule) over swaps of two players of one round, minimising a lexicographic cost: pairs
never met, then the most meetings of any pair, then how many pairs have that many, and so
on (``_pair_costs``); it stops early when every pair meets and max - min <= 1.

How close it gets, as (rounds, min-max meetings of a pair), measured by
bench/swiss_pairing.py (tests/tournaments/test_round_robin.py checks the first ones):
9 at 3-player tables (4, 1-1): a Kirkman schedule, everyone meets everyone exactly once;
16 at 4 (5, 1-1) and 25 at 5 (6, 1-1) likewise (affine planes); 5 at 3 (5, 1-2); 10 at 3
(6, 1-2); 12 at 3 (7, 1-2); 15 at 3 (8, 1-2); 8 at 4 (4, 1-3; a brute force shows 1-3 is
the best possible even in 3 rounds); 6 at 3 (4, 1-4; best possible in 4 rounds, by brute
force); 10 at 5 (4, 1-4; 1-4 is the best in 4 rounds). The search is randomised: other
sizes land within one or two meetings of these.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from arbiter.tournaments.formats.model import Round, Table
from arbiter.tournaments.formats.seats import record, seat_history, seat_order


def round_robin_schedule(entrants: Sequence[str], table_size: int) -> list[Round]:
    """Every round of a round robin of ``entrants`` at tables of ``table_size``.

    Takes distinct entrant ids (their order fixes the schedule) and the table size (>= 2).
    Returns rounds numbered from 1, each with its tables (seat order) and byes.
    Raises ValueError when ids repeat, the table size is below 2, or there are fewer
    entrants than one table needs.
    """
    players = list(entrants)
    if len(set(players)) != len(players):
        raise ValueError("an entrant is listed twice")
    if table_size < 2:
        raise ValueError(f"a table needs at least 2 players, not {table_size}")
    if len(players) < table_size:
        raise ValueError(f"{len(players)} entrants cannot fill a table of {table_size}")
    if table_size == 2:
        return _circle(players)
    return _multiplayer(players, table_size)


def _circle(players: list[str]) -> list[Round]:
    """Berger tables (see the module)."""
    numbers = len(players) + len(players) % 2
    name = {i + 1: p for i, p in enumerate(players)}  # the added last number has no name
    last, cycle = numbers, numbers - 1

    def wrap(x: int) -> int:
        return (x - 1) % cycle + 1

    rounds = []
    for r in range(1, cycle + 1):
        p = (r + 1) // 2 if r % 2 else numbers // 2 + r // 2
        boards = [(p, last) if r % 2 else (last, p)]
        boards += [(wrap(p + k - 1), wrap(p - k + 1)) for k in range(2, numbers // 2 + 1)]
        tables, byes = [], []
        for white, black in boards:
            if white in name and black in name:
                tables.append(Table((name[white], name[black])))
            else:
                byes.append(name.get(white) or name[black])
        rounds.append(Round(number=r, tables=tuple(tables), byes=tuple(byes)))
    return rounds


# How many rounds beyond ``round_count`` a k-player schedule may grow to make every pair meet.
EXTRA_ROUNDS = 3


def round_count(n: int, k: int) -> int:
    """Rounds of a k-player round robin of n entrants (see the module docstring)."""
    games = math.ceil((n - 1) / (k - 1))
    return math.ceil(n * games / ((n // k) * k))


def _multiplayer(players: list[str], k: int) -> list[Round]:
    """k-player tables spreading pair meetings evenly (see the module docstring)."""
    n = len(players)
    tables, byes = _tables(n, k)
    history = seat_history([])
    rounds = []
    for r, round_tables in enumerate(tables):
        seated = []
        for table in round_tables:
            order = seat_order([players[i] for i in sorted(table)], history)
            record(order, history)
            seated.append(Table(order))
        rounds.append(
            Round(number=r + 1, tables=tuple(seated), byes=tuple(players[i] for i in byes[r]))
        )
    return rounds


def _tables(n: int, k: int) -> tuple[list[list[list[int]]], list[list[int]]]:
    """(tables, byes) per round as entrant indices: the fewest rounds (from ``round_count``,
    at most EXTRA_ROUNDS more) in which every pair meets, each tried with up to RESTARTS
    seeds, keeping the best by (pairs never met, max - min meetings)."""
    sitting_out = n % k
    found = None
    for rounds in range(round_count(n, k), round_count(n, k) + EXTRA_ROUNDS + 1):
        byes = [
            sorted({(r * sitting_out + j) % n for j in range(sitting_out)}) for r in range(rounds)
        ]
        playing = [[i for i in range(n) if i not in out] for out in byes]
        for restart in range(RESTARTS):
            rng = random.Random(f"round-robin {n} {k} {rounds} {restart}")
            key, tables = _anneal(n, k, playing, rng)
            if found is None or key[:2] < found[0][:2]:
                found = (key, tables, byes)
            if found[0][:2] <= (0, 1):
                break
        if found[0][0] == 0:
            break
    return found[1], found[2]


# Search steps per try (at most; a try also ends after PATIENCE steps without a better
# state), and tries (seeds) per number of rounds.
STEPS = 20000
PATIENCE = 8000
RESTARTS = 2


def _pair_costs(pairs: int, levels: int) -> list[int]:
    """Cost of a pair meeting m times, for m in range(levels): (pairs + 1) ** m, and a pair
    that never meets costs more than any other level. One pair one level higher outweighs
    every pair below it, so minimising the sum minimises, in this order, the pairs never
    met, the most meetings of a pair, how many pairs have that many, and so on down."""
    unit = pairs + 1
    return [unit**levels] + [unit**m for m in range(1, levels)]


def _start(
    n: int, k: int, playing: list[list[int]], rng: random.Random
) -> tuple[list[list[list[int]]], list[list[int]]]:
    """Random tables for every round, and the pair meeting counts they give."""
    met = [[0] * n for _ in range(n)]
    tables = []
    for players in playing:
        order = players[:]
        rng.shuffle(order)
        round_tables = [order[i : i + k] for i in range(0, len(order), k)]
        for table in round_tables:
            for a in table:
                for b in table:
                    if a != b:
                        met[a][b] += 1
        tables.append(round_tables)
    return tables, met


def _anneal(
    n: int, k: int, playing: list[list[int]], rng: random.Random, steps: int = STEPS
) -> tuple[tuple[int, int, int], list[list[list[int]]]]:
    """Partition each round's players into tables of k, spreading pair meetings evenly by
    a local search on swaps of two players of one round.

    The cost is ``_pair_costs``; a swap is kept when it does not raise the cost (so the
    search walks the plateaus of equal cost). Returns ((pairs never met, max - min
    meetings, cost), tables as entrant indices) for the best state seen; stops early once
    every pair meets and max - min <= 1, or after PATIENCE steps without a better state.
    """
    tables, met = _start(n, k, playing, rng)
    levels = len(playing) + 2
    pair_cost = _pair_costs(n * (n - 1) // 2, levels)
    count = [0] * levels  # pairs per number of meetings
    for a in range(n):
        for b in range(a + 1, n):
            count[met[a][b]] += 1
    cost = sum(c * pair_cost[m] for m, c in enumerate(count))

    def key() -> tuple[int, int, int]:
        present = [m for m in range(levels) if count[m]]
        return count[0], present[-1] - present[0], cost

    best_key, best = key(), [[t[:] for t in rt] for rt in tables]
    movable = [r for r, t in enumerate(tables) if len(t) > 1]
    gain = [pair_cost[m + 1] - pair_cost[m] for m in range(levels - 1)] + [0]
    loss = [0] + [pair_cost[m - 1] - pair_cost[m] for m in range(1, levels)]

    def move(x: int, y: int, step: int) -> None:
        count[met[x][y]] -= 1
        met[x][y] += step
        met[y][x] += step
        count[met[x][y]] += 1

    improved = 0
    for step in range(steps):
        if best_key[:2] <= (0, 1) or not movable or step - improved > PATIENCE:
            break
        r = rng.choice(movable)
        ta, tb = rng.sample(range(len(tables[r])), 2)
        table_a, table_b = tables[r][ta], tables[r][tb]
        ia, ib = rng.randrange(k), rng.randrange(k)
        a, b = table_a[ia], table_b[ib]
        row_a, row_b = met[a], met[b]
        delta = 0
        for x in table_a:
            if x != a:
                delta += loss[row_a[x]] + gain[row_b[x]]
        for x in table_b:
            if x != b:
                delta += loss[row_b[x]] + gain[row_a[x]]
        if delta <= 0:
            for x in table_a:
                if x != a:
                    move(a, x, -1)
                    move(b, x, 1)
            for x in table_b:
                if x != b:
                    move(b, x, -1)
                    move(a, x, 1)
            table_a[ia], table_b[ib] = b, a
            cost += delta
            now = key()
            if now < best_key:
                best_key, best, improved = now, [[t[:] for t in rt] for rt in tables], step
    return best_key, best


def _meetings(n: int, tables: list[list[list[int]]]) -> list[list[int]]:
    """Pair meeting counts of a schedule given as entrant indices."""
    met = [[0] * n for _ in range(n)]
    for round_tables in tables:
        for table in round_tables:
            for a in table:
                for b in table:
                    if a != b:
                        met[a][b] += 1
    return met
