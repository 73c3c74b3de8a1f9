"""A Space Worm state rebuilt from a seat's view, for the search bots.

Nothing is hidden in Space Worm (rules/space-worm.md has no hidden information), so a
view holds the whole state: :func:`complete` only undoes the reshaping of ``view.py``
(cells as ``[row, column]``, dice as records). There is nothing to deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import clone
from engines.space_worm.sheet import get_sheet


def complete(view: Mapping[str, Any]) -> dict:
    """Return the state that ``view`` (``view.view(state, seat)``) was drawn from."""
    sheet = get_sheet(view["sheet"]["name"])
    return {
        "sheet": sheet.name,
        "players": view["players"],
        "phase": view["phase"],
        "round": view["round"],
        "start_player": view["start_player"],
        "to_move": view["to_move"],
        "start_roll_rule": view["start_roll_rule"],
        "hungriest": view["hungriest_seat"],
        "start_roll": clone(view["start_roll"]),
        "start_planet": view["start_planet"],
        "start_rolls": clone(view["start_rolls"]),
        "dice": [d["pips"] for d in view["dice"]],
        "taken": [d["taken_by"] for d in view["dice"]],
        "tracks": {kind: list(t["open"]) for kind, t in view["tracks"].items()},
        "claims": [dict(c) for c in view["claims"]],
        "sheets": [_sheet(sheet.width, s) for s in view["sheets"]],
        "result": clone(view["result"]),
    }


def _sheet(width: int, seat_view: Mapping[str, Any]) -> dict:
    """Return one seat's sheet state from its view (``view._player``)."""
    return {
        "path": [row * width + col for row, col in seat_view["path"]],
        "hearts": seat_view["hearts"],
        "planets": list(seat_view["planets"]),
        "fruit": {
            kind: {"eaten": f["eaten"], "plus": f["plus"], "scored": f["scored"]}
            for kind, f in seat_view["fruit"].items()
        },
    }
