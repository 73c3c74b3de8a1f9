"""The Space Worm move as JSON, and reading one safely.

A move takes one of this round's dice, by its index ``0..7`` in the roll, and either
draws the worm's line with it or colours a Heart (rules/space-worm.md, "Turns"):

- ``{"die": 3, "direction": "up"}``: draw a line of that die's pips, ``direction`` one
  of ``up``, ``right``, ``down``, ``left`` (up is towards row 0);
- ``{"die": 5, "heart": true}``: take the die and colour a Heart, allowed only when
  that die cannot be moved in any direction.
"""

from __future__ import annotations

from typing import Any

from engines.base import InvalidMove, shown
from engines.space_worm.sheet import DIRECTIONS

MOVE_KEYS = frozenset({"die", "direction"})
HEART_KEYS = frozenset({"die", "heart"})


def line_move(die: int, direction: str) -> dict:
    """Return the move that draws a line with die ``die`` towards ``direction``."""
    return {"die": die, "direction": direction}


def heart_move(die: int) -> dict:
    """Return the move that takes die ``die`` and colours a Heart."""
    return {"die": die, "heart": True}


def read_move(move: Any) -> tuple[int, str | None]:
    """Check a move's shape; return ``(die, direction)``, direction ``None`` for a Heart.

    Only the shape is checked here (whether the die exists, is free, or can move
    is for ``rules.py``).

    :raises InvalidMove: ``bad-move`` when it is not one of the two move shapes.
    """
    if not isinstance(move, dict):
        raise InvalidMove(
            "bad-move",
            'A move is an object such as {"die": 3, "direction": '
            '"up"} or {"die": 5, "heart": true}.',
        )
    keys = frozenset(move)
    die = move.get("die")
    if type(die) is not int:
        raise InvalidMove("bad-move", 'A move must name a die by its number, e.g. "die": 3.')
    if keys == MOVE_KEYS:
        direction = move["direction"]
        if direction not in DIRECTIONS:
            raise InvalidMove(
                "bad-move",
                f"The direction must be one of {', '.join(DIRECTIONS)}, not {shown(direction)}.",
            )
        return die, direction
    if keys == HEART_KEYS:
        if move["heart"] is not True:
            raise InvalidMove("bad-move", 'To colour a Heart, send "heart": true.')
        return die, None
    raise InvalidMove(
        "bad-move",
        'A move has "die" and either "direction" or "heart": '
        f"true, and nothing else; got the keys {shown(sorted(keys))}.",
    )
