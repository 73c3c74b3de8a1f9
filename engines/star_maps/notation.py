"""The text notation for mails and logs: ``star 4 write 2 at B7``, ``connect C3``, ``pass``.

Grammar (keywords and ids are case-insensitive; ``parse(describe(m)) == m`` for every move)::

    move    := action (" + " bonus)*  |  "pass"  |  "choose " BONUS  |  "choose none"
    action  := "star " DIE " write " DIE " at " BOX  |  "connect " CONNECTION
    bonus   := BONUS " at " BOX                          (echo)
             | BONUS " connect " CONNECTION              (bridge)
             | BONUS " star " DIE " write " DIE " at " BOX   (nudge, reprise, comet)

``star 4`` names the die whose value picks the star type (rules/star-maps.md, "Using the
Dice", step 1), ``write 2`` the other die's value and ``at B7`` the box (step 2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engines.base import InvalidMove, shown
from engines.star_maps.turn import read_move

HELP = (
    "One line per move. Use the dice: 'star 4 write 2 at B7' (die 4 picks the star type, "
    "the other die's 2 goes in box B7). Make a connection: 'connect C3'. Add a bonus "
    "after a move that found the last star of a type: '... + bridge connect C5', "
    "'... + echo at A2', '... + nudge star 3 write 5 at A4'. After the game the losers "
    "vote: 'choose echo', or 'choose none'. 'pass' only when you can do nothing."
)
"""The notation help shown by the API and in mails (plain text)."""

_ID = r"([A-Za-z][A-Za-z0-9]*)"
_WRITE = re.compile(r"^star\s+(\d+)\s+write\s+(\d+)\s+at\s+" + _ID + "$", re.I)
_CONNECT = re.compile(r"^connect\s+" + _ID + "$", re.I)
_AT = re.compile(r"^at\s+" + _ID + "$", re.I)
_BONUS = re.compile(r"^([A-Za-z][A-Za-z0-9-]*)\s+(.*)$")
_CHOOSE = re.compile(r"^choose\s+([A-Za-z][A-Za-z0-9-]*)$", re.I)


def describe(move: Mapping) -> str:
    """Return a move in notation (``star 4 write 2 at B7 + echo at A2``)."""
    act = move["act"]
    if act == "pass":
        return "pass"
    if act == "choose-bonus":
        return f"choose {move['bonus']}"
    text = _describe_part(move)
    for use in move.get("bonuses", []):
        text += f" + {use['bonus']} {_describe_part(use)}"
    return text


def words(move: Mapping, past: bool = True) -> str:
    """Return ``move`` as a person says it after the player's name: ``wrote 2 in box
    B7 (a 4 star)``, ``marked connection C3``, ``passed``, ``voted for echo`` (without
    ``past``: ``write 2 in box B7 (a 4 star)``...)."""
    verb = {v: (v if past else now) for v, now in _PRESENT.items()}
    act = move["act"]
    if act == "pass":
        return verb["passed"]
    if act == "choose-bonus":
        return f"{verb['voted']} for {move['bonus']}"
    text = _part_words(move, verb)
    for use in move.get("bonuses", []):
        text += f", and {verb['used']} the {use['bonus']} bonus: {_part_words(use, verb)}"
    return text


_PRESENT = {"passed": "pass", "voted": "vote", "used": "use", "marked": "mark", "wrote": "write"}


def _part_words(part: Mapping, verb: dict) -> str:
    if "connection" in part:
        return f"{verb['marked']} connection {part['connection']}"
    if "star" in part:
        return f"{verb['wrote']} {part['write']} in box {part['box']} (a {part['star']} star)"
    return f"{verb['marked']} box {part['box']}"


def _describe_part(part: Mapping) -> str:
    if "connection" in part:
        return f"connect {part['connection']}"
    if "star" in part:
        return f"star {part['star']} write {part['write']} at {part['box']}"
    return f"at {part['box']}"


def parse(text: str) -> dict:
    """Read a move written in notation.

    :raises InvalidMove: ``bad-move`` with a hint of the notation.
    """
    if not isinstance(text, str):
        raise InvalidMove("bad-move", "A move in notation is a line of text.")
    line = " ".join(text.split())
    head, *tail = [p.strip() for p in line.split("+")]
    if head.lower() == "pass" and not tail:
        return read_move({"act": "pass"})
    choose = _CHOOSE.match(head)
    if choose and not tail:
        return read_move({"act": "choose-bonus", "bonus": choose.group(1).lower()})
    move = _parse_part(head)
    if move is None or "box" in move and "star" not in move:
        raise _unreadable(line)
    move = {"act": "dice" if "star" in move else "connect", **move}
    uses = []
    for part in tail:
        found = _BONUS.match(part)
        use = _parse_part(found.group(2)) if found else None
        if use is None:
            raise _unreadable(line)
        uses.append({"bonus": found.group(1).lower(), **use})
    if uses:
        move["bonuses"] = uses
    return read_move(move)


def _parse_part(text: str) -> dict | None:
    if found := _WRITE.match(text):
        return {
            "star": int(found.group(1)),
            "write": int(found.group(2)),
            "box": found.group(3).upper(),
        }
    if found := _CONNECT.match(text):
        return {"connection": found.group(1).upper()}
    if found := _AT.match(text):
        return {"box": found.group(1).upper()}
    return None


def _unreadable(line: str) -> InvalidMove:
    return InvalidMove("bad-move", f"Cannot read {shown(line)}. {HELP}")
