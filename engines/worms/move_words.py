"""Worms moves as a person says them (``Engine.move_words``): ``jumped to 3,-1``,
``played Bazooka at 2,0``, ``placed Map Tile A at 1,-2, turned 3 sixths``; as an
order for a button without ``past`` (``jump to 3,-1``). A move with no words of its
own (an order of effects) is said in its notation."""

from __future__ import annotations

from engines.hexgrid import DIRECTION_NAMES
from engines.worms.notation import describe

VERBS = {
    "activated": "activate",
    "inched": "inch",
    "jumped": "jump",
    "played": "play",
    "placed the Target": "place the Target",
    "picked": "pick",
    "placed": "place",
    "skipped": "skip",
    "chose": "choose",
    "prodded": "prod",
    "let the Timer run out": "let the Timer run out",
    "turned it towards": "turn it towards",
}


def _hex(at: list) -> str:
    return f"{at[0]},{at[1]}"


def _direction(d: int) -> str:
    return f"{d} ({DIRECTION_NAMES.get(d, '?')})"


def words(move: dict, past: bool = True) -> str:
    """Return ``move`` in words (see the module docstring).

    :raises InvalidMove: not a Worms move.
    """
    v = {done: (done if past else now) for done, now in VERBS.items()}
    kind = move.get("move") if isinstance(move, dict) else None
    name = str(move.get("card", "")).replace("-", " ").title() if kind else ""
    said = {
        "activate": lambda: f"{v['activated']} worm {move['worm']}",
        "inch": lambda: f"{v['inched']} towards {_direction(move['dir'])}",
        "jump": lambda: f"{v['jumped']} to {_hex(move['to'])}",
        "play": lambda: (
            f"{v['played']} {name}"
            + (f" at {_hex(move['at'])}" if "at" in move else "")
            + (f", towards {_direction(move['dir'])}" if "dir" in move else "")
        ),
        "target": lambda: (
            f"{v['placed the Target']} on {_hex(move['at'])}"
            + (f", towards {_direction(move['dir'])}" if "dir" in move else "")
        ),
        "pick": lambda: f"{v['picked']} die {move['die']}",
        "tile": lambda: (
            f"{v['placed']} Map Tile {move['tile']} at {_hex(move['at'])}, " + _turned(move["rot"])
        ),
        "place": lambda: f"{v['placed']} {_thing(move['thing'])} at {_hex(move['at'])}",
        "skip": lambda: v["skipped"],
        "choose": lambda: f"{v['chose']} {name}",
        "prod": lambda: f"{v['prodded']} {move['id']}",
        "time-up": lambda: v["let the Timer run out"],
        "direction": lambda: f"{v['turned it towards']} {_direction(move['dir'])}",
    }
    try:
        return said[kind]()
    except (KeyError, TypeError, IndexError):
        return describe(move)


def _turned(rot: int) -> str:
    """Return a Map Tile's turn in words."""
    if rot == 0:
        return "as drawn"
    return f"turned {rot} sixth{'s' if rot > 1 else ''} of a turn clockwise"


def _thing(thing: str) -> str:
    """Return a Thing from the pile in words: a team's colour is one of its worms."""
    if thing in ("blue", "red", "yellow", "green"):
        return f"a {thing} worm"
    return {"drum": "an oil drum", "crate": "a supply crate", "mine": "a mine"}.get(
        thing, f"a {thing}"
    )
