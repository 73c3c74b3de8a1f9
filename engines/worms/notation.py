"""The Worms move notation: one short line per decision, read back exactly.

==============================  ===========================================================
text                            move (JSON)
==============================  ===========================================================
``activate B2``                 ``{"move": "activate", "worm": "B2"}``
``inch 3``                      ``{"move": "inch", "dir": 3}``
``jump 3,-1``                   ``{"move": "jump", "to": [3, -1]}``
``play sheep``                  ``{"move": "play", "card": "sheep"}``
``play bazooka at 2,0``         ``{"move": "play", "card": "bazooka", "at": [2, 0]}``
``play air-strike at 2,0 dir 3``  ``... "at": [2, 0], "dir": 3}``
``target 2,0`` (``dir 3``)      ``{"move": "target", "at": [2, 0]}``
``pick die 3`` / ``pick die wind``  ``{"move": "pick", "die": 3}`` / ``"wind"``
``order worms B1 R2``           ``{"move": "order", "what": "worms", "ids": ["B1", "R2"]}``
``prod B1``                     ``{"move": "prod", "id": "B1"}``
``direction 4``                 ``{"move": "direction", "dir": 4}``
``tile A at 1,-2 rot 3``        ``{"move": "tile", "tile": "A", "at": [1, -2], "rot": 3}``
``place blue at 1,2``           ``{"move": "place", "thing": "blue", "at": [1, 2]}``
``choose firestorm``            ``{"move": "choose", "card": "firestorm"}``
``time-up``                     ``{"move": "time-up"}``
``skip``                        ``{"move": "skip"}``
==============================  ===========================================================

Hexes are axial ``q,r`` (engines/hexgrid.py); directions 1..6 as on the Wind Dial.
Players read :data:`HELP` (plain text, for the API and mails), not this docstring.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from engines.base import InvalidMove, shown

_MOVES_HELP = """\
One move per line. Hexes are written q,r (like 2,-1); directions are 1 to 6 as on the
Wind Dial. Worms are named by team and number (B1, R2), other Things by kind and number
(crate1, mine2).
  activate B2                     activate your worm B2
  inch 3                          inch to the next hex in direction 3
  jump 3,-1                       jump to hex 3,-1 (one or two hexes away)
  play sheep                      play a card whose text does not start with a target
  play bazooka at 2,0             play a card and target hex 2,0
  play air-strike at 2,0 dir 3    play an Air Strike on hex 2,0 in direction 3
  target 2,0                      target hex 2,0 (an Air Strike adds: dir 3)
  pick die 3                      keep an Accuracy die (pick die wind, pick die bullseye)
  order worms B1 R2               the order of things that happen at once (also order
                                  things ..., order effects ...)
  prod B1                         prod a worm or Thing out of a full hex
  direction 4                     the direction of a Knockback after a Bullseye"""

_SETUP_HELP = """
  tile A at 1,-2 rot 3            setup: place Map Tile A with its anchor at 1,-2, turned
                                  3 sixths clockwise
  place blue at 1,2               setup: place a Thing from the pile (blue, red, yellow,
                                  green worms; drum, crate, mine) on hex 1,2
  choose firestorm                Sudden Death Draft: keep that Sudden Death card
  time-up                         Timer: end the turn now (it jumps to End turn)"""

_SKIP_HELP = """
  skip                            skip an optional step"""

HELP = _MOVES_HELP + _SETUP_HELP + _SKIP_HELP
"""The notation help shown by the API and in mails (plain text)."""

FIRST_GAME_HELP = _MOVES_HELP + _SKIP_HELP
"""The help of the rules versions that had only the first-game setup and no Timer (no
setup or Timer moves)."""

EXAMPLES = {
    "activate": "activate B2",
    "inch": "inch 3",
    "jump": "jump 3,-1",
    "play": "play bazooka at 2,0",
    "target": "target 2,0",
    "pick": "pick die 3",
    "order": "order worms B1 R2",
    "prod": "prod B1",
    "direction": "direction 4",
    "tile": "tile A at 1,-2 rot 3",
    "place": "place blue at 1,2",
    "choose": "choose firestorm",
    "time-up": "time-up",
    "skip": "skip",
}
"""One move of each verb, in notation, for error texts."""

ORDER_GROUPS = ("worms", "things", "effects")
FACES = ("wind", "bullseye")


def _hex(text: str) -> list[int]:
    m = re.fullmatch(r"(-?\d+),(-?\d+)", text)
    if not m:
        raise InvalidMove("bad-move", f"A hex is written q,r (like 2,-1), not {shown(text)}.")
    return [int(m.group(1)), int(m.group(2))]


def _dir(text: str) -> int:
    if not re.fullmatch(r"[1-6]", text):
        raise InvalidMove("bad-move", f"A direction is 1 to 6, not {shown(text)}.")
    return int(text)


def _thing_id(text: str) -> str:
    return text.upper() if re.fullmatch(r"[a-zA-Z]\d+", text) else text.lower()


def _at(words: list[str], move: dict) -> dict:
    """Read ``at q,r [dir d]`` into ``move``."""
    if not words:
        return move
    if words[0] != "at" or len(words) not in (2, 4):
        raise InvalidMove("bad-move", "Expected 'at q,r' or 'at q,r dir d'.")
    move["at"] = _hex(words[1])
    if len(words) == 4:
        if words[2] != "dir":
            raise InvalidMove("bad-move", "Expected 'dir d' after the hex.")
        move["dir"] = _dir(words[3])
    return move


def parse(text: str) -> dict:
    """Read one move.

    :raises InvalidMove: ``bad-move`` when the text is not a move.
    """
    words = str(text).strip().split()
    if not words:
        raise InvalidMove("bad-move", "An empty move.")
    verb, rest = words[0].lower(), words[1:]
    low = [w.lower() for w in rest]
    if verb == "skip" and not rest:
        return {"move": "skip"}
    if verb == "time-up" and not rest:
        return {"move": "time-up"}
    if verb == "activate" and len(rest) == 1:
        return {"move": "activate", "worm": _thing_id(rest[0])}
    if verb == "inch" and len(rest) == 1:
        return {"move": "inch", "dir": _dir(rest[0])}
    if verb == "jump" and len(rest) == 1:
        return {"move": "jump", "to": _hex(rest[0])}
    if verb == "play" and rest:
        return _at(low[1:], {"move": "play", "card": low[0]})
    if verb == "target" and rest:
        return _at(["at", *low], {"move": "target"})
    if verb == "pick" and len(low) == 2 and low[0] == "die":
        die = low[1]
        if die in FACES:
            return {"move": "pick", "die": die}
        return {"move": "pick", "die": _dir(die)}
    if verb == "order" and len(low) >= 2 and low[0] in ORDER_GROUPS:
        return {"move": "order", "what": low[0], "ids": [_thing_id(w) for w in rest[1:]]}
    if verb == "prod" and len(rest) == 1:
        return {"move": "prod", "id": _thing_id(rest[0])}
    if verb == "direction" and len(rest) == 1:
        return {"move": "direction", "dir": _dir(rest[0])}
    if verb == "tile" and len(rest) == 5 and low[1] == "at" and low[3] == "rot":
        if not re.fullmatch(r"[0-5]", low[4]):
            raise InvalidMove("bad-move", f"A rotation is 0 to 5, not {shown(rest[4])}.")
        return {"move": "tile", "tile": rest[0].upper(), "at": _hex(low[2]), "rot": int(low[4])}
    if verb == "place" and len(rest) == 3 and low[1] == "at":
        return {"move": "place", "thing": low[0], "at": _hex(low[2])}
    if verb == "choose" and len(rest) == 1:
        return {"move": "choose", "card": low[0]}
    raise InvalidMove("bad-move", f"Cannot read {shown(text)} as a Worms move.")


def describe(move: dict) -> str:
    """Return a move in notation (:func:`parse` reads it back).

    :raises InvalidMove: not a Worms move.
    """
    try:
        kind = move["move"]
        if kind in ("skip", "time-up"):
            return kind
        if kind == "activate":
            return f"activate {move['worm']}"
        if kind == "inch":
            return f"inch {move['dir']}"
        if kind == "jump":
            return f"jump {move['to'][0]},{move['to'][1]}"
        if kind in ("play", "target"):
            head = f"play {move['card']}" if kind == "play" else "target"
            if "at" in move:
                at = f"{move['at'][0]},{move['at'][1]}"
                head = f"{head} at {at}" if kind == "play" else f"{head} {at}"
                if "dir" in move:
                    head += f" dir {move['dir']}"
            return head
        if kind == "pick":
            return f"pick die {move['die']}"
        if kind == "order":
            return " ".join(["order", move["what"], *move["ids"]])
        if kind == "prod":
            return f"prod {move['id']}"
        if kind == "direction":
            return f"direction {move['dir']}"
        if kind == "tile":
            return f"tile {move['tile']} at {move['at'][0]},{move['at'][1]} rot {move['rot']}"
        if kind == "place":
            return f"place {move['thing']} at {move['at'][0]},{move['at'][1]}"
        if kind == "choose":
            return f"choose {move['card']}"
    except (KeyError, TypeError, IndexError):
        pass
    raise InvalidMove("bad-move", f"Not a Worms move: {shown(move)}.")


def check(move) -> dict:
    """Return ``move`` when it is a well-formed Worms move: a JSON object that
    :func:`describe` writes and :func:`parse` reads back unchanged.

    :raises InvalidMove: ``bad-move``, showing the move and a right one of its verb.
    """
    try:
        if isinstance(move, dict) and _read(describe(move)) == move:
            return move
    except InvalidMove:
        pass
    if not isinstance(move, dict):
        raise InvalidMove("bad-move", f"A Worms move is a JSON object, not {shown(move)}.")
    verb = move.get("move")
    if isinstance(verb, str) and verb in EXAMPLES:
        hint = f"for example {json.dumps(parse(EXAMPLES[verb]))}"
    else:
        hint = f'"move" is one of {", ".join(EXAMPLES)}'
    raise InvalidMove("bad-move", f"Not a well-formed Worms move: {shown(move)}; {hint}.")


@lru_cache(maxsize=4096)
def _read(text: str) -> dict:
    """Return :func:`parse` of a move's notation, remembered for :func:`check` alone,
    which only compares it (a playout checks the same few moves again and again; an
    error is raised each time, never remembered).

    :raises InvalidMove: ``bad-move`` when the text is not a move.
    """
    return parse(text)
