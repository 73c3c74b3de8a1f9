"""FIDE TRF-16 export of a 2-player tournament (the Tournament Report File).

Layout from the FIDE Handbook C.04 Annex 2, "TRF16" (Krause, approved Elista 2015); columns
are 1-based:
- tournament section: ``012`` name, ``042`` date of start, ``062`` number of players,
  ``092`` type of tournament, one line each, text from column 5;
- one ``001`` player line per entrant: starting rank in 5-8, name in 15-47 (cut to 33
  characters), points in 81-84 (``11.5``), rank in 86-89; then per round r (from 1) a
  10-column block at 92 + 10*(r-1): the opponent's starting rank in 4 digits (``0000``
  for a bye or not paired), a space, the colour (``w`` seat 0, ``b`` seat 1, ``-`` none),
  a space, the result (``1`` win, ``=`` draw, ``0`` loss, ``U`` pairing-allocated bye,
  ``Z`` not paired: withdrawn or not yet entered; blank: the game has no result yet).
Sex, title, rating, federation, FIDE number and birth date are left blank (we have none).
Lines end with CR LF (the format asks for a carriage return at the end of each line).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from arbiter.tournaments.model import GameResult, Round, Scoring
from arbiter.tournaments.scoring import default_scoring
from arbiter.tournaments.standings import standings

NAME_WIDTH = 33
MAX_ENTRANTS = 9999


def trf_export(
    name: str,
    start_date: str,
    entrants: Sequence[tuple[str, str]],
    rounds: Sequence[Round],
    results: Sequence[GameResult],
    scoring: Scoring | None = None,
    tournament_type: str = "Individual: Swiss-System",
) -> str:
    """The TRF-16 text of a 2-player tournament.

    Takes the tournament's name, its start date (``YYYY/MM/DD`` as TRF writes dates),
    the entrants as (id, display name) in starting-rank order (1 first; include withdrawn
    entrants), the rounds paired so far, the results of their games, and the scoring
    (default: ``default_scoring(2)``) and the ``092`` type line (e.g. "Individual:
    Round-Robin"). Returns the file's text.
    Raises ValueError when a table does not have 2 players, a player is not among the
    entrants, or there are more than 9999 entrants.
    """
    scoring = scoring or default_scoring(2)
    if len(entrants) > MAX_ENTRANTS:
        raise ValueError(f"TRF numbers at most {MAX_ENTRANTS} players, not {len(entrants)}")
    start_rank = {entrant: i + 1 for i, (entrant, _) in enumerate(entrants)}
    for rnd in rounds:
        for table in rnd.tables:
            if len(table.players) != 2:
                raise ValueError(
                    f"round {rnd.number}: TRF is for 2-player games, a table "
                    f"has {len(table.players)}"
                )
        for player in [p for t in rnd.tables for p in t.players] + list(rnd.byes):
            if player not in start_rank:
                raise ValueError(f"round {rnd.number}: {player} is not an entrant")
    byes = Counter(p for rnd in rounds for p in rnd.byes)
    rows = {row.entrant: row for row in standings(list(start_rank), results, byes, scoring)}
    outcome = {(r.round, p): r for r in results for p in r.players}
    lines = [f"012 {name}", f"042 {start_date}", f"062 {len(entrants)}", f"092 {tournament_type}"]
    ordered = sorted(rounds, key=lambda r: r.number)
    for entrant, display in entrants:
        row = rows[entrant]
        line = (
            f"001 {start_rank[entrant]:>4}      {display[:NAME_WIDTH]:<{NAME_WIDTH}}"
            f"{'':33}{row.points:>4.1f} {row.rank:>4}"
        )
        for rnd in ordered:
            line += "  " + _round_block(entrant, rnd, outcome, start_rank)
        lines.append(line)
    return "\r\n".join(lines) + "\r\n"


def _round_block(entrant: str, rnd: Round, outcome: dict, start_rank: dict) -> str:
    """The 8 columns of one round for one player: opponent, colour, result."""
    if entrant in rnd.byes:
        return "0000 - U"
    for table in rnd.tables:
        if entrant in table.players:
            seat = table.players.index(entrant)
            opponent = table.players[1 - seat]
            result = outcome.get((rnd.number, entrant))
            code = " "
            if result is not None:
                place = dict(zip(result.players, result.places))
                mine, theirs = place[entrant], place[opponent]
                code = "1" if mine < theirs else "=" if mine == theirs else "0"
            return f"{start_rank[opponent]:>4} {'wb'[seat]} {code}"
    return "0000 - Z"
