"""A Star Maps state rebuilt from a seat's view, for the search bots.

Star Maps hides nothing (every sheet is public, the dice are announced aloud; see
``view.py``), so a view holds the whole state and :func:`complete` only reads it back.
There is nothing to deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import clone


def complete(view: Mapping[str, Any]) -> dict:
    """Return the state that ``view`` (``view.view(game, state, seat)``) was drawn from."""
    return {
        "sheet": view["sheet"]["id"],
        "players": len(view["sheets"]),
        "unlocked": list(view["unlocked_bonuses"]),
        "phase": view["phase"],
        "round": view["round"],
        "roll": clone(view["roll"]),
        "answered": list(view["answered"]),
        "stuck": list(view["cannot_move"]),
        "marks": [
            {
                "boxes": dict(s["boxes"]),
                "connections": list(s["connections"]),
                "bonuses_used": list(s["bonuses_used"]),
            }
            for s in view["sheets"]
        ],
        "voters": list(view["voters"]),
        "votes": list(view["votes"]),
        "result": clone(view["result"]),
        "unlocks": clone(view["unlocked_in_play"]),
    }
