"""Standings as CSV (RFC 4180), safe to open in a spreadsheet.

- Numbers are written as numbers (``2.5``, ``3``); a yes/no as ``1``/``0``, never
  ``True``/``False``; nothing (no rank, no value) as an empty cell.
- Text that a spreadsheet would run as a formula, a cell beginning with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return, gets a leading ``'`` (the escape OWASP's
  "CSV Injection" page recommends, which spreadsheet tools show as plain text).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Mapping, Sequence

from arbiter.tournaments.formats.crosstable import Row, cell_label

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """One CSV cell: numbers as numbers, booleans as 1/0, None as empty, text escaped."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A header line, then the rows, every cell through ``cell``; lines end CR LF."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([cell(h) for h in header])
    for row in rows:
        writer.writerow([cell(v) for v in row])
    return out.getvalue()


def standings_csv(
    rows: Sequence[Row], names: Mapping[str, str], withdrawn: Collection[str] = ()
) -> str:
    """The standings (``crosstable`` rows, best first) as CSV: no (the line number the
    crosstable refers to), rank, entry, name, points, games, wins, forfeits won and
    lost, the byes by letter, the tie-breaks in their order, withdrawn (1/0), then one
    column per round (``crosstable.cell_label``, opponents by line number)."""
    numbers = {row.entrant: i for i, row in enumerate(rows, start=1)}
    tiebreaks = [name for name, _ in rows[0].tiebreaks] if rows else []
    rounds = max((len(row.cells) for row in rows), default=0)
    header = ["no", "rank", "entry", "name", "points", "games", "wins"]
    header += ["forfeits_won", "forfeits_lost", "byes_U", "byes_H", "byes_F", "byes_Z"]
    header += tiebreaks + ["withdrawn"] + [f"R{n}" for n in range(1, rounds + 1)]
    lines = []
    for row in rows:
        byes = dict(row.byes)
        line = [numbers[row.entrant], row.rank, row.entrant, names.get(row.entrant, "")]
        line += [row.points, row.games, row.wins, *row.forfeits]
        line += [byes.get(k, 0) for k in ("U", "H", "F", "Z")]
        line += [value for _, value in row.tiebreaks]
        line += [row.entrant in withdrawn]
        line += [cell_label(c, numbers) for c in row.cells]
        lines.append(line)
    return csv_text(header, lines)
