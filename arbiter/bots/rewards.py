"""What a finished game is worth to each seat, for the search: a number in [0, 1]."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

MARGIN = 0.2
"""The share of a reward that the score margin makes (the rest is the rank): enough to
prefer a wide win to a narrow one, and a narrow loss to a wide one, never a loss to a
win."""

TIE = 0.25
"""What a tie with another seat counts for in the rank, a win counting 1: less than half,
so that a draw is worth less than an even chance of a win or a loss (issue 25 counts a
draw as not won). At a half, Worms games at level 5 drew often (9 of 20): the traced
ones show the bot's last worm jumping (a Scatter, into the Water) and the random team
sinking in the final round, which at a half was worth playing for (at a quarter: 2 of
20, ``bench/README.md``)."""


def rewards(result: Mapping[str, Any], players: int) -> list[float]:
    """Return each seat's reward from an ``Over`` result (``engines.base.Over``).

    Several seats: ``(1 - MARGIN)`` times the share of the other seats it finished ahead
    of (a tie counts :data:`TIE`; read from the ranking, else the scores), plus ``MARGIN``
    times its score margin over the best other seat, ``0.5 + d / (2 (|a| + |b| + 1))``
    for scores ``a`` (its own) and ``b`` (the best other), ``d = a - b``. One seat beats
    nobody, so its score is all there is: ``0.5 + s / (2 (|s| + 20))``.
    """
    scores = list(result.get("scores") or [0] * players)
    if players == 1:
        return [0.5 + scores[0] / (2 * (abs(scores[0]) + 20))]
    groups = result.get("ranking") or _ranking(scores)
    out = [0.5] * players
    behind = players
    for group in groups:
        behind -= len(group)
        for seat in group:
            rank = (behind + TIE * (len(group) - 1)) / (players - 1)
            out[seat] = (1 - MARGIN) * rank + MARGIN * _margin(scores, seat)
    return out


def _margin(scores: Sequence[float], seat: int) -> float:
    """Return ``seat``'s score margin over the best other seat, in [0, 1]."""
    mine = scores[seat]
    best = max(s for i, s in enumerate(scores) if i != seat)
    return 0.5 + (mine - best) / (2 * (abs(mine) + abs(best) + 1))


def _ranking(scores: Sequence[float]) -> list[list[int]]:
    """Group seats best first by score."""
    order = sorted(set(scores), reverse=True)
    return [[s for s, x in enumerate(scores) if x == value] for value in order]
