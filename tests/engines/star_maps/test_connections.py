"""Make a Connection: forgo the dice, fill any connection; what it joins becomes adjacent.

rules/star-maps.md, "Make a Connection". Sheet ``plain``: C1 joins box A4 to the Square a3
(whose printed box is A3) and to the Circle b3 (printed box B3).
"""

from __future__ import annotations

from engines.star_maps import ENGINE

from .helpers import connect, dice, given, marks, refused, value_of


def test_the_rulebook_example_a_connection_finds_a_star():
    """Make a Connection, example: "the box with 5 and the star are made adjacent when the
    connection is filled in. The star is found and the difference written inside." Given
    A4 holds 5 (written for the Diamond a4) and A3 holds 2, when C1 is filled, then the
    Square a3 is found and holds 3."""
    state = given(seats=[marks({"A3": 2, "A4": 5})], roll=[6, 6])
    assert value_of(state, "a3") is None
    state = ENGINE.play(state, 0, connect("C1"))
    assert state["marks"][0]["connections"] == ["C1"]
    assert value_of(state, "a3") == 3


def test_a_connection_makes_everything_on_its_dotted_line_adjacent():
    """Make a Connection: "Any squares and/or stars directly connected to this symbol's
    dotted line are now considered adjacent." Given C1 is filled, then A4 is a box of both
    the Square a3 and the Circle b3."""
    state = given(seats=[marks(connections=["C1"])], roll=[3, 1])
    moves = ENGINE.legal_moves(state, 0)
    assert dice(3, 1, "A4") in moves and dice(1, 3, "A4") in moves


def test_any_open_connection_may_be_filled_instead_of_using_the_dice():
    """Make a Connection: "choose any connection on the game sheet and fill it in". Given a
    roll, then every open connection is a legal move, whatever the dice show."""
    state = given(seats=[marks(connections=["C2"])], roll=[3, 1])
    conns = [m["connection"] for m in ENGINE.legal_moves(state, 0) if m["act"] == "connect"]
    assert conns == ["C1", "C3", "C4"]


def test_a_filled_connection_cannot_be_filled_again():
    """Make a Connection. Given C2 is filled, when C2 is chosen, then connection-filled."""
    refused(
        given(seats=[marks(connections=["C2"])], roll=[3, 1]), 0, connect("C2"), "connection-filled"
    )


def test_an_unknown_connection_is_refused():
    """Make a Connection. Given a roll, when C9 is chosen, then no-such-connection."""
    refused(given(roll=[3, 1]), 0, connect("C9"), "no-such-connection")
