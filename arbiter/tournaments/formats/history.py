"""What happened to every entrant in every round: the record that the Dutch pairing, the
TRF export and the crosstable all read, so the three never disagree.

One ``Cell`` per entrant and round, built from the paired rounds (``Round``: tables,
pairing-allocated byes, requested byes) and the finished games (``GameResult``):
- a game with a result: ``GAME`` (played) or ``FORFEIT`` (decided without the forfeiting
  players: not played, as FIDE counts it);
- a game still being played: ``PENDING`` (no points yet);
- ``PAIRING_BYE`` / ``HALF_BYE`` / ``FULL_BYE`` / ``ZERO_BYE`` (the model's letters);
- ``ABSENT``: in no table and no bye of that round (not entered yet, or withdrawn).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbiter.tournaments.formats.model import (
    FULL_BYE,
    HALF_BYE,
    PAIRING_BYE,
    REQUESTED_BYES,
    ZERO_BYE,
    GameResult,
    Round,
    Scoring,
)
from arbiter.tournaments.formats.scoring import game_points

GAME = "game"
FORFEIT = "forfeit"
PENDING = "pending"
ABSENT = "absent"
BYE_KINDS = (PAIRING_BYE, HALF_BYE, FULL_BYE, ZERO_BYE)


@dataclass(frozen=True)
class Cell:
    """One entrant's round.

    kind: ``GAME``, ``FORFEIT``, ``PENDING``, ``ABSENT`` or a bye letter.
    mates: the table-mates in seat order (empty without a table).
    seat: the entrant's seat at the table (0 moves first; None without a table).
    place: the entrant's place at the table (None until the game has a result).
    points: what the round scored (0 for ``PENDING`` and ``ABSENT``).
    forfeited: True when this entrant lost by forfeit.
    versus: 2-player games with a result: 1 won, 0 drew, -1 lost.
    """

    round: int
    kind: str
    mates: tuple[str, ...] = ()
    seat: int | None = None
    place: int | None = None
    points: float = 0.0
    forfeited: bool = False
    versus: int = 0

    @property
    def played(self) -> bool:
        """True for a game played over the board (neither forfeited nor pending)."""
        return self.kind == GAME

    @property
    def opponent(self) -> str | None:
        """The one table-mate of a 2-player game (None otherwise)."""
        return self.mates[0] if len(self.mates) == 1 else None

    def outcome(self) -> str | None:
        """For a 2-player game with a result: "1" won, "=" drawn, "0" lost, "+" won by
        forfeit, "-" lost by forfeit (the TRF letters); None otherwise."""
        if self.kind not in (GAME, FORFEIT) or len(self.mates) != 1:
            return None
        if self.kind == FORFEIT:
            return "-" if self.forfeited else "+"
        return {1: "1", 0: "=", -1: "0"}[self.versus]


def record(
    entrants: Sequence[str],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
    scoring: Scoring,
    upto: int | None = None,
) -> dict[str, list[Cell]]:
    """{entrant: [its Cell in round 1, 2, ..., upto]} for the given entrants.

    Takes the entrants to report, the paired rounds, the finished games' results, the
    scoring, and the last round to include (None: every paired round). Rounds not paired
    (or later than ``upto``) are left out; a paired round's game without a result is
    ``PENDING``. Raises ValueError when a round or a result names an entrant twice, a
    result has no table, or a requested bye has an unknown letter.
    """
    paired = {r.number: r for r in rounds}
    last = max(paired, default=0) if upto is None else upto
    outcome = _results_by_table(results)
    cells: dict[str, list[Cell]] = {e: [] for e in entrants}
    for number in range(1, last + 1):
        rnd = paired.get(number)
        found = _round_cells(rnd, outcome, scoring) if rnd else {}
        for entrant, row in cells.items():
            row.append(found.get(entrant, Cell(number, ABSENT)))
    return cells


def _results_by_table(results: Sequence[GameResult]) -> dict[tuple, GameResult]:
    """{(round, players): result}; raises ValueError for two results of one table."""
    found: dict[tuple, GameResult] = {}
    for result in results:
        key = (result.round, tuple(result.players))
        if key in found:
            raise ValueError(f"round {result.round}: two results for {list(key[1])}")
        found[key] = result
    return found


def _round_cells(rnd: Round, outcome: Mapping, scoring: Scoring) -> dict[str, Cell]:
    """The cells of one paired round."""
    cells: dict[str, Cell] = {}

    def put(entrant: str, cell: Cell) -> None:
        if entrant in cells:
            raise ValueError(f"round {rnd.number}: {entrant} is seated twice")
        cells[entrant] = cell

    for table in rnd.tables:
        result = outcome.get((rnd.number, tuple(table.players)))
        for seat, entrant in enumerate(table.players):
            put(entrant, _table_cell(rnd.number, table.players, seat, result, scoring))
    for entrant in rnd.byes:
        put(entrant, Cell(rnd.number, PAIRING_BYE, points=scoring.bye_points))
    for entrant, kind in rnd.requested_byes:
        if kind not in REQUESTED_BYES:
            raise ValueError(f"round {rnd.number}: no requested bye is called {kind!r}")
        put(entrant, Cell(rnd.number, kind, points=scoring.bye_value(kind)))
    return cells


def _table_cell(
    number: int, players: Sequence[str], seat: int, result: GameResult | None, scoring: Scoring
) -> Cell:
    """One seat's cell of a table (``PENDING`` without a result)."""
    me = players[seat]
    mates = tuple(p for p in players if p != me)
    if result is None:
        return Cell(number, PENDING, mates, seat)
    place = dict(zip(result.players, result.places))
    points = result_points(result, scoring)[me]
    versus = 0
    if len(players) == 2:
        other = mates[0]
        versus = (place[me] < place[other]) - (place[me] > place[other])
        if result.forfeited:
            versus = -1 if me in result.forfeited else 1
    kind = FORFEIT if result.forfeited else GAME
    return Cell(
        number,
        kind,
        mates,
        seat,
        place[me],
        points,
        forfeited=me in result.forfeited,
        versus=versus,
    )


def result_points(result: GameResult, scoring: Scoring) -> dict[str, float]:
    """Points each player of one game scores: by place (``game_points``), except that a
    forfeiting player scores 0 and the others rank by place among themselves."""
    if not result.forfeited:
        return game_points(result, scoring)
    unknown = set(result.forfeited) - set(result.players)
    if unknown:
        raise ValueError(f"round {result.round}: {sorted(unknown)} forfeited but did not sit")
    present = [(p, q) for p, q in zip(result.players, result.places) if p not in result.forfeited]
    points = {p: 0.0 for p in result.forfeited}
    if present:
        players, places = zip(*present)
        points.update(game_points(GameResult(result.round, players, places), scoring))
    return points
