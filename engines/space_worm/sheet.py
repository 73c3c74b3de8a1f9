"""The Space Worm sheet as data: grid, Planets, fruit spaces, fruit tracks, die colours.

Every sheet is a JSON file in ``engines/space_worm/sheets/`` (see ``level1.json`` for the
format); this module reads and checks them all once, at import, into frozen
:class:`Sheet` values. A cell is addressed by its index ``row * width + column`` (row 0
at the top), which is how a worm's path is kept in the game state.

Nothing here is a rule of play; the rules live in ``rules.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

DIRECTIONS: tuple[str, ...] = ("up", "right", "down", "left")
"""The four ways a worm can draw its line, clockwise from up; this order is the order
of the legal moves (rules/space-worm.md, "Turns": "a horizontal or vertical line")."""

STEPS: Mapping[str, tuple[int, int]] = {
    "up": (-1, 0),
    "right": (0, 1),
    "down": (1, 0),
    "left": (0, -1),
}
"""Row and column change of one step in each direction."""

EMPTY = "."
GAP = "#"
DEFAULT_SHEET = "level1"
"""The sheet a game uses when the option ``sheet`` is not given."""


class SheetError(ValueError):
    """A sheet file that does not describe a playable sheet (raised at load)."""


@dataclass(frozen=True)
class Fruit:
    """One fruit type of a sheet (rules/space-worm.md, "Fruit").

    :param type: its name (``apple``); :param symbol: its letter on the map;
    :param colour: the colour of the dice that earn its +1 marks;
    :param track: the shared score track, highest number first;
    :param spaces: the cells of its fruit spaces.
    """

    type: str
    symbol: str
    colour: str
    track: tuple[int, ...]
    spaces: frozenset[int]


@dataclass(frozen=True)
class Sheet:
    """A checked sheet, with look-up tables precomputed for fast play.

    :param name: the sheet's name (its file name without ``.json``);
    :param title: a human title; :param rows: the map rows as in the file;
    :param width: columns; :param height: rows;
    :param planet_at: cell -> Planet number; :param planet_cell: Planet number -> cell;
    :param fruits: the fruit types in file order; :param fruit_at: cell -> fruit type;
    :param start_by_sum: sum of the start roll -> Planet number;
    :param die_faces: faces of every die; :param dice_colours: colour of each die, by index;
    :param hearts: Hearts per player;
    :param rays: ``rays[cell][direction]`` = the cells met going that way, in order,
        up to the edge of the map (or the first gap in it).
    :param data: the file's JSON, for views and documentation.
    """

    name: str
    title: str
    rows: tuple[str, ...]
    width: int
    height: int
    planet_at: Mapping[int, int]
    planet_cell: Mapping[int, int]
    fruits: tuple[Fruit, ...]
    fruit_at: Mapping[int, str]
    start_by_sum: Mapping[int, int]
    die_faces: int
    dice_colours: tuple[str, ...]
    hearts: int
    rays: tuple[Mapping[str, tuple[int, ...]], ...]
    data: Mapping[str, Any]

    def fruit(self, fruit_type: str) -> Fruit:
        """Return the fruit type named ``fruit_type``.

        :raises KeyError: no such fruit type on this sheet.
        """
        for fruit in self.fruits:
            if fruit.type == fruit_type:
                return fruit
        raise KeyError(fruit_type)

    def coords(self, cell: int) -> list[int]:
        """Return ``[row, column]`` of a cell index."""
        return [cell // self.width, cell % self.width]

    @property
    def planets(self) -> list[int]:
        """Return the Planet numbers of the sheet, ascending."""
        return sorted(self.planet_cell)


# --------------------------------------------------------------------------- loading


def _check(condition: bool, name: str, message: str) -> None:
    if not condition:
        raise SheetError(f"sheet {name!r}: {message}")


def _section(data: Mapping[str, Any], key: str, name: str) -> Mapping[str, Any]:
    section = data.get(key)
    _check(isinstance(section, dict), name, f"missing section {key!r}")
    _check(
        "invented" in section and "source" in section,
        name,
        f"section {key!r} must say whether it is invented and give its source",
    )
    return section


def _rays(name: str, rows: tuple[str, ...]) -> tuple[dict[str, tuple[int, ...]], ...]:
    height, width = len(rows), len(rows[0])
    rays = []
    for cell in range(width * height):
        row, col = divmod(cell, width)
        by_direction = {}
        for direction in DIRECTIONS:
            d_row, d_col = STEPS[direction]
            r, c, line = row + d_row, col + d_col, []
            while 0 <= r < height and 0 <= c < width and rows[r][c] != GAP:
                line.append(r * width + c)
                r, c = r + d_row, c + d_col
            by_direction[direction] = tuple(line)
        rays.append(by_direction)
    return tuple(rays)


def parse_sheet(name: str, data: Mapping[str, Any]) -> Sheet:
    """Check a sheet's JSON data and return it as a :class:`Sheet`.

    Checks: a rectangular map whose symbols are all known; Planets numbered 1..N, each
    once; every sum of two dice mapped to exactly one existing Planet; every fruit type
    with a symbol, a colour, at least one space and a non-empty non-increasing track;
    every die colour the colour of a fruit type; every section marked ``invented`` or
    not with a ``source``.

    :raises SheetError: the data is not a playable sheet, with the reason.
    """
    _check(isinstance(data, dict), name, "a sheet is a JSON object")
    _check(
        "invented" in data and "source" in data,
        name,
        "the sheet must say whether it is invented and give its source",
    )
    grid = _section(data, "map", name)
    rows = tuple(grid.get("rows") or ())
    _check(
        bool(rows) and all(isinstance(r, str) and r for r in rows),
        name,
        "map.rows must be non-empty strings",
    )
    width, height = len(rows[0]), len(rows)
    _check(all(len(r) == width for r in rows), name, "map rows must all have one length")

    fruit_section = _section(data, "fruit", name)
    types = fruit_section.get("types") or []
    _check(len(types) >= 1, name, "fruit.types must list the fruit types")
    by_symbol: dict[str, dict] = {}
    for entry in types:
        _check(
            all(k in entry for k in ("type", "symbol", "colour", "track")),
            name,
            f"fruit type {entry!r} needs type, symbol, colour and track",
        )
        symbol = entry["symbol"]
        _check(
            isinstance(symbol, str) and len(symbol) == 1 and symbol.isalpha(),
            name,
            f"fruit symbol {symbol!r} must be one letter",
        )
        _check(symbol not in by_symbol, name, f"fruit symbol {symbol!r} used twice")
        track = entry["track"]
        _check(
            bool(track)
            and all(isinstance(v, int) and v >= 0 for v in track)
            and list(track) == sorted(track, reverse=True),
            name,
            f"track of {entry['type']!r} must be non-negative numbers, highest first",
        )
        by_symbol[symbol] = entry
    _check(len({e["type"] for e in types}) == len(types), name, "fruit types must differ")

    planet_at: dict[int, int] = {}
    fruit_cells: dict[str, set[int]] = {e["type"]: set() for e in types}
    fruit_at: dict[int, str] = {}
    for row, line in enumerate(rows):
        for col, symbol in enumerate(line):
            cell = row * width + col
            if symbol in (EMPTY, GAP):
                continue
            if symbol.isdigit():
                _check(
                    int(symbol) not in planet_at.values(), name, f"Planet {symbol} appears twice"
                )
                planet_at[cell] = int(symbol)
            else:
                _check(symbol in by_symbol, name, f"unknown map symbol {symbol!r}")
                fruit_type = by_symbol[symbol]["type"]
                fruit_at[cell] = fruit_type
                fruit_cells[fruit_type].add(cell)
    numbers = sorted(planet_at.values())
    _check(
        numbers == list(range(1, len(numbers) + 1)) and numbers,
        name,
        "Planets must be numbered 1..N, each once",
    )
    for fruit_type, cells in fruit_cells.items():
        _check(bool(cells), name, f"fruit {fruit_type!r} has no space on the map")

    dice = _section(data, "dice", name)
    faces = dice.get("faces")
    colours = tuple(dice.get("colours") or ())
    _check(isinstance(faces, int) and faces >= 1, name, "dice.faces must be a positive number")
    _check(bool(colours), name, "dice.colours must list one colour per die")
    fruit_colours = {e["colour"] for e in types}
    _check(
        all(c in fruit_colours for c in colours),
        name,
        "every die colour must be the colour of a fruit type",
    )

    planets = _section(data, "planets", name)
    by_sum_raw = planets.get("start_by_sum") or {}
    start_by_sum = {int(k): v for k, v in by_sum_raw.items()}
    _check(
        sorted(start_by_sum) == list(range(2, 2 * faces + 1)),
        name,
        f"planets.start_by_sum must map every sum 2..{2 * faces} exactly once",
    )
    _check(
        all(v in numbers for v in start_by_sum.values()),
        name,
        "planets.start_by_sum must name Planets on the map",
    )

    hearts = _section(data, "hearts", name).get("count")
    _check(isinstance(hearts, int) and hearts >= 1, name, "hearts.count must be positive")

    fruits = tuple(
        Fruit(
            e["type"],
            e["symbol"],
            e["colour"],
            tuple(e["track"]),
            frozenset(fruit_cells[e["type"]]),
        )
        for e in types
    )
    return Sheet(
        name=name,
        title=str(data.get("title", name)),
        rows=rows,
        width=width,
        height=height,
        planet_at=planet_at,
        planet_cell={n: c for c, n in planet_at.items()},
        fruits=fruits,
        fruit_at=fruit_at,
        start_by_sum=start_by_sum,
        die_faces=faces,
        dice_colours=colours,
        hearts=hearts,
        rays=_rays(name, rows),
        data=data,
    )


def load_sheets(files: Iterable[Any]) -> dict[str, Sheet]:
    """Read and check sheet files (paths or importlib resources ending in ``.json``).

    Returns ``{name: Sheet}``, the name being the file name without ``.json``.

    :raises SheetError: a file is not a playable sheet.
    """
    sheets = {}
    for file in files:
        if not file.name.endswith(".json"):
            continue
        name = file.name[: -len(".json")]
        data = json.loads(file.read_text(encoding="utf-8"))
        _check(data.get("name", name) == name, name, "its name must match its file name")
        sheets[name] = parse_sheet(name, data)
    return sheets


def load_directory(directory: Path | Any) -> dict[str, Sheet]:
    """Return every sheet in ``directory`` (a path or importlib resource), by name.

    :raises SheetError: a file is not a playable sheet.
    """
    return load_sheets(sorted(directory.iterdir(), key=lambda f: f.name))


SHEETS: Mapping[str, Sheet] = load_directory(resources.files("engines.space_worm.sheets"))
"""Every bundled sheet, by name, read once at import."""


def get_sheet(name: str) -> Sheet:
    """Return the bundled sheet called ``name``.

    :raises KeyError: no bundled sheet has that name.
    """
    return SHEETS[name]
