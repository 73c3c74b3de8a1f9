"""What a seat sees of a Space Worm game: everything, since nothing is hidden.

All sheets, dice and tracks are public in Space Worm (rules/space-worm.md has no hidden
information); the view only reshapes the state into something a client can draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.space_worm import rules
from engines.space_worm.scoring import breakdown


def _player(sheet: Any, seat: int, player: Mapping[str, Any]) -> dict:
    """Return one seat's sheet: path, position, Hearts, fruit progress, score so far."""
    path = [sheet.coords(c) for c in player["path"]]
    fruit = {
        f.type: {
            "spaces": len(f.spaces),
            "eaten": player["fruit"][f.type]["eaten"],
            "plus": player["fruit"][f.type]["plus"],
            "scored": player["fruit"][f.type]["scored"],
        }
        for f in sheet.fruits
    }
    return {
        "seat": seat,
        "position": path[-1] if path else None,
        "path": path,
        "hearts": player["hearts"],
        "hearts_left": sheet.hearts - player["hearts"],
        "planets": list(player["planets"]),
        "fruit": fruit,
        "score": breakdown(sheet, player),
    }


def view(state: Mapping[str, Any], seat: int | None) -> dict:
    """Return the public view of the game for ``seat`` (``None``: a spectator).

    ``{"you", "sheet": {name, title, rows, fruits, dice_colours, hearts}, "players",
    "phase", "round", "start_player", "to_move", "start_roll_rule" ("each" or "shared"),
    "hungriest_seat", "start_roll", "start_planet" (the shared roll; null with "each"),
    "start_rolls" (each seat's start roll, null until rolled),
    "dice": [{"die", "colour", "pips", "taken_by"}], "tracks": {type: {"track",
    "open", "next"}}, "claims", "sheets": [...], "result"}``. Every seat sees the same,
    apart from ``you``.
    """
    sheet = rules.sheet_of(state)
    dice = [
        {"die": i, "colour": sheet.dice_colours[i], "pips": pips, "taken_by": state["taken"][i]}
        for i, pips in enumerate(state["dice"])
    ]
    tracks = {
        f.type: {
            "track": list(f.track),
            "open": list(state["tracks"][f.type]),
            "next": (state["tracks"][f.type] or [0])[0],
        }
        for f in sheet.fruits
    }
    return {
        "you": seat,
        "sheet": {
            "name": sheet.name,
            "title": sheet.title,
            "rows": list(sheet.rows),
            "fruits": [
                {"type": f.type, "symbol": f.symbol, "colour": f.colour} for f in sheet.fruits
            ],
            "dice_colours": list(sheet.dice_colours),
            "hearts": sheet.hearts,
        },
        "players": state["players"],
        "phase": state["phase"],
        "round": state["round"],
        "start_player": state["start_player"],
        "to_move": state["to_move"],
        "start_roll_rule": state.get("start_roll_rule", rules.SHARED),
        "hungriest_seat": state.get("hungriest", 0),
        "start_roll": state["start_roll"],
        "start_planet": state["start_planet"],
        "start_rolls": state.get("start_rolls") or [state["start_roll"]] * state["players"],
        "dice": dice,
        "tracks": tracks,
        "claims": [dict(c) for c in state["claims"]],
        "sheets": [_player(sheet, s, p) for s, p in enumerate(state["sheets"])],
        "result": state["result"],
    }
