"""Round-robin schedules, every round fixed up front.

2-player tables: the circle method (Berger tables, FIDE Handbook C.05 annex 1): with n
entrants (a dummy added when n is odd; who meets the dummy has a bye) there are n-1 rounds
(n when odd) and every pair meets exactly once. Seats come from a regular tournament on the
rotating entrants (entrant a is seat 0 against b when (b - a) mod m <= (m-1)/2), so every
entrant's seat-0 and seat-1 counts differ by at most one (by none when n is odd).

k-player tables (k > 2): each entrant must meet n-1 others, k-1 per game, so needs
g = ceil((n-1)/(k-1)) games; a round seats (n // k) * k entrants and the other n mod k
have a bye (byes rotate through the entrants, so bye counts differ by at most one, and so
do game counts; a bye scores the mean of a seat by default, see ``default_scoring``). The
schedule starts from the fewest rounds giving everyone g games, R = ceil(n*g / ((n // k) *
k)), and adds rounds (at most EXTRA_ROUNDS) until every pair meets at least once. Tables
are chosen by simulated annealing (seeded from n and k, so the same entrants give the same
schedule) minimising a convex cost of each pair's meetings (m**3, plus a penalty for
m = 0), which spreads the meetings evenly; it stops early at the lower bound (every pair
meets floor or ceil of the mean). Measured (min, max) meetings of a pair:
9 at 3-player tables (1, 1) in 4 rounds (a Kirkman schedule: everyone meets everyone
exactly once); 5, 7, 10, 12 at 3: (1, 2); tests/tournaments/test_round_robin.py checks
these and bench/swiss_pairing.py prints a wider table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from arbiter.tournaments.model import Round, Table
from arbiter.tournaments.seats import record, seat_history, seat_order


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
    """Berger tables by the circle method (see the module docstring)."""
    fixed = players[-1] if len(players) % 2 == 0 else None
    others = players[:-1] if fixed is not None else players
    m = len(others)
    rounds = []
    for r in range(m):
        tables = []
        byes: tuple[str, ...] = ()
        if fixed is None:
            byes = (others[r],)
        else:
            pair = (fixed, others[r]) if r % 2 == 0 else (others[r], fixed)
            tables.append(Table(pair))
        for k in range(1, (m - 1) // 2 + 1):
            a, b = (r + k) % m, (r - k) % m
            white_a = 1 <= (b - a) % m <= (m - 1) // 2
            tables.append(Table((others[a], others[b]) if white_a else (others[b], others[a])))
        rounds.append(Round(number=r + 1, tables=tuple(tables), byes=byes))
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
        rounds.append(Round(number=r + 1, tables=tuple(seated),
                            byes=tuple(players[i] for i in byes[r])))
    return rounds


def _tables(n: int, k: int) -> tuple[list[list[list[int]]], list[list[int]]]:
    """(tables, byes) per round as entrant indices: the fewest rounds (from ``round_count``,
    at most EXTRA_ROUNDS more) in which every pair meets, or the best tried."""
    sitting_out = n % k
    found = None
    for rounds in range(round_count(n, k), round_count(n, k) + EXTRA_ROUNDS + 1):
        byes = [sorted({(r * sitting_out + j) % n for j in range(sitting_out)})
                for r in range(rounds)]
        playing = [[i for i in range(n) if i not in out] for out in byes]
        tables, cost, bound = _anneal(n, k, playing, random.Random(f"round-robin {n} {k}"))
        met = _meetings(n, tables)
        never = sum(1 for a in range(n) for b in range(a + 1, n) if met[a][b] == 0)
        if found is None or never < found[0]:
            found = (never, tables, byes)
        if never == 0:
            break
    return found[1], found[2]


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


def _lower_bound(n: int, k: int, rounds: int) -> int:
    """The least possible cost: every pair meets floor or ceil of the mean number of times."""
    meetings = rounds * (n // k) * k * (k - 1) // 2
    pairs = n * (n - 1) // 2
    q, extra = divmod(meetings, pairs)
    return (pairs - extra) * _pair_cost(q) + extra * _pair_cost(q + 1)


# The annealing's starting temperature (cost units), falling linearly to 0.
HEAT = 3.0

# A pair that never meets costs this much more than m**2 says: coverage comes first.
NEVER_MET = 12


def _pair_cost(meetings: int) -> int:
    """Cost of one pair meeting ``meetings`` times: convex, so spreading meetings pays."""
    return meetings ** 3 + (NEVER_MET if meetings == 0 else 0)


def _anneal(n: int, k: int, playing: list[list[int]], rng: random.Random,
            steps: int = 20000) -> tuple[list[list[list[int]]], int, int]:
    """Partition each round's players into tables of k, spreading pair meetings evenly.

    Returns (tables per round as entrant indices, cost, lower bound of the cost).
    """
    met = [[0] * n for _ in range(n)]
    tables = []
    for players in playing:
        order = players[:]
        rng.shuffle(order)
        round_tables = [order[i:i + k] for i in range(0, len(order), k)]
        for table in round_tables:
            for a in table:
                for b in table:
                    if a != b:
                        met[a][b] += 1
        tables.append(round_tables)
    cost = sum(_pair_cost(met[a][b]) for a in range(n) for b in range(a + 1, n))
    bound = _lower_bound(n, k, len(playing))
    best, best_cost = [[t[:] for t in rt] for rt in tables], cost
    movable = [r for r, t in enumerate(tables) if len(t) > 1]
    gain = [_pair_cost(m + 1) - _pair_cost(m) for m in range(len(playing) + 2)]
    loss = [0] + [_pair_cost(m - 1) - _pair_cost(m) for m in range(1, len(playing) + 2)]
    for step in range(steps):
        if best_cost == bound or not movable:
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
        heat = HEAT * (1 - step / steps)
        if delta <= 0 or rng.random() < math.exp(-delta / heat):
            for x in table_a:
                if x != a:
                    row_a[x] -= 1; met[x][a] -= 1; row_b[x] += 1; met[x][b] += 1
            for x in table_b:
                if x != b:
                    row_b[x] -= 1; met[x][b] -= 1; row_a[x] += 1; met[x][a] += 1
            table_a[ia], table_b[ib] = b, a
            cost += delta
            if cost < best_cost:
                best, best_cost = [[t[:] for t in rt] for rt in tables], cost
    return best, best_cost, bound
