"""Seat balance: who sits in seat 0 (moves first; "white" in 2-player games).

Every round the players of a table are put in the seat order that gives each the seats they
have had least so far and, on a tie, not the seat they had last time (as the FIDE Swiss
rules treat colours: equalise first, then alternate; FIDE Handbook C.04), so over a
tournament everyone sits in every seat about equally often.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import permutations

# Tables up to this size try every seat order; larger ones are seated greedily.
EXHAUSTIVE_UP_TO = 6

SeatHistory = dict[str, list[int]]
"""{entrant: the seat indices they sat in, game by game, oldest first}."""


def seat_history(tables: Iterable[Sequence[str]]) -> SeatHistory:
    """The seat history of the given seat orders (oldest first)."""
    history: SeatHistory = defaultdict(list)
    for players in tables:
        record(players, history)
    return history


def record(players: Sequence[str], history: SeatHistory) -> None:
    """Add one table's seat order to ``history``."""
    for seat, player in enumerate(players):
        history[player].append(seat)


def seat_cost(order: Sequence[str], history: SeatHistory) -> tuple[int, int]:
    """(sum of squared times each player already sat in the seat given, repeats of the last
    seat): lower is better balanced."""
    heavy = sum(history.get(p, []).count(seat) ** 2 for seat, p in enumerate(order))
    repeats = sum(1 for seat, p in enumerate(order) if history.get(p) and history[p][-1] == seat)
    return heavy, repeats


def seat_order(players: Sequence[str], history: SeatHistory) -> tuple[str, ...]:
    """The order of ``players`` that balances their seats best (see ``seat_cost``).

    Ties go to the order closest to the one given (``players`` comes in rank order, so on a
    tie the better-ranked player gets the earlier seat). Does not update ``history``.
    """
    if len(players) <= EXHAUSTIVE_UP_TO:
        return min(permutations(players), key=lambda order: seat_cost(order, history))
    placed: list[tuple[int, str]] = []
    free = list(range(len(players)))
    for player in players:
        seat = min(free, key=lambda s: history.get(player, []).count(s))
        free.remove(seat)
        placed.append((seat, player))
    return tuple(p for _, p in sorted(placed))
