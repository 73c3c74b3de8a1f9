"""Given-helpers for Space Worm tests: build positions on a sheet without playing them out.

Coordinates are ``(row, column)`` from the top left of the sheet, as in the sheet file.

``level1`` (invented default sheet, ``engines/space_worm/sheets/level1.json``)::

       col 012345678
    row 0   1..a...b2      Planets 1..8; fruit: a apple (red), b banana (yellow),
    row 1   .....g...      g grape (purple), l lime (green)
    row 2   .l.....a.
    row 3   ...3.....      start roll sums: 2,3 -> 1; 4,5 -> 2; 6 -> 3; 7 -> 4;
    row 4   b.....4.l      8 -> 5; 9 -> 6; 10 -> 7; 11,12 -> 8
    row 5   ..g.5....
    row 6   .......g.      dice 0,1 red; 2,3 yellow; 4,5 purple; 6,7 green
    row 7   .a..l.6..
    row 8   7..b....8
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.space_worm import ENGINE
from engines.space_worm.sheet import get_sheet

RED, YELLOW, PURPLE, GREEN = 0, 2, 4, 6
"""Index of the first die of each colour on level1 (the second is index + 1)."""


def cell(r: int, c: int, sheet: str = "level1") -> int:
    """Return the cell index of ``(r, c)`` on ``sheet``."""
    return r * get_sheet(sheet).width + c


def started(players: int = 3, roll: tuple[int, int] = (3, 4), sheet: str = "level1") -> dict:
    """Return a game after a shared start roll (option ``start_roll: shared``; default
    sum 7: Planet 4 at (4, 6)), so that every worm starts on the same Planet."""
    options = {"sheet": sheet, "start_roll": "shared"}
    state = ENGINE.setup(players, ENGINE.load_options(players, options))
    return ENGINE.resolve(state, list(roll))


def rolled(state: dict, dice: Iterable[int]) -> dict:
    """Return ``state`` after the round's roll of the 8 dice."""
    return ENGINE.resolve(state, list(dice))


def game(
    players: int = 3,
    dice: Iterable[int] = (1,) * 8,
    roll: tuple[int, int] = (3, 4),
    sheet: str = "level1",
) -> dict:
    """Return a game in its first round's draft, the given dice rolled."""
    return rolled(started(players, roll, sheet), dice)


def place(
    state: dict,
    seat: int,
    path: Iterable[tuple[int, int]],
    hearts: int = 0,
    plus: dict | None = None,
    scored: dict | None = None,
) -> dict:
    """Return ``state`` with seat's worm having gone along ``path`` (last = position).

    Planets and fruit eaten are recounted from the path; +1 marks and scored fruit
    are as given (default none).
    """
    sheet = get_sheet(state["sheet"])
    cells = [r * sheet.width + c for r, c in path]
    planets = sorted({sheet.planet_at[c] for c in cells if c in sheet.planet_at})
    fruit = {}
    for f in sheet.fruits:
        fruit[f.type] = {
            "eaten": len(f.spaces & set(cells)),
            "plus": (plus or {}).get(f.type, 0),
            "scored": (scored or {}).get(f.type),
        }
    sheets = list(state["sheets"])
    sheets[seat] = {"path": cells, "hearts": hearts, "planets": planets, "fruit": fruit}
    return dict(state, sheets=sheets)


def play(state: dict, seat: int, text: str) -> dict:
    """Return ``state`` after ``seat`` plays the move written ``text`` (``die 3 up``)."""
    return ENGINE.play(state, seat, ENGINE.parse(text, state, seat))


def position(state: dict, seat: int) -> tuple[int, int]:
    """Return seat's worm position as ``(row, column)``."""
    sheet = get_sheet(state["sheet"])
    return divmod(state["sheets"][seat]["path"][-1], sheet.width)


def to_move(state: dict) -> int:
    """Return the seat to move (fails when the game does not wait for a move)."""
    return ENGINE.prompt(state).seats[0]
