"""Standings as organisers read them: after any round, with a crosstable, bye and
forfeit marks, and shared ranks for complete ties.

``swiss_standings``: points, then Buchholz, Sonneborn-Berger, head-to-head (as
``standings`` defines them; the FIDE Tie-Break Regulations, C.07, for a Swiss).
``round_robin_standings``: points, then head-to-head (C.07 "direct encounter"), wins
(games won, forfeit wins included, byes never), then Sonneborn-Berger: the tie-breaks
C.07 recommends for a round robin, where Buchholz means nothing (everyone meets everyone).
With 2-player games:
- the round an odd number of entrants leaves someone out scores nothing and is no win
  (everyone has exactly one; in the crosstable it is the bye ``U`` worth 0);
- a withdrawal is settled by the FIDE rule (FIDE Tournament Rules, C.06, on withdrawals
  from a round robin): an entrant who withdrew having played fewer than half of their
  games has all their results cancelled (their opponents' games against them count for
  nobody, and the entrant is listed unranked); one who played at least half keeps them,
  and each game they no longer play is a forfeit: a win for the opponent.
Entrants tied on every criterion share a rank (competition ranking: 1, 2, 2, 4) and are
listed in the order given (pairing numbers), never by id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbiter.tournaments.formats.history import FORFEIT, GAME, PENDING, Cell, record
from arbiter.tournaments.formats.model import (
    FULL_BYE,
    HALF_BYE,
    PAIRING_BYE,
    ZERO_BYE,
    GameResult,
    Round,
    Scoring,
    Table,
)
from arbiter.tournaments.formats.standings import PRECISION, shared_ranks

CANCELLED = "cancelled"
SWISS_TIEBREAKS = ("buchholz", "sonneborn_berger", "head_to_head")
ROUND_ROBIN_TIEBREAKS = ("head_to_head", "wins", "sonneborn_berger")


@dataclass(frozen=True)
class Row:
    """One line of the standings.

    rank: the place (None: a withdrawn entrant whose results are cancelled, listed last).
    points: game, bye and forfeit points; games: games played over the board; wins:
    games won (forfeit wins included); forfeits: (won, lost); byes: {letter: count}
    (``U`` pairing-allocated or rest round, ``H``, ``F``, ``Z``); tiebreaks: (name,
    value) in the order they rank; cells: the entrant's rounds (``history.Cell``).
    """

    rank: int | None
    entrant: str
    points: float
    games: int
    wins: int
    forfeits: tuple[int, int]
    byes: tuple[tuple[str, int], ...]
    tiebreaks: tuple[tuple[str, float], ...]
    cells: tuple[Cell, ...]


def swiss_standings(
    entrants: Sequence[str],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
    scoring: Scoring,
    after_round: int | None = None,
) -> list[Row]:
    """The standings of a Swiss after round ``after_round`` (default: the last round
    whose every game is over), best first (see the module).

    Takes the entrants to list (pairing-number order; withdrawn ones too, entrants who
    never took part are best left out), the paired rounds, the finished games' results
    and the scoring. Raises ValueError for a round not over or a malformed round.
    """
    last = _last_over(rounds, results, after_round)
    cells = record(_everyone(entrants, rounds), rounds, results, scoring, upto=last)
    return _ranked(entrants, cells, SWISS_TIEBREAKS, cancelled=set())


def table_ranks(entrants: Sequence[str], cells: Mapping[str, Sequence[Cell]]) -> tuple:
    """({entrant: Swiss rank}, {entrant: points}) from already built cells (the TRF)."""
    rows = _ranked(entrants, cells, SWISS_TIEBREAKS, cancelled=set())
    return {r.entrant: r.rank for r in rows}, {r.entrant: r.points for r in rows}


def round_robin_standings(
    entrants: Sequence[str],
    schedule: Sequence[Round],
    results: Sequence[GameResult],
    scoring: Scoring,
    withdrawn: Mapping[str, int] | None = None,
    after_round: int | None = None,
    least_players: int = 2,
) -> list[Row]:
    """The standings of a round robin after round ``after_round`` (default: the last
    round whose every game is over), best first (see the module).

    Takes the entrants in schedule order, the schedule as fixed at the start
    (``round_robin_schedule``), the finished games' results, the scoring, the
    withdrawals ({entrant: first round not played}), and the fewest players a table is
    played with (k-player tables: a scheduled table is played by those not withdrawn,
    and when fewer than ``least_players`` remain they sit out as on a bye).
    Raises ValueError for a round not over.
    """
    withdrawn = dict(withdrawn or {})
    size = max((len(t.players) for r in schedule for t in r.tables), default=2)
    rounds, results = _as_played(schedule, results, withdrawn, size, least_players)
    if size == 2:
        scoring = Scoring(scoring.place_points, 0.0)
    last = _last_over(rounds, results, after_round)
    cells = record(list(entrants), rounds, results, scoring, upto=last)
    cancelled: set[str] = set()
    if size == 2:
        cancelled = _cancelled(schedule, withdrawn, cells)
        cells = _void(cells, cancelled)
    return _ranked(entrants, cells, ROUND_ROBIN_TIEBREAKS, cancelled)


def round_robin_as_played(
    schedule: Sequence[Round],
    results: Sequence[GameResult],
    withdrawn: Mapping[str, int],
    least_players: int = 2,
) -> tuple[list[Round], list[GameResult]]:
    """The rounds and results of a round robin as played: the schedule with the
    withdrawals applied (a 2-player game against an entrant withdrawn before it is a
    forfeit by them; a k-player table is played by those left, or sat out as a bye
    when fewer than ``least_players`` are left), what the TRF writes. The withdrawal
    rule's cancelling is the standings' (``round_robin_standings``)."""
    size = max((len(t.players) for r in schedule for t in r.tables), default=2)
    return _as_played(schedule, results, withdrawn, size, least_players)


def _everyone(entrants: Sequence[str], rounds: Sequence[Round]) -> list[str]:
    """The entrants, then anyone else a round names (their results count for others)."""
    found = dict.fromkeys(entrants)
    for rnd in rounds:
        for table in rnd.tables:
            found.update(dict.fromkeys(table.players))
        found.update(dict.fromkeys(rnd.byes))
        found.update(dict.fromkeys(e for e, _ in rnd.requested_byes))
    return list(found)


def _last_over(rounds: Sequence[Round], results: Sequence[GameResult], wanted: int | None) -> int:
    """``wanted``, or the last round whose every game has a result; raises ValueError
    when ``wanted`` is not over."""
    done = {(r.round, tuple(r.players)) for r in results}
    paired = {r.number: r for r in rounds}
    last = 0
    while last + 1 in paired and all(
        (last + 1, tuple(t.players)) in done for t in paired[last + 1].tables
    ):
        last += 1
    if wanted is None:
        return last
    if wanted > last:
        raise ValueError(f"round {wanted} is not over (the last one over is {last})")
    return wanted


def _as_played(
    schedule: Sequence[Round],
    results: Sequence[GameResult],
    withdrawn: Mapping[str, int],
    size: int,
    least: int,
) -> tuple[list[Round], list[GameResult]]:
    """The schedule with the withdrawals applied: 2-player games against a withdrawn
    entrant become forfeits by them (``_cancelled`` may void them later); a k-player
    table is played by those left, or sat out as a bye when too few are left."""
    gone = {e: r for e, r in withdrawn.items()}
    rounds, extra = [], []
    for rnd in schedule:
        tables, byes = [], list(rnd.byes)
        for table in rnd.tables:
            here = tuple(p for p in table.players if gone.get(p, rnd.number + 1) > rnd.number)
            if size == 2 and len(here) == 1:
                tables.append(table)
                extra.append(
                    GameResult(
                        rnd.number, table.players, (1, 1), tuple(set(table.players) - set(here))
                    )
                )
            elif len(here) >= max(least, 2):
                tables.append(Table(here))
            else:
                byes.extend(here)
        rounds.append(Round(rnd.number, tuple(tables), tuple(byes), rnd.requested_byes))
    present = {(r.round, tuple(r.players)) for r in extra}
    kept = [r for r in results if (r.round, tuple(r.players)) not in present]
    return rounds, kept + extra


def _cancelled(
    schedule: Sequence[Round], withdrawn: Mapping[str, int], cells: Mapping[str, list[Cell]]
) -> set[str]:
    """The withdrawn entrants who played fewer than half of their scheduled games."""
    found = set()
    for entrant in withdrawn:
        games = sum(1 for r in schedule for t in r.tables if entrant in t.players)
        played = sum(1 for c in cells.get(entrant, ()) if c.kind == GAME)
        if 2 * played < games:
            found.add(entrant)
    return found


def _void(cells: Mapping[str, list[Cell]], cancelled: set[str]) -> dict[str, list[Cell]]:
    """The cells with every game against a cancelled entrant made ``CANCELLED`` (it
    scores nothing and counts for nobody)."""
    out = {}
    for entrant, row in cells.items():
        out[entrant] = [
            Cell(c.round, CANCELLED, c.mates, c.seat)
            if c.kind in (GAME, FORFEIT, PENDING)
            and (entrant in cancelled or set(c.mates) & cancelled)
            else c
            for c in row
        ]
    return out


def _ranked(
    entrants: Sequence[str],
    cells: Mapping[str, Sequence[Cell]],
    tiebreaks: Sequence[str],
    cancelled: set[str],
) -> list[Row]:
    """The rows of ``entrants``, ranked by points then ``tiebreaks``."""
    totals = {e: sum(c.points for c in row) for e, row in cells.items()}
    found = {(e, c.round): c for e, row in cells.items() for c in row if c.kind in (GAME, FORFEIT)}
    rows = [_row(e, cells.get(e, ()), totals, found, tiebreaks) for e in dict.fromkeys(entrants)]
    ranked = [r for r in rows if r.entrant not in cancelled]
    ranked.sort(key=lambda r: _key(r))
    ranks = shared_ranks([_key(r) for r in ranked])
    out = [_with_rank(r, rank) for r, rank in zip(ranked, ranks)]
    return out + [r for r in rows if r.entrant in cancelled]


def _key(row: Row) -> tuple:
    return (-round(row.points, PRECISION),) + tuple(-round(v, PRECISION) for _, v in row.tiebreaks)


def _with_rank(row: Row, rank: int) -> Row:
    return Row(
        rank, row.entrant, row.points, row.games, row.wins, row.forfeits, row.byes,
        row.tiebreaks, row.cells,
    )  # fmt: skip


def _row(
    entrant: str,
    row: Sequence[Cell],
    totals: Mapping[str, float],
    found: Mapping[tuple[str, int], Cell],
    tiebreaks: Sequence[str],
) -> Row:
    """One entrant's row, unranked."""
    mine = totals.get(entrant, 0.0)
    buchholz = sonneborn = head = 0.0
    wins = won = lost = 0
    for cell in row:
        if cell.kind not in (GAME, FORFEIT):
            continue
        beaten = [m for m in cell.mates if _versus(cell, found.get((m, cell.round))) > 0]
        if cell.kind == FORFEIT:
            won += not cell.forfeited
            lost += cell.forfeited
        wins += len(beaten) == len(cell.mates)
        for mate in cell.mates:
            score = _versus(cell, found.get((mate, cell.round)))
            if round(totals.get(mate, 0.0), PRECISION) == round(mine, PRECISION):
                head += (score + 1) / 2
        if cell.kind == GAME:
            mates_total = sum(totals.get(m, 0.0) for m in cell.mates)
            buchholz += mates_total
            sonneborn += cell.points * mates_total
    values = {"buchholz": buchholz, "sonneborn_berger": sonneborn, "head_to_head": head}
    values["wins"] = float(wins)
    byes = {k: 0 for k in (PAIRING_BYE, HALF_BYE, FULL_BYE, ZERO_BYE)}
    for cell in row:
        if cell.kind in byes:
            byes[cell.kind] += 1
    return Row(
        rank=None,
        entrant=entrant,
        points=mine,
        games=sum(1 for c in row if c.kind == GAME),
        wins=wins,
        forfeits=(won, lost),
        byes=tuple(byes.items()),
        tiebreaks=tuple((name, values[name]) for name in tiebreaks),
        cells=tuple(row),
    )


def _versus(cell: Cell, other: Cell | None) -> int:
    """1 when the cell's entrant finished above ``other``'s, 0 level, -1 below."""
    if other is None:
        return 0
    if cell.forfeited or other.forfeited:
        return (not cell.forfeited) - (not other.forfeited)
    return (cell.place < other.place) - (cell.place > other.place)


def cell_label(cell: Cell, numbers: Mapping[str, int]) -> str:
    """A crosstable entry: a 2-player game as opponent number, colour and result
    ("5w1", "12b=", "3w+" forfeit won, "3b-" lost); a k-player game as place and table
    size ("2/4", "-/4" forfeited); a bye by its letter ("U", "H", "F", "Z"); "" absent,
    "x" cancelled, "..." being played."""
    if cell.kind in (PAIRING_BYE, HALF_BYE, FULL_BYE, ZERO_BYE):
        return cell.kind
    if cell.kind == CANCELLED:
        return "x"
    if cell.kind == PENDING:
        return "..."
    if cell.kind not in (GAME, FORFEIT):
        return ""
    if len(cell.mates) == 1:
        return f"{numbers[cell.mates[0]]}{'wb'[cell.seat]}{cell.outcome()}"
    place = "-" if cell.forfeited else cell.place
    return f"{place}/{len(cell.mates) + 1}"
