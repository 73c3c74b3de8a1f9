"""FIDE Tournament Report File (TRF) export of a 2-player tournament, readable while it
runs: by rating programs, by TRF parsers and by pairing engines (bbpPairings reads every
file we write, the tests check it).

Layout from the FIDE Handbook, C.04 Annex 2 (TRF-2016, Elista 2015) and its 2026 version
(TRF26, applied from 1 September 2025, which adds the records for in-tournament exchange
with pairing engines); columns are 1-based:
- tournament records, text from column 5: ``012`` name, ``042`` date of start, ``062``
  number of players, ``092`` type, ``142`` number of rounds (TRF26), ``152`` the initial
  colour (TRF26: the colour of the top seed in round 1), ``162`` the scoring when it is
  not FIDE's (TRF26: W win, D draw, L loss, P pairing-allocated bye), ``192``
  ``FIDE_DUTCH_2025`` for a Swiss paired by the Dutch rules (TRF26); and for JaVaFo and
  older readers the TRF(x) lines ``XXR`` (rounds), ``XXC white1|black1`` and ``XXS`` (the
  scoring as W=, D=, WL=, BL=, PAB=, FPB=, HPB=, ZPB=, FL=).
- one ``001`` record per entrant: starting rank 5-8 (the pairing number: rating, then
  entry order), name 15-47 (33 characters), rating 49-52 (when known), points 81-84
  (``11.5``), rank 86-89 (shared by complete ties); then per round r a 10-column block
  at 92 + 10*(r-1): the opponent's starting rank (``0000`` for none), the colour (``w``
  seat 0, ``b`` seat 1, ``-`` none), the result: ``1`` ``=`` ``0`` played, ``+`` / ``-``
  forfeit won / lost, ``U`` pairing-allocated bye, ``H`` half-point bye, ``F`` full-point
  bye, ``Z`` zero-point bye or absent (not entered yet, withdrawn).
- rounds are written up to the last one whose every game has a result (or
  ``after_round``). The format has no code for a game not finished (blank means ``Z``,
  an absence), so the round being played is not in the ``001`` records; its pairings
  (and results so far) are ``###`` comment lines (TRF26 Remark 1), and the byes set for
  it (requested, and ``Z`` for entrants absent from it) are TRF26 ``240`` records, which
  is what a pairing engine reads to pair that round.
Lines end with CR LF (TRF: each line ends with a carriage return).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from arbiter.tournaments.formats.crosstable import table_ranks
from arbiter.tournaments.formats.history import ABSENT, BYE_KINDS, PENDING, Cell, record
from arbiter.tournaments.formats.model import (
    FULL_BYE,
    HALF_BYE,
    REQUESTED_BYES,
    ZERO_BYE,
    GameResult,
    Round,
    Scoring,
)
from arbiter.tournaments.formats.scoring import default_scoring

NAME_WIDTH = 33
MAX_ENTRANTS = 9999
MAX_POINTS = 99.9
SWISS = "Individual: Swiss-System"
DUTCH_CODE = "FIDE_DUTCH_2025"


def trf_export(
    name: str,
    start_date: str,
    entrants: Sequence[tuple[str, str]],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
    scoring: Scoring | None = None,
    tournament_type: str = SWISS,
    *,
    total_rounds: int | None = None,
    ratings: Mapping[str, float] | None = None,
    after_round: int | None = None,
    upcoming_byes: Mapping[str, str] | None = None,
    upcoming_absent: Collection[str] = (),
    initial_colour: str = "w",
) -> str:
    """The TRF text of a 2-player tournament (see the module for what it holds).

    Takes the name, the start date (``YYYY/MM/DD``), the entrants as (id, display name)
    in starting-rank order (every entrant who took part or takes part: withdrawn ones
    too), the rounds paired so far, the results of their finished games, the scoring
    (default ``default_scoring(2)``), the ``092`` type (``SWISS`` adds ``192
    FIDE_DUTCH_2025``), the number of rounds (default: those paired), the ratings, the
    last round to write (default: the last complete one), and for the round after it,
    when it is not paired yet, the byes set for it ({entrant: "H" | "F" | "Z"}) and the
    entrants absent from it (withdrawn: written as ``Z``), and the top seed's colour in
    round 1 (``w`` or ``b``). Returns the file's text.
    Raises ValueError when a table does not have 2 players, a player is not an entrant,
    there are more than 9999 entrants, ``after_round`` is not complete, or a score is
    not a multiple of 0.1 below 100 (the format's ``11.5``).
    """
    scoring = scoring or default_scoring(2)
    if len(entrants) > MAX_ENTRANTS:
        raise ValueError(f"TRF numbers at most {MAX_ENTRANTS} players, not {len(entrants)}")
    ids = [e for e, _ in entrants]
    _check_rounds(rounds, set(ids))
    last = _last_complete(rounds, results)
    if after_round is not None:
        if after_round > last:
            raise ValueError(f"round {after_round} is not over (the last one over is {last})")
        last = after_round
    cells = record(ids, rounds, results, scoring, upto=last)
    ranks, points = table_ranks(ids, cells)
    start = {e: i + 1 for i, e in enumerate(ids)}
    lines = _header(name, start_date, len(ids), tournament_type, scoring, rounds, total_rounds)
    lines.append(f"152 {'W' if initial_colour == 'w' else 'B'}")
    lines.append(f"XXC {'white1' if initial_colour == 'w' else 'black1'}")
    ratings = ratings or {}
    for entrant, display in entrants:
        line = (
            f"001 {start[entrant]:>4}      {display[:NAME_WIDTH]:<{NAME_WIDTH}} "
            f"{_rating(ratings.get(entrant))}{'':28}{_points(points[entrant])} "
            f"{ranks[entrant]:>4}"
        )
        for cell in cells[entrant]:
            line += "  " + _block(cell, start)
        lines.append(line)
    total = total_rounds or max((r.number for r in rounds), default=0)
    if last < total or any(r.number > last for r in rounds):
        lines += _upcoming(last + 1, rounds, results, ids, start, upcoming_byes, upcoming_absent)
    return "\r\n".join(lines) + "\r\n"


def _check_rounds(rounds: Sequence[Round], known: set[str]) -> None:
    """Raises ValueError for a table of other than 2 players or an unknown player."""
    for rnd in rounds:
        for table in rnd.tables:
            if len(table.players) != 2:
                raise ValueError(
                    f"round {rnd.number}: TRF is for 2-player games, a table "
                    f"has {len(table.players)}"
                )
        named = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
        named += [e for e, _ in rnd.requested_byes]
        for player in named:
            if player not in known:
                raise ValueError(f"round {rnd.number}: {player} is not an entrant")


def _last_complete(rounds: Sequence[Round], results: Sequence[GameResult]) -> int:
    """The last round n such that rounds 1..n are paired and every game has a result."""
    done = {(r.round, tuple(r.players)) for r in results}
    paired = {r.number: r for r in rounds}
    n = 0
    while n + 1 in paired and all((n + 1, tuple(t.players)) in done for t in paired[n + 1].tables):
        n += 1
    return n


def _header(
    name: str,
    start_date: str,
    count: int,
    kind: str,
    scoring: Scoring,
    rounds: Sequence[Round],
    total: int | None,
) -> list[str]:
    """The tournament records."""
    total = total or max((r.number for r in rounds), default=0)
    lines = [f"012 {name}", f"042 {start_date}", f"062 {count}", f"092 {kind}"]
    if total:
        lines += [f"142 {total}", f"XXR {total}"]
    if kind == SWISS:
        lines.append(f"192 {DUTCH_CODE}")
    win, loss = scoring.place_points[0], scoring.place_points[-1]
    draw, bye = scoring.half_bye, scoring.bye_points
    if (win, draw, loss, bye) != (1.0, 0.5, 0.0, 1.0):
        values = {"W": win, "D": draw, "L": loss, "P": bye}
        lines.append("162  " + "    ".join(f"{k}{_points(v)}" for k, v in values.items()))
        lines.append(
            f"XXS W={win:g} D={draw:g} WL={loss:g} BL={loss:g} PAB={bye:g} "
            f"FPB={win:g} HPB={draw:g} ZPB=0 FL=0"
        )
    return lines


def _points(value: float) -> str:
    """Points in the format's ``11.5`` (4 columns). Raises ValueError when they do not
    fit."""
    tenths = round(value * 10)
    if abs(value * 10 - tenths) > 1e-6 or not 0 <= value <= MAX_POINTS:
        raise ValueError(f"the TRF writes points in tenths from 0 to 99.9, not {value}")
    return f"{tenths / 10:>4.1f}"


def _rating(value: float | None) -> str:
    """The rating in 4 columns (blank when unknown)."""
    if value is None:
        return "    "
    return f"{min(max(round(value), 0), 9999):>4}"


def _block(cell: Cell, start: Mapping[str, int]) -> str:
    """The 8 columns of one round: opponent, colour, result."""
    if cell.kind in BYE_KINDS:
        return f"0000 - {cell.kind}"
    if cell.kind in (ABSENT, PENDING):
        return "0000 - Z"
    return f"{start[cell.opponent]:>4} {'wb'[cell.seat]} {cell.outcome()}"


def _upcoming(
    number: int,
    rounds: Sequence[Round],
    results: Sequence[GameResult],
    ids: Sequence[str],
    start: Mapping[str, int],
    byes: Mapping[str, str] | None,
    absent: Collection[str],
) -> list[str]:
    """``240`` records of round ``number``'s set byes and absences, and ``###`` lines
    with its pairings if it is paired."""
    paired = {r.number: r for r in rounds}.get(number)
    lines: list[str] = []
    if paired is not None:
        seated = {p for t in paired.tables for p in t.players} | set(paired.byes)
        byes = dict(paired.requested_byes)
        absent = [e for e in ids if e not in seated and e not in byes]
        lines.append(f"### round {number} is being played (white - black: result so far)")
        done = {(r.round, tuple(r.players)): r for r in results}
        for table in paired.tables:
            white, black = table.players
            result = done.get((number, tuple(table.players)))
            lines.append(f"### {start[white]:>4} - {start[black]:>4}: {_so_far(result)}")
        for entrant in paired.byes:
            lines.append(f"### {start[entrant]:>4} pairing-allocated bye")
    letters = dict(byes or {})
    for entrant in absent:
        letters.setdefault(entrant, ZERO_BYE)
    for kind in (FULL_BYE, HALF_BYE, ZERO_BYE):
        chosen = sorted(start[e] for e, k in letters.items() if k == kind)
        for i in range(0, len(chosen), 10):
            players = "".join(f" {n:>4}" for n in chosen[i : i + 10])
            lines.append(f"240 {kind} {number:>3}{players}")
    unknown = set(letters.values()) - set(REQUESTED_BYES)
    if unknown:
        raise ValueError(f"no requested bye is called {sorted(unknown)}")
    return lines


def _so_far(result: GameResult | None) -> str:
    """A game of the round being played, for a comment line."""
    if result is None:
        return "being played"
    if result.forfeited:
        return "forfeit"
    a, b = result.places
    return "1-0" if a < b else "0-1" if a > b else "draw"
