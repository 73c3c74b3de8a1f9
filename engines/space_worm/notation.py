"""Space Worm move notation for mails and logs, and the "your turn" brief.

Notation (case-insensitive, spaces free): ``die 3 up``, ``die 3 right``, ``die 3 down``,
``die 3 left`` draw a line with die 3; ``die 5 heart`` takes die 5 and colours a Heart.
Dice are numbered 0 to 7 in the order of the roll, as in the JSON move. The word
``die`` may be left out, and a direction or ``heart`` may be shortened to its first
letter (``3 u``, ``5 h``); :func:`describe` always writes the long form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engines.base import InvalidMove, shown
from engines.space_worm import rules
from engines.space_worm.moves import heart_move, line_move, read_move
from engines.space_worm.sheet import DIRECTIONS

HELP = (
    "A move is 'die N DIRECTION' with N the die's number (0 to 7, in roll order) "
    "and DIRECTION one of up, right, down, left, e.g. 'die 3 up'; or 'die N heart' "
    "to take a die that cannot move and colour a Heart, e.g. 'die 5 heart'."
)
"""The notation help shown by the API and in mails."""

_WORDS = {
    **{d: d for d in DIRECTIONS},
    **{d[0]: d for d in DIRECTIONS},
    "heart": "heart",
    "h": "heart",
}
_PATTERN = re.compile(r"^\s*(?:die\s*)?#?\s*(\d+)\s*[:,]?\s*([a-z]+)\s*\.?\s*$")


def describe(move: Any) -> str:
    """Return ``move`` in notation (``die 3 up``, ``die 5 heart``).

    :raises InvalidMove: ``bad-move`` when it is not a well-formed move.
    """
    die, direction = read_move(move)
    return f"die {die} {direction or 'heart'}"


def words(move: Any, past: bool = True) -> str:
    """Return ``move`` as a person says it: ``took die 3 and went up``, ``took die 5
    and coloured a Heart`` (without ``past``: ``take die 3 and go up``).

    :raises InvalidMove: ``bad-move`` when it is not a well-formed move.
    """
    die, direction = read_move(move)
    if not past:
        return f"take die {die} and " + (f"go {direction}" if direction else "colour a Heart")
    return f"took die {die} and " + (f"went {direction}" if direction else "coloured a Heart")


def parse(text: Any) -> dict:
    """Read a move written in notation and return it as JSON.

    :raises InvalidMove: ``bad-move`` when the text is not a move in notation.
    """
    if not isinstance(text, str):
        raise InvalidMove("bad-move", "A move in notation is text such as 'die 3 up'.")
    found = _PATTERN.match(text.lower())
    word = _WORDS.get(found.group(2)) if found else None
    if word is None:
        raise InvalidMove("bad-move", f"Cannot read {shown(text)} as a move. {HELP}")
    die = int(found.group(1))
    return heart_move(die) if word == "heart" else line_move(die, word)


def _where(sheet: Any, cell: int) -> str:
    row, col = sheet.coords(cell)
    planet = sheet.planet_at.get(cell)
    on = f", on Planet {planet}" if planet else ""
    return f"row {row + 1}, column {col + 1}{on}"


def dice_text(state: Mapping[str, Any], available_only: bool = True) -> str:
    """Return this round's dice as text, e.g. ``die 0: red 4, die 3: yellow 6``.

    Taken dice are left out unless ``available_only`` is False (then they show who
    took them).
    """
    sheet = rules.sheet_of(state)
    parts = []
    for die, pips in enumerate(state["dice"]):
        owner = state["taken"][die]
        if owner is None:
            parts.append(f"die {die}: {sheet.dice_colours[die]} {pips}")
        elif not available_only:
            parts.append(f"die {die}: {sheet.dice_colours[die]} {pips} (seat {owner})")
    return ", ".join(parts) or "none"


def brief(state: Mapping[str, Any], seat: int) -> str:
    """Return a few lines for seat's "your turn" mail: dice left and position (the mail
    lists the legal moves itself, once).

    When it is not that seat's turn, says so and what the game waits for.
    """
    sheet = rules.sheet_of(state)
    player = state["sheets"][seat]
    lines = []
    if state["phase"] == rules.OVER:
        return f"The game is over: {state['result']['text']}"
    if state["phase"] != rules.DRAFT or state["to_move"] != seat:
        waiting = "the dice" if state["phase"] != rules.DRAFT else f"seat {state['to_move']}"
        return f"It is not your turn; the game waits for {waiting}."
    lines.append(f"Round {state['round']}, start player: seat {state['start_player']}. Your turn.")
    lines.append(f"Dice left: {dice_text(state)}.")
    lines.append(
        f"Your worm is at {_where(sheet, player['path'][-1])} "
        f"(row 1, column 1 is the top left); Hearts coloured: "
        f"{player['hearts']} of {sheet.hearts}."
    )
    lines.append("Take one of the dice left: up, down, left or right from your worm's head.")
    return "\n".join(lines)


def describe_outcome(spec: Mapping[str, Any], outcome: Any) -> str:
    """Return a roll as text: the start roll and its sum, or each die's colour and pips."""
    if spec.get("for") == "start-planet":
        whose = f"seat {spec['seat']}'s " if "seat" in spec else ""
        return f"{whose}start roll {' + '.join(map(str, outcome))} = {sum(outcome)}"
    colours = spec.get("colours") or ["die"] * len(outcome)
    dice = ", ".join(f"die {i}: {c} {p}" for i, (c, p) in enumerate(zip(colours, outcome)))
    return f"round {spec.get('round')} roll: {dice}"
