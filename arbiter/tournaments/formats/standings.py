"""Standings with tie-breaks: Buchholz, Sonneborn-Berger, head-to-head.

Definitions after the FIDE Handbook C.07, "Tie-Break Regulations" (Buchholz,
Sonneborn-Berger, direct encounter), generalised to k-player tables the way
notes/TOURNAMENTS.md fixes them:
- Buchholz: the sum, over my games, of my table-mates' total points (2 players: the
  opponents' totals). An opponent met twice counts twice.
- Sonneborn-Berger: the sum, over my games, of my points in that game times the sum of my
  table-mates' totals (2 players: the classic "opponents beaten plus half of those drawn").
- Head-to-head: over my games, 1 for each table-mate tied with me on points whom I placed
  above, 1/2 for each on the same place, 0 below (2 players: my points against the tied).
Byes count towards points but not towards Buchholz or Sonneborn-Berger (a bye has no
opponent; FIDE's "virtual opponent" is not modelled). A player who forfeited scores
nothing (``history.result_points``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbiter.tournaments.formats.history import result_points
from arbiter.tournaments.formats.model import GameResult, Scoring, Standing
from arbiter.tournaments.formats.scoring import pairwise_score

# Points are floats (1/3 appears with 4-player tables); equal to 9 decimals is "tied".
PRECISION = 9


def standings(
    entrants: Sequence[str],
    results: Sequence[GameResult],
    byes: Mapping[str, int],
    scoring: Scoring,
) -> list[Standing]:
    """The standings of ``entrants``, best first.

    Takes the entrants to list (withdrawn ones may be left out: their results still count
    for their opponents' tie-breaks), every finished game's result, the number of byes each
    entrant received ({entrant: count}; absent means none) and the scoring. Returns one
    ``Standing`` per entrant sorted by points, then Buchholz, Sonneborn-Berger,
    head-to-head (all descending), then entrant id; entrants equal on all four share a
    rank (competition ranking: 1, 2, 2, 4), whatever their ids.
    Raises ValueError for a malformed result (see ``game_points``).
    """
    points_of = [result_points(result, scoring) for result in results]
    total: dict[str, float] = {}
    games_of: dict[str, list[int]] = {}
    for i, points in enumerate(points_of):
        for player, got in points.items():
            total[player] = total.get(player, 0.0) + got
            games_of.setdefault(player, []).append(i)
    for player, count in byes.items():
        total[player] = total.get(player, 0.0) + count * scoring.bye_points
    tied_key = {e: round(t, PRECISION) for e, t in total.items()}
    rows = []
    for entrant in dict.fromkeys(entrants):
        buchholz = sonneborn = head = 0.0
        mine = round(total.get(entrant, 0.0), PRECISION)
        played = games_of.get(entrant, [])
        for i in played:
            result = results[i]
            mates = [p for p in result.players if p != entrant]
            mates_total = sum(total[p] for p in mates)
            buchholz += mates_total
            sonneborn += points_of[i][entrant] * mates_total
            head += sum(pairwise_score(result, entrant, p) for p in mates if tied_key[p] == mine)
        rows.append(
            (
                entrant,
                total.get(entrant, 0.0),
                len(played),
                int(byes.get(entrant, 0)),
                buchholz,
                sonneborn,
                head,
            )
        )
    rows.sort(
        key=lambda r: (
            -round(r[1], PRECISION),
            -round(r[4], PRECISION),
            -round(r[5], PRECISION),
            -round(r[6], PRECISION),
            r[0],
        )
    )
    ranks = shared_ranks([tuple(round(x, PRECISION) for x in r[1:2] + r[4:7]) for r in rows])
    return [
        Standing(
            rank=rank,
            entrant=e,
            points=p,
            games=g,
            byes=b,
            buchholz=bh,
            sonneborn_berger=sb,
            head_to_head=h,
        )
        for rank, (e, p, g, b, bh, sb, h) in zip(ranks, rows)
    ]


def shared_ranks(keys: Sequence[tuple]) -> list[int]:
    """Competition ranks (1, 2, 2, 4) of rows already sorted best first: a row equal to
    the one above on every key shares its rank."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks
