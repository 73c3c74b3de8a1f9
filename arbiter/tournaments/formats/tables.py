"""Seating a Swiss round at tables of 3 to 6 players: the project's own rules (the FIDE
Swiss systems are for 2-player games; ``dutch`` pairs those).

What it optimises, in this order (each a tie-break of the one before):
1. byes: n mod k entrants sit out, the lowest-ranked among those with the fewest byes so
   far (``ranking.bye_takers``; ranking: points, Buchholz, Sonneborn-Berger,
   head-to-head, then seeding);
2. fewest pairs at a table who met before, then the fewest of their earlier meetings
   (the sum of meetings squared);
3. closest scores at a table (the sum over table pairs of the squared difference); but
   with more rounds to come, the closest whose next round can still be repeat-free (one
   round of look-ahead, tried on at most LOOK_AHEAD_LIMIT seatings in order of 3), and
   then any seating as close as that one (not checked again);
4. seat balance (``seats.seat_cost``: each player's use of the seat they get).
Exact for small fields: every seating is tried when there are at most EXHAUSTIVE_LIMIT
(9 players at 3-player tables, 8 at 4, 10 at 5). Larger fields are a local search, not an
optimum: consecutive tables in rank order (best for 3), then swaps between tables while a
swap removes repeat meetings (2), choosing the swap that costs least in 3; the look-ahead
and 4 are not searched. Each table's seat order then comes from ``seats.seat_order``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import factorial

from arbiter.tournaments.formats.model import GameResult
from arbiter.tournaments.formats.seats import SeatHistory, seat_cost, seat_order

# Candidate splits checked for a repeat-free next round (each check is a search).
LOOK_AHEAD_LIMIT = 300
# k-player fields with at most this many ways to form the tables are searched exhaustively.
EXHAUSTIVE_LIMIT = 3000

Met = dict[frozenset, int]


def meetings(results: Sequence[GameResult]) -> Met:
    """{frozenset({a, b}): games a and b played at one table}."""
    met: Met = defaultdict(int)
    for result in results:
        for a, b in combinations(result.players, 2):
            met[frozenset((a, b))] += 1
    return met


def _table_cost(table: Sequence[tuple[str, int]], met: Met) -> tuple[int, int, int]:
    """(pairs at the table who met before, their earlier meetings squared, sum of squared
    score differences) of one table."""
    repeats = weight = spread = 0
    for (a, sa), (b, sb) in combinations(table, 2):
        times = met.get(frozenset((a, b)), 0)
        repeats += times > 0
        weight += times * times
        spread += (sa - sb) ** 2
    return repeats, weight, spread


def _split_cost(split: Sequence[Sequence[tuple[str, int]]], met: Met) -> tuple[int, int, int]:
    """The summed ``_table_cost`` of several tables."""
    costs = [_table_cost(table, met) for table in split]
    return tuple(sum(c[i] for c in costs) for i in range(3))


def seat_tables(
    playing: list[tuple[str, int]], k: int, met: Met, history: SeatHistory, look_ahead: bool
) -> list[tuple[str, ...]]:
    """The tables of k players (see the module) of ``playing``, [(entrant, score x
    SCALE)] in rank order; ``look_ahead``: more rounds follow. Returns the groups."""
    if _partition_count(len(playing), k) <= EXHAUSTIVE_LIMIT:
        return _exhaustive(playing, k, met, history, look_ahead)
    return _repair(playing, k, met)


def _partition_count(n: int, k: int) -> int:
    """Ways to split n players into unordered tables of k."""
    return factorial(n) // (factorial(k) ** (n // k) * factorial(n // k))


def _partitions(items: list, k: int) -> Iterator[list[tuple]]:
    """Every split of ``items`` into unordered groups of k (the first item anchors a group)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for mates in combinations(range(len(rest)), k - 1):
        group = (first,) + tuple(rest[i] for i in mates)
        left = [x for i, x in enumerate(rest) if i not in mates]
        for tail in _partitions(left, k):
            yield [group] + tail


def _repeat_free_exists(players: list[str], k: int, met: Met) -> bool:
    """Can ``players`` be split into tables of k where no two have met (depth-first)?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    fresh = [p for p in rest if not met.get(frozenset((first, p)))]
    for mates in combinations(fresh, k - 1):
        if any(met.get(frozenset(pair)) for pair in combinations(mates, 2)):
            continue
        if _repeat_free_exists([p for p in rest if p not in mates], k, met):
            return True
    return False


def _exhaustive(
    playing: list[tuple[str, int]], k: int, met: Met, history: SeatHistory, look_ahead: bool
) -> list[tuple[str, ...]]:
    """The best split by (repeat pairs, their weight, next round repeat-free, score spread,
    seat balance)."""
    scored = sorted(
        ((_split_cost(split, met), split) for split in _partitions(playing, k)), key=lambda c: c[0]
    )
    least = scored[0][0][:2]
    candidates = [c for c in scored if c[0][:2] == least]
    if look_ahead:
        names = [e for e, _ in playing]
        for cost, split in candidates[:LOOK_AHEAD_LIMIT]:
            after = defaultdict(int, met)
            for table in split:
                for (a, _), (b, _) in combinations(table, 2):
                    after[frozenset((a, b))] += 1
            if _repeat_free_exists(names, k, after):
                candidates = [c for c in candidates if c[0] == cost]
                break
    tied = [c for c in candidates if c[0] == candidates[0][0]]
    chosen = min(
        tied,
        key=lambda c: sum(
            seat_cost(seat_order([e for e, _ in t], history), history)[0] for t in c[1]
        ),
    )
    return [tuple(e for e, _ in table) for table in chosen[1]]


def _repair(playing: list[tuple[str, int]], k: int, met: Met) -> list[tuple[str, ...]]:
    """Large fields: consecutive tables in rank order (best for score spread), then swaps
    between tables that remove repeat meetings at the least cost in score spread."""
    tables = [list(playing[i : i + k]) for i in range(0, len(playing), k)]
    for _ in range(len(playing) * k):
        costs = [_table_cost(t, met) for t in tables]
        worst = max(range(len(tables)), key=lambda i: costs[i][:2])
        if costs[worst][0] == 0:
            break
        best = None
        for ia, a in enumerate(tables[worst]):
            for j, other in enumerate(tables):
                if j == worst:
                    continue
                for ib, b in enumerate(other):
                    new_a = tables[worst][:ia] + [b] + tables[worst][ia + 1 :]
                    new_b = other[:ib] + [a] + other[ib + 1 :]
                    ca, cb = _table_cost(new_a, met), _table_cost(new_b, met)
                    delta = tuple(ca[x] + cb[x] - costs[worst][x] - costs[j][x] for x in range(3))
                    if delta[:2] < (0, 0) and (best is None or delta < best[0]):
                        best = (delta, j, new_a, new_b)
        if best is None:
            break
        _, j, tables[worst], tables[j] = best
    return [tuple(e for e, _ in table) for table in tables]
