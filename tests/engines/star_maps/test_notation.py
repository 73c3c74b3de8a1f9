"""The text notation for mails and logs.

rules/star-maps.md, "Using the Dice" (the star die, the value, the box), "Make a
Connection", "Bonuses"; the notation itself is the engine's (``notation.py``).
"""

from __future__ import annotations

import pytest

from engines.base import InvalidMove
from engines.star_maps import ENGINE

from .helpers import connect, dice, given

EXAMPLES = [
    ("star 4 write 2 at B7", dice(4, 2, "B7")),
    ("connect C3", connect("C3")),
    ("pass", {"act": "pass"}),
    ("choose echo", {"act": "choose-bonus", "bonus": "echo"}),
    (
        "star 4 write 6 at B2 + bridge connect C2",
        dice(4, 6, "B2", {"bonus": "bridge", "connection": "C2"}),
    ),
    (
        "connect C1 + echo at A1 + nudge star 3 write 5 at A4",
        connect(
            "C1",
            {"bonus": "echo", "box": "A1"},
            {"bonus": "nudge", "star": 3, "write": 5, "box": "A4"},
        ),
    ),
]


@pytest.mark.parametrize("text, move", EXAMPLES)
def test_notation_reads_and_writes_moves(text, move):
    """Using the Dice / Make a Connection. Given the notation, then parse gives the move and
    describe gives the notation back."""
    assert ENGINE.parse(text, given(), 0) == move
    assert ENGINE.describe(move) == text


def test_notation_ignores_case_and_spacing():
    """Given a mail line in any case with extra spaces, then it reads the same move."""
    assert ENGINE.parse("  STAR 4  Write 2 at b7 +Bridge CONNECT c2 ", given(), 0) == dice(
        4, 2, "B7", {"bonus": "bridge", "connection": "C2"}
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "star 4 at B7",
        "write 2 at B7",
        "connect",
        "star 9 write 2 at B7",
        "pass + bridge connect C1",
        "at B7",
        "connect C1 + bridge",
        "star 4 write 2 at B7 please",
        42,
    ],
)
def test_unreadable_notation_is_bad_move(text):
    """Given text that is not a move, then InvalidMove bad-move with a hint."""
    with pytest.raises(InvalidMove) as err:
        ENGINE.parse(text, given(), 0)
    assert err.value.code == "bad-move"


def test_the_outcome_reads_as_a_sentence():
    """Roll Phase: "announce the results aloud"."""
    assert (
        ENGINE.describe_outcome({"kind": "dice", "faces": [6, 6], "for": "round 3"}, [2, 5])
        == "Round 3: the dice show 2 and 5."
    )
