"""Playing by clicking the board: every legal move of the seat, with the places of the
picture a player clicks to make it (the engine's ``board_targets``: ``["die:3",
"dir:up"]``) and the move in words, for ``static/board.js``.

The page carries them as a JSON data block (not a script: the Content-Security-Policy
runs none inline); the script highlights the places that begin a legal move, narrows
the moves with each click, and posts the same form as the move buttons once one move
is left (or offers the few that remain, in words). Without JavaScript the buttons are
the control. Nothing here knows a rule: the moves are the engine's legal moves (a
decision described by its parts is expanded, :mod:`engines.move_parts`).
"""

from __future__ import annotations

import json
import re

from arbiter.games import naming
from engines import move_parts

MOST = 5000
"""More moves than this are not offered on the board (the list stays)."""


def all_moves(legal: dict) -> list:
    """Return every legal move of a ``reading.legal_moves`` answer: the listed ones and
    those its parts describe (an example of a part is listed too: counted once)."""
    seen, out = set(), []
    expanded = [m for p in legal.get("parts") or [] for m in move_parts.expand(p)]
    for move in [*legal.get("moves", []), *expanded]:
        key = json.dumps(move, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


PLACE = re.compile(r'\bdata-place="([^"]+)"')


def drawn(places: list[str], svg: str) -> list[str]:
    """Return the first ``places`` up to one the picture does not draw (a hex of the
    open sea a Worms picture leaves out): the rest is chosen from the moves left."""
    shown = set(PLACE.findall(svg))
    out = []
    for place in places:
        if place not in shown:
            break
        out.append(place)
    return out


def clickable(engine, view: dict, legal: dict, svg: str) -> str | None:
    """Return the JSON data block of the moves a player can make on the board picture
    ``svg`` (each ``{"move": JSON text, "words": str, "places": [...]}``, and
    ``"preview"`` when the engine draws the move on the picture before it is confirmed,
    ``Engine.board_preview``, with a shape the picture defines), or None when none is
    made by clicking (the engine names no places, or the moves are too many)."""
    moves = all_moves(legal)
    if len(moves) > MOST:
        return None
    rows = []
    names = {s: n for s, n in enumerate(view.get("names") or []) if n}
    for move in moves:
        places = drawn(engine.board_targets(view, move), svg)
        row = {"move": json.dumps(move), "words": words(engine, move, names), "places": places}
        shown = engine.board_preview(view, move)
        if shown and f'id="{shown["shape"]}"' in svg:
            row["preview"] = shown
        rows.append(row)
    if not any(r["places"] for r in rows):
        return None
    return json.dumps(rows).replace("<", "\\u003c")


def words(engine, move, names: dict[int, str] | None = None) -> str:
    """Return a move in words as a button offers it (the engine's ``move_words``,
    ``Play Ladybug ±1 forward``), the first letter capital, a seat it names written
    as its player's name (``names``: ``choose Bob``, not ``choose seat 2``)."""
    text = naming.named(engine.move_words(move, past=False), names or {})
    return text[:1].upper() + text[1:]
