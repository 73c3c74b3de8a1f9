"""Swiss rounds: each round paired from the results so far.

Library choice: 2-player rounds are a minimum-cost perfect matching, solved with networkx's
``max_weight_matching`` (Edmonds' blossom algorithm; networkx is maintained, pure Python,
exact with integer weights). The FIDE Dutch libraries on PyPI (``pairing-core`` 0.4,
``caissify-pairings`` 0.5, both young 0.x releases) implement C.04.3 for chess only: they
want ratings and FIDE's fixed 1/0.5/0 points, and nothing of them fits k-player tables,
configurable place points or our bye rule, so one matching model for 2 players and a table
search for k players keep both formats on the same criteria.

Both formats, every round (entrants: the current ones; a late entrant simply has fewer
games, a withdrawn one is not passed):
1. Rank the entrants (``ranking``: points, tie-breaks, then the order given).
2. Byes: n mod table_size entrants sit out - the lowest-ranked among those with the fewest
   byes so far (so a bye goes to the lowest-ranked entrant without one).
3. Seat the rest, in this order of priority:
   a. fewest repeat meetings (a pair that met before, weighted by how often);
   b. k players, and more rounds to come: keep the next round repeat-free if that is
      possible (one round of look-ahead; only for small fields, at most EXHAUSTIVE_LIMIT
      ways to form the tables - 9 at 3-player tables, 8 at 4, 10 at 5 - which are searched
      exhaustively; larger fields start from consecutive tables in rank order and swap
      players between tables while that removes repeats);
   c. closest scores at a table (sum over table pairs of the squared score difference);
   d. seat balance (``seats.seat_cost``);
   e. 2 players: within a score group, the top half meets the bottom half (Dutch style).
   Then each table's seat order comes from ``seats.seat_order``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from math import factorial

from arbiter.tournaments.model import GameResult, Round, Scoring, Table
from arbiter.tournaments.ranking import bye_takers, ranking
from arbiter.tournaments.seats import SeatHistory, seat_cost, seat_history, seat_order

# Scores become integers for exact matching weights: points * SCALE, rounded.
SCALE = 1000
# Candidate splits checked for a repeat-free next round (each check is a search).
LOOK_AHEAD_LIMIT = 300
# k-player fields with at most this many ways to form the tables are searched exhaustively.
EXHAUSTIVE_LIMIT = 3000

# 2-player brackets: cut at a score-group boundary from this size on, inside a group at
# the larger size (the blossom algorithm is cubic in the bracket size).
BRACKET_MIN = 12
BRACKET_MAX = 24

Met = dict[frozenset, int]


def swiss_round(
    entrants: Sequence[str],
    results: Sequence[GameResult],
    byes: Mapping[str, int],
    table_size: int,
    number: int,
    scoring: Scoring,
    rounds: int | None = None,
) -> Round:
    """Pair round ``number`` of a Swiss (see the module docstring for the criteria).

    Takes the current entrants (in seeding order), every result so far, the byes so far
    ({entrant: count}), the table size (>= 2), the 1-based round number, the scoring, and
    optionally the tournament's number of rounds (k-player look-ahead is skipped in the
    last round; None: assume more rounds follow). Returns the ``Round``.
    Raises ValueError for repeated ids, a table size below 2 or too few entrants.
    """
    active = list(entrants)
    if len(set(active)) != len(active):
        raise ValueError("an entrant is listed twice")
    if table_size < 2:
        raise ValueError(f"a table needs at least 2 players, not {table_size}")
    if len(active) < table_size:
        raise ValueError(f"{len(active)} entrants cannot fill a table of {table_size}")
    ranked = ranking(active, results, byes, scoring)
    order = [e for e, _ in ranked]
    sitting_out = bye_takers(order, byes, len(active) % table_size)
    playing = [(e, round(p * SCALE)) for e, p in ranked if e not in sitting_out]
    met = meetings(results)
    history = seat_history(r.players for r in sorted(results, key=lambda r: r.round))
    if table_size == 2:
        groups = _match(playing, met, history)
    else:
        more_to_come = rounds is None or number < rounds
        groups = _tables(playing, table_size, met, history, more_to_come)
    position = {e: i for i, e in enumerate(order)}
    tables = sorted(
        (seat_order(sorted(g, key=position.get), history) for g in groups),
        key=lambda t: min(position[p] for p in t),
    )
    return Round(number=number, tables=tuple(Table(t) for t in tables), byes=tuple(sitting_out))


def meetings(results: Sequence[GameResult]) -> Met:
    """{frozenset({a, b}): games a and b played at one table}."""
    met: Met = defaultdict(int)
    for result in results:
        for a, b in combinations(result.players, 2):
            met[frozenset((a, b))] += 1
    return met


def _seat_wish(entrant: str, history: SeatHistory) -> tuple[int | None, int]:
    """(seat wanted in a 2-player game, strength): the less-used seat with strength 2, or
    on equal use the seat not had last time with strength 1; (None, 0) with no games yet."""
    seats = history.get(entrant, [])
    first, second = seats.count(0), seats.count(1)
    if first != second:
        return (0 if first < second else 1), 2
    if seats:
        return 1 - seats[-1], 1
    return None, 0


def _brackets(playing: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Cut the ranked field into brackets of consecutive players, each of an even size,
    at score-group boundaries once a bracket holds BRACKET_MIN players (and inside a
    score group at BRACKET_MAX), so each bracket's matching stays small."""
    brackets, current = [], []
    for i, player in enumerate(playing):
        current.append(player)
        boundary = i + 1 == len(playing) or playing[i + 1][1] != player[1]
        even = len(current) % 2 == 0
        if even and (len(current) >= BRACKET_MAX or (boundary and len(current) >= BRACKET_MIN)):
            brackets.append(current)
            current = []
    if current:
        if brackets and len(current) < BRACKET_MIN:
            brackets[-1].extend(current)
        else:
            brackets.append(current)
    return brackets


def _match(playing: list[tuple[str, int]], met: Met, history: SeatHistory) -> list[tuple[str, ...]]:
    """2-player pairs: bracket by bracket (``_brackets``), a bracket that cannot be paired
    without a repeat is merged with the next one, and a merged run that still repeats is
    solved over the whole rest of the field."""
    brackets = _brackets(playing)
    pairs: list[tuple[str, ...]] = []
    i = 0
    while i < len(brackets):
        run = list(brackets[i])
        j = i + 1
        found, repeats = _match_bracket(run, met, history)
        while repeats and j < len(brackets):
            run.extend(brackets[j])
            j += 1
            found, repeats = _match_bracket(run, met, history)
        pairs.extend(found)
        i = j
    return pairs


def _match_bracket(
    playing: list[tuple[str, int]], met: Met, history: SeatHistory
) -> tuple[list[tuple[str, ...]], int]:
    """(pairs, repeat pairings among them): a minimum-cost perfect matching on the
    lexicographic criteria (repeat pairings, their meetings squared, score-group distance
    squared, seat-wish conflict 0-2). Few distinct weights keep the blossom algorithm
    fast."""
    if len(playing) == 2:
        pair = (playing[0][0], playing[1][0])
        return [pair], int(met.get(frozenset(pair), 0) > 0)
    level = {score: i for i, score in enumerate(sorted({s for _, s in playing}))}
    wish = {e: _seat_wish(e, history) for e, _ in playing}
    costs = {}
    for (a, sa), (b, sb) in combinations(playing, 2):
        (seat_a, strength_a), (seat_b, strength_b) = wish[a], wish[b]
        clash = min(strength_a, strength_b) if seat_a is not None and seat_a == seat_b else 0
        times = met.get(frozenset((a, b)), 0)
        costs[(a, b)] = (int(times > 0), times * times, (level[sa] - level[sb]) ** 2, clash)
    import networkx as nx  # here, not at the top: importing networkx takes about a second

    weights = _lexicographic(costs, len(playing) // 2)
    top = max(weights.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(e for e, _ in playing)
    for (a, b), cost in weights.items():
        graph.add_edge(a, b, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    found = [tuple(pair) for pair in matching]
    return found, sum(1 for pair in found if met.get(frozenset(pair)))


def _lexicographic(costs: dict, pairs: int) -> dict:
    """Fold per-pair cost tuples into integers whose sums over any matching of ``pairs``
    pairs compare like the tuples' sums compared component by component."""
    width = len(next(iter(costs.values())))
    bounds = [max(c[i] for c in costs.values()) * pairs + 1 for i in range(width)]
    folded = {}
    for key, cost in costs.items():
        value = 0
        for i in range(width):
            value = value * bounds[i] + cost[i]
        folded[key] = value
    return folded


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


def _tables(
    playing: list[tuple[str, int]], k: int, met: Met, history: SeatHistory, look_ahead: bool
) -> list[tuple[str, ...]]:
    """k-player tables: exhaustive search for small fields, repair search for large ones."""
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
