"""Using the Dice: one die picks the star type, the other's value goes in an adjacent box,
a star with two filled boxes is found and holds their difference.

rules/star-maps.md, "Using the Dice"; components/star-maps.md, "Decisions on rules
questions" (adjacent directly or through a filled connection; doubles give one type).
Sheet ``plain`` (First Light): row A1-A7 with stars a1 (Circle, A1-A2), a2 (Triangle,
A2-A3), a3 (Square, A3 + A4 via C1), a4 (Diamond, A4-A5) ...
"""

from __future__ import annotations

import pytest

from engines.base import InvalidMove
from engines.star_maps import ENGINE

from .helpers import dice, given, marks, refused, value_of


def dice_moves(state, seat=0):
    return [m for m in ENGINE.legal_moves(state, seat) if m["act"] == "dice"]


def test_either_die_may_pick_the_star():
    """Step 1: "Choose one die to represent the star". Given a roll of 3 and 5, then moves
    exist for a Square (3) with a 5 written and for a Pentagon (5) with a 3 written."""
    pairs = {(m["star"], m["write"]) for m in dice_moves(given(roll=[3, 5]))}
    assert pairs == {(3, 5), (5, 3)}


def test_doubles_give_one_star_type():
    """Decisions: "Doubles give one star type." Given a roll of 4 and 4, then every dice
    move is star 4 write 4."""
    pairs = {(m["star"], m["write"]) for m in dice_moves(given(roll=[4, 4]))}
    assert pairs == {(4, 4)}


def test_the_other_die_goes_in_an_empty_box_adjacent_to_a_star_of_that_type():
    """Step 2: "in an empty square adjacent to that star, write down the value of the
    other die". Given a roll of 1 and 6, when star 1 write 6 goes in A1, then A1 holds 6;
    and the listed boxes for a Circle are exactly those next to unfound Circles."""
    state = given(roll=[1, 6])
    assert [m["box"] for m in dice_moves(state) if m["star"] == 1] == ["A1", "A2", "B3"]
    state = ENGINE.play(state, 0, dice(1, 6, "A1"))
    assert state["marks"][0]["boxes"] == {"A1": 6}


def test_a_value_that_is_not_the_other_die_is_refused():
    """Step 2: the value written is the other die's. Given a roll of 1 and 6, when star 1
    write 5 is played, or star 2 (not rolled), then not-rolled."""
    state = given(roll=[1, 6])
    refused(state, 0, dice(1, 5, "A1"), "not-rolled")
    refused(state, 0, dice(2, 6, "A2"), "not-rolled")


def test_a_box_not_adjacent_to_a_star_of_the_chosen_type_is_refused():
    """Step 2: the box must be adjacent to a star of the chosen type. Given a roll of 1 and
    6, when star 1 write 6 goes in A5 (next to a Diamond and a Pentagon), then
    not-adjacent."""
    err = refused(given(roll=[1, 6]), 0, dice(1, 6, "A5"), "not-adjacent")
    assert "Circle (1)" in err.detail


def test_a_filled_box_is_refused():
    """Step 2: "in an empty square". Given A1 holds 2, when star 1 write 6 goes in A1, then
    box-filled."""
    refused(given(seats=[marks({"A1": 2})], roll=[1, 6]), 0, dice(1, 6, "A1"), "box-filled")


def test_a_box_not_on_the_sheet_is_refused():
    """Using the Dice. Given a roll, when the box is Z9, then no-such-box."""
    refused(given(roll=[1, 6]), 0, dice(1, 6, "Z9"), "no-such-box")


@pytest.mark.parametrize(
    "move",
    [
        {"act": "dice", "star": 1, "write": 6},
        {"act": "dice", "star": 1, "write": 7, "box": "A1"},
        {"act": "dice", "star": "1", "write": 6, "box": "A1"},
        {"act": "dice", "star": 1, "write": 6, "box": "A1", "extra": 1},
        {"act": "roll"},
        "star 1 write 6 at A1",
        None,
    ],
)
def test_a_malformed_move_is_bad_move(move):
    """Using the Dice. Given a roll, when the move cannot be read, then InvalidMove
    bad-move."""
    with pytest.raises(InvalidMove) as err:
        ENGINE.play(given(roll=[1, 6]), 0, move)
    assert err.value.code == "bad-move"


def test_a_box_reached_only_through_an_open_connection_is_not_adjacent():
    """Decisions: adjacent "directly or through a filled connection". Given C1 (which joins
    A4 to the Square a3) is open, when star 3 goes in A4, then not-adjacent; once C1 is
    filled, A4 is a Square's box."""
    refused(given(roll=[3, 2]), 0, dice(3, 2, "A4"), "not-adjacent")
    state = given(seats=[marks(connections=["C1"])], roll=[3, 2])
    assert dice(3, 2, "A4") in ENGINE.legal_moves(state, 0)


def test_a_star_with_both_boxes_filled_is_found_and_holds_the_difference():
    """Step 3: "IF this means a star on the map has two adjacent boxes that are filled in,
    you have found the star! Write down the difference". Given A1 holds 2, when star 1
    write 6 goes in A2, then a1 (Circle) holds 4."""
    state = given(seats=[marks({"A1": 2})], roll=[1, 6])
    assert value_of(state, "a1") is None
    state = ENGINE.play(state, 0, dice(1, 6, "A2"))
    assert value_of(state, "a1") == 4


def test_one_value_can_find_two_stars_that_share_a_box():
    """Step 3: any star with two filled adjacent boxes is found. Given A1 holds 2 and A3
    holds 3, when star 1 write 6 goes in A2 (shared by a1 and a2), then a1 holds 4 and
    the Triangle a2 holds 3."""
    state = given(seats=[marks({"A1": 2, "A3": 3})], roll=[1, 6])
    state = ENGINE.play(state, 0, dice(1, 6, "A2"))
    assert (value_of(state, "a1"), value_of(state, "a2")) == (4, 3)


def test_a_star_with_a_box_behind_an_open_connection_is_not_found():
    """Step 3 with "Make a Connection": only adjacent boxes count. Given A3 and A4 hold
    values but C1 is open, then the Square a3 is not found."""
    state = given(seats=[marks({"A3": 5, "A4": 2})], roll=[1, 1])
    assert value_of(state, "a3") is None


def test_no_box_is_offered_for_a_type_whose_stars_are_all_found():
    """Step 2: the star you are trying to find. Given both Circles are found, then a roll
    picking Circle offers no box."""
    state = given(seats=[marks({"A1": 1, "A2": 2, "B3": 3, "A4": 6}, ["C1"])], roll=[1, 4])
    assert [m for m in dice_moves(state) if m["star"] == 1] == []
