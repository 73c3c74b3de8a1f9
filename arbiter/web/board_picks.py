"""Picking on the board: the places of a board picture that a legal move names become
links, and following one narrows the page's moves to those that name it.

Engines mark the places they draw with data attributes (``data-hex="2,-1"`` on a Worms
hex, ``data-box="B7"`` on a Star Maps box, ``data-die="3"`` on a Space Worm die); a
place is pickable when its name (the hex or box as written, ``die N`` for a die)
appears as a word in the notation of one of the seat's legal moves. A pick is a plain
link (``?pick=...``), so it works without JavaScript, and the moves stay listed in
full one click away. Nothing here knows a rule: it matches the engine's own notation.
"""

from __future__ import annotations

import re
from html import escape
from urllib.parse import quote

PLACE = re.compile(r'<(polygon|rect|circle)\b[^>]*\bdata-(hex|box|die)="([^"]+)"[^>]*/>')
"""A self-closing element of a picture marked as a place."""


def place_name(kind: str, value: str) -> str:
    """Return how the notation names a place: ``die 3`` for a die, else its value."""
    return f"die {value}" if kind == "die" else value


def names(pick: str, notation: str) -> bool:
    """True when ``notation`` names ``pick`` as a whole word (``2,0`` is not in
    ``12,0`` or ``2,-1``... only ``2,0`` itself)."""
    return re.search(rf"(?<![\w,\-]){re.escape(pick)}(?![\w,])", notation) is not None


def linked(svg: str, notations: list[str]) -> str:
    """Return ``svg`` with every place that some move in ``notations`` names wrapped in
    a link that picks it (the picture's role becomes ``group``: an image may not hold
    controls; its title and description still name it)."""

    def wrap(found: re.Match) -> str:
        pick = place_name(found.group(2), found.group(3))
        if not any(names(pick, n) for n in notations):
            return found.group(0)
        return (
            f'<a class="pick" href="?pick={quote(pick)}#moves-h" '
            f'aria-label="Pick {escape(pick)}">{found.group(0)}</a>'
        )

    out = PLACE.sub(wrap, svg)
    if out != svg:  # a picture with links is a group of controls, no longer an image
        out = out.replace(' role="img"', ' role="group"', 1)
    return out


def narrowed(moves: list, pick: str | None) -> tuple[list, bool]:
    """Return the moves whose notation names ``pick`` and True, or every move and
    False when there is no pick or no move names it. ``moves`` have ``.text``."""
    if not pick:
        return moves, False
    chosen = [m for m in moves if names(pick, m.text)]
    return (chosen, True) if chosen else (moves, False)
