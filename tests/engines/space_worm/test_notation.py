"""Notation, the "your turn" brief and roll texts (engines/space_worm/notation.py)."""

from __future__ import annotations

import pytest

from engines.base import InvalidMove
from engines.space_worm import ENGINE
from tests.engines.space_worm.helpers import game, place, play


@pytest.mark.parametrize(
    "move, text",
    [
        ({"die": 3, "direction": "up"}, "die 3 up"),
        ({"die": 0, "direction": "right"}, "die 0 right"),
        ({"die": 7, "direction": "down"}, "die 7 down"),
        ({"die": 1, "direction": "left"}, "die 1 left"),
        ({"die": 5, "heart": True}, "die 5 heart"),
    ],
)
def test_describe_and_parse_round_trip(move, text) -> None:
    """Given a move, when described, then the text is ``die N DIRECTION`` or
    ``die N heart``, and parsing it gives the move back."""
    assert ENGINE.describe(move) == text
    assert ENGINE.parse(text, {}, 0) == move


@pytest.mark.parametrize(
    "text, move",
    [
        ("Die 3 Up", {"die": 3, "direction": "up"}),
        ("  die 3   up. ", {"die": 3, "direction": "up"}),
        ("3 u", {"die": 3, "direction": "up"}),
        ("die #2: left", {"die": 2, "direction": "left"}),
        ("5 h", {"die": 5, "heart": True}),
        ("die5heart", {"die": 5, "heart": True}),
        ("die 12 up", {"die": 12, "direction": "up"}),
    ],
)
def test_parse_is_lenient_about_case_spaces_and_short_words(text, move) -> None:
    """Given a move typed in a mail, then case, spaces and first letters are accepted
    (a die number out of range is left for ``play`` to refuse as ``no-such-die``)."""
    assert ENGINE.parse(text, {}, 0) == move


@pytest.mark.parametrize(
    "text", ["", "up", "die up", "die 3", "die 3 north", "die -1 up", "die 3 up left", 3, None]
)
def test_unreadable_text_is_bad_move(text) -> None:
    """Given text that is not a move, then InvalidMove ``bad-move`` with the notation."""
    with pytest.raises(InvalidMove) as err:
        ENGINE.parse(text, {}, 0)
    assert err.value.code == "bad-move"


def test_every_legal_move_round_trips() -> None:
    """Contract: parse(describe(m)) == m for every legal move."""
    state = place(game(2, dice=[5, 1, 2, 3, 4, 6, 1, 2]), 0, [(4, 5), (4, 6)])
    for move in ENGINE.legal_moves(state, 0):
        assert ENGINE.parse(ENGINE.describe(move), state, 0) == move


def test_brief_lists_the_dice_left_the_position_and_the_legal_moves() -> None:
    """Issue 2, item 6: the "your turn" mail names the dice the player can choose from.

    Given seat 0 took die 0, when seat 1 is briefed, then the text names the 7 dice left
    with colour and pips and the worm's place (the mail lists the legal moves, once).
    """
    state = play(game(2, dice=[3, 1, 2, 3, 4, 5, 6, 2]), 0, "die 0 up")
    text = ENGINE.brief(state, 1)
    assert "die 0" not in text
    assert "die 1: red 1" in text and "die 6: green 6" in text
    assert "row 5, column 7, on Planet 4" in text
    assert "die 1 up" not in text  # the moves are the mail's list, not the brief's
    assert "Hearts coloured: 0 of 4" in text


def test_brief_for_a_seat_not_on_turn_says_so() -> None:
    """A seat that owes no move is told whom the game waits for."""
    assert "not your turn" in ENGINE.brief(game(2), 1)


def test_describe_outcome_names_the_dice() -> None:
    """Roll texts for logs and mails: the start roll's sum, each die's colour and pips."""
    state = ENGINE.setup(2, ENGINE.load_options(2, {}))
    spec = ENGINE.prompt(state).spec
    assert ENGINE.describe_outcome(spec, [3, 4]) == "seat 0's start roll 3 + 4 = 7"
    state = ENGINE.setup(2, ENGINE.load_options(2, {"start_roll": "shared"}))
    spec = ENGINE.prompt(state).spec
    assert ENGINE.describe_outcome(spec, [3, 4]) == "start roll 3 + 4 = 7"
    state = ENGINE.resolve(state, [3, 4])
    spec = ENGINE.prompt(state).spec
    text = ENGINE.describe_outcome(spec, [1, 2, 3, 4, 5, 6, 1, 2])
    assert text.startswith("round 1 roll: die 0: red 1, die 1: red 2")
    assert text.endswith("die 7: green 2")
