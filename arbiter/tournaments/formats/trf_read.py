"""Reading a Tournament Report File (the records ``trf`` writes): players, their rounds
as ``history.Cell`` values, the scoring, the number of rounds and the byes set for the
next round. Column positions and codes as in ``trf``'s docstring (C.04 Annex 2, TRF-2016
and TRF26); the ``001`` record's letter codes are read case-insensitively, ``W``/``D``/
``L`` (a game of less than one move) as 1/=/0, a blank result as ``Z``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arbiter.tournaments.formats.history import ABSENT, FORFEIT, GAME, Cell
from arbiter.tournaments.formats.model import PAIRING_BYE, ZERO_BYE, Scoring


@dataclass
class TrfEvent:
    """What a TRF says.

    players: start ranks in file order; names, ratings, points, ranks by start rank;
    cells: {start rank: [Cell per round]} (opponents named by start rank as strings);
    upcoming: {start rank: letter} from ``240`` records for the round after the last
    written; total_rounds: ``142``/``XXR`` (0 when absent); initial_colour: "w"/"b"/None.
    """

    players: list[str] = field(default_factory=list)
    names: dict = field(default_factory=dict)
    ratings: dict = field(default_factory=dict)
    points: dict = field(default_factory=dict)
    ranks: dict = field(default_factory=dict)
    cells: dict = field(default_factory=dict)
    upcoming: dict = field(default_factory=dict)
    byes: list = field(default_factory=list)
    total_rounds: int = 0
    initial_colour: str | None = None
    scoring: Scoring = field(default_factory=lambda: Scoring((1.0, 0.0), 1.0))
    comments: list = field(default_factory=list)


def read_trf(text: str) -> TrfEvent:
    """The ``TrfEvent`` of a TRF text. Raises ValueError for a malformed ``001`` or
    ``240`` record."""
    event = TrfEvent()
    values = {"W": 1.0, "D": 0.5, "L": 0.0, "P": None}
    raw: dict[str, list[tuple[str, str, str]]] = {}
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        tag = line[:3]
        if tag == "001":
            rank = _player(line, event, raw)
            event.players.append(rank)
        elif tag == "240":
            event.byes.append(line)
        elif tag in ("142", "XXR"):
            event.total_rounds = int(line[4:].strip())
        elif tag == "152":
            event.initial_colour = line[4:].strip().lower()[:1]
        elif tag == "XXC" and event.initial_colour is None:
            words = line[4:].split()
            if "white1" in words or "black1" in words:
                event.initial_colour = "w" if "white1" in words else "b"
        elif tag == "162":
            for i in range(5, len(line.rstrip()), 9):
                values[line[i]] = float(line[i + 1 : i + 5])
        elif tag == "###":
            event.comments.append(line)
    win, draw, loss = values["W"], values["D"], values["L"]
    event.scoring = Scoring((win, loss), win if values["P"] is None else values["P"])
    if abs((win + loss) / 2 - draw) > 1e-9:
        raise ValueError(f"a draw worth {draw} is not between a win and a loss")
    event.cells = {rank: _cells(rank, blocks, event.scoring) for rank, blocks in raw.items()}
    written = max((len(c) for c in event.cells.values()), default=0)
    for row in event.cells.values():
        row.extend(Cell(n, ABSENT) for n in range(len(row) + 1, written + 1))
    _upcoming(event)
    return event


def _player(line: str, event: TrfEvent, raw: dict) -> str:
    """Read one ``001`` record; return its start rank (as a string)."""
    if len(line) < 84:
        raise ValueError(f"a player record is too short: {line!r}")
    rank = str(int(line[4:8]))
    event.names[rank] = line[14:47].strip()
    rating = line[48:52].strip()
    event.ratings[rank] = int(rating) if rating else None
    event.points[rank] = float(line[80:84])
    event.ranks[rank] = int(line[85:89]) if line[85:89].strip() else None
    blocks = []
    for start in range(91, len(line.rstrip()), 10):
        block = line[start : start + 8].ljust(8)
        blocks.append((block[0:4], block[5], block[7]))
    raw[rank] = blocks
    return rank


def _cells(rank: str, blocks: list, scoring: Scoring) -> list[Cell]:
    """One player's rounds."""
    win, loss = scoring.place_points
    cells = []
    for number, (opponent, colour, code) in enumerate(blocks, start=1):
        code = code.upper()
        other = opponent.strip()
        if other in ("", "0000") or code in "UHFZ ":
            kind = {"U": PAIRING_BYE, "H": "H", "F": "F", "Z": ZERO_BYE, " ": ZERO_BYE}[code]
            if kind == ZERO_BYE and other in ("", "0000") and code == "Z":
                kind = ABSENT if colour == "-" else ZERO_BYE
            points = scoring.bye_value(kind) if kind != ABSENT else 0.0
            cells.append(Cell(number, kind, points=points))
            continue
        seat = {"w": 0, "b": 1}.get(colour.lower())
        mates = (str(int(other)),)
        if code in "+-":
            points = win if code == "+" else 0.0
            versus = 1 if code == "+" else -1
            cells.append(Cell(number, FORFEIT, mates, seat, None, points, code == "-", versus))
            continue
        versus = {"1": 1, "W": 1, "=": 0, "D": 0, "0": -1, "L": -1}.get(code)
        if versus is None:
            raise ValueError(f"player {rank}, round {number}: unknown result {code!r}")
        place = {1: 1, 0: 1, -1: 2}[versus]
        points = {1: win, 0: (win + loss) / 2, -1: loss}[versus]
        cells.append(Cell(number, GAME, mates, seat, place, points, versus=versus))
    return cells


def _upcoming(event: TrfEvent) -> None:
    """The ``240`` records of the round after the last written, into ``upcoming``."""
    written = max((len(c) for c in event.cells.values()), default=0)
    for line in event.byes:
        kind, number = line[4], int(line[6:9])
        if number != written + 1:
            continue
        for start in range(10, len(line.rstrip()), 5):
            event.upcoming[str(int(line[start : start + 4]))] = kind
