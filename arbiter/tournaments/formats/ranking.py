"""The current order of the entrants of a Swiss: who is "higher" when pairing and byes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbiter.tournaments.formats.model import GameResult, Scoring
from arbiter.tournaments.formats.standings import PRECISION, standings


def ranking(
    entrants: Sequence[str],
    results: Sequence[GameResult],
    byes: Mapping[str, int],
    scoring: Scoring,
) -> list[tuple[str, float]]:
    """[(entrant, points)] best first: by the standings' criteria (points, Buchholz,
    Sonneborn-Berger, head-to-head), then by the order of ``entrants`` (the seeding; the
    orchestration passes entry order), not by id as ``standings`` does.
    """
    seed = {e: i for i, e in enumerate(dict.fromkeys(entrants))}
    rows = standings(list(seed), results, byes, scoring)
    rows.sort(
        key=lambda r: (
            -round(r.points, PRECISION),
            -round(r.buchholz, PRECISION),
            -round(r.sonneborn_berger, PRECISION),
            -round(r.head_to_head, PRECISION),
            seed[r.entrant],
        )
    )
    return [(r.entrant, r.points) for r in rows]


def bye_takers(ranked: Sequence[str], byes: Mapping[str, int], count: int) -> list[str]:
    """The ``count`` entrants who sit out: the lowest-ranked among those with the fewest byes
    so far (so nobody has a second bye while someone has none), lowest first."""
    by_need = sorted(range(len(ranked)), key=lambda i: (byes.get(ranked[i], 0), -i))
    return [ranked[i] for i in by_need[:count]]
