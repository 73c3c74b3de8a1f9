"""A tournament's standings as organisers read them, from what its log and games say:
after any round (``after_round``; default the last round whose every game is over, so
a round still being played counts for nothing, its byes included), with a crosstable,
forfeit and bye marks, and shared ranks for complete ties.

The pure package computes them (:mod:`arbiter.tournaments.formats.crosstable`): a Swiss by
points, Buchholz, Sonneborn-Berger, head-to-head; a round robin by points,
head-to-head, wins, Sonneborn-Berger, with FIDE's withdrawal rule (a withdrawn entrant
who played fewer than half of their games has every result cancelled and is listed
unranked; otherwise the games they no longer play are forfeit wins for their
opponents). The service and ``arbiter verify`` (:mod:`arbiter.verify_tournament`) both
call :func:`compute`, so a record's standings are recomputed the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbiter.tournaments import formats as pairing
from arbiter.tournaments.formats.crosstable import (
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    Row,
    cell_label,
)


def compute(
    fmt: str,
    entrants: Sequence[str],
    rounds: Sequence[pairing.Round],
    results: Sequence[pairing.GameResult],
    scoring: pairing.Scoring,
    *,
    schedule: Sequence[pairing.Round] | None = None,
    withdrawn: Mapping[str, int] | None = None,
    least_players: int = 2,
    after_round: int | None = None,
) -> list[Row]:
    """Return the standings rows, best first (unranked, cancelled entrants last).

    :param fmt: ``swiss`` or ``round_robin``.
    :param entrants: pairing-number order (a round robin: the schedule's order); the
        entrants who took part, withdrawn ones too.
    :param rounds: the rounds paired so far (a Swiss); ``schedule``: the round robin's
        rounds as fixed at its start. ``withdrawn``: ``{entrant: first round missed}``.
    :raises ValueError: ``after_round`` is not over.
    """
    if fmt == "round_robin" and schedule is not None:
        return pairing.round_robin_standings(
            entrants,
            schedule,
            results,
            scoring,
            withdrawn=withdrawn,
            after_round=after_round,
            least_players=least_players,
        )
    return pairing.swiss_standings(entrants, rounds, results, scoring, after_round)


def last_over(rounds: Sequence[pairing.Round], results: Sequence[pairing.GameResult]) -> int:
    """Return the last round n such that rounds 1..n are paired and over."""
    done = {(r.round, tuple(r.players)) for r in results}
    paired = {r.number: r for r in rounds}
    n = 0
    while n + 1 in paired and all((n + 1, tuple(t.players)) in done for t in paired[n + 1].tables):
        n += 1
    return n


def rows_json(
    rows: Sequence[Row], names: Mapping[str, str], withdrawn: Mapping[str, int]
) -> list[dict]:
    """Return the rows as the API shows them: ``no`` (the line number the crosstable's
    cells name opponents by), rank (null: results cancelled), entry, name, points,
    games (played over the board), wins, byes (every kind) and ``bye_kinds`` (``U``
    pairing-allocated or a round robin's rest round, ``H``, ``F``, ``Z``),
    ``forfeits`` (won, lost), the tie-breaks (``buchholz``, ``sonneborn_berger``,
    ``head_to_head``; null where the format does not rank by it), withdrawn (bool),
    and ``crosstable``: one label per round (:func:`arbiter.tournaments.cell_label`:
    ``5w1`` opponent 5 with the first move, won; ``3b-`` lost by forfeit; ``U``/``H``/
    ``F``/``Z`` byes; ``x`` cancelled; empty: not taking part)."""
    numbers = {row.entrant: i for i, row in enumerate(rows, start=1)}
    out = []
    for row in rows:
        values = dict(row.tiebreaks)
        kinds = dict(row.byes)
        out.append(
            {
                "no": numbers[row.entrant],
                "rank": row.rank,
                "entry": row.entrant,
                "name": names.get(row.entrant, ""),
                "points": row.points,
                "games": row.games,
                "wins": row.wins,
                "byes": sum(kinds.values()),
                "bye_kinds": kinds,
                "forfeits": {"won": row.forfeits[0], "lost": row.forfeits[1]},
                "buchholz": values.get("buchholz"),
                "sonneborn_berger": values.get("sonneborn_berger"),
                "head_to_head": values.get("head_to_head"),
                "withdrawn": row.entrant in withdrawn,
                "crosstable": [cell_label(c, numbers) for c in row.cells],
            }
        )
    return out


def tiebreaks(fmt: str) -> list[str]:
    """Return the tie-breaks of a format, in the order they rank."""
    return list(ROUND_ROBIN_TIEBREAKS if fmt == "round_robin" else SWISS_TIEBREAKS)
