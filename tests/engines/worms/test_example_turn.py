"""The rulebook's "An example turn", every figure as in the book, with fixed chance.

Layout: engines/worms/data/map.json ("first_game"), four players (every tile, as in the
book's diagrams): Blue worm A is B1, B is B2, Red worm X is R1. Wind starts at 2
(Setting up your first game, 4. Wind Direction).
"""

from __future__ import annotations

import pytest

from engines.base import Decision
from engines.worms import ENGINE
from tests.engines.worms.helpers import BULLSEYE, SAFE, WIND, at, hex_of, kind, move, roll, start


def blue_to_blast() -> dict:
    """Steps 1-5 of the example up to the Blast die: return the state awaiting it."""
    s = start(4)
    assert s["wind"] == 2 and s["turn"]["seat"] == 0 and s["teams"][0] == "blue"
    # 1. Activate a worm: Blue could also choose B.
    assert ENGINE.legal_moves(s, 0) == [
        {"move": "activate", "worm": "B1"},
        {"move": "activate", "worm": "B2"},
    ]
    s = move(s, "activate B1")
    # 3. Inch onto the hex with a Supply Crate and a Mine; Blue orders them: crate first.
    s = move(s, "inch 4")
    assert at(s, "-2,2") == ["B1", "crate1", "mine1"]
    assert kind(s) == "order"
    assert {"move": "order", "what": "effects", "ids": ["crate1", "mine1"]} in ENGINE.legal_moves(
        s, 0
    )
    s = move(s, "order effects crate1 mine1")
    assert len(s["hands"][0]) == 6  # the crate's Supply card
    s = roll(s, SAFE, purpose="mine")  # luckily, it doesn't go off
    assert at(s, "-2,2") == ["B1"]
    # 4. Blue does not use the second move.
    s = move(s, "skip")
    # 5. Bazooka at the hex adjacent to X, one hex beyond adjacent: 3 dice (-1).
    assert kind(s) == "card"
    s = move(s, "play bazooka at 0,2")
    assert ENGINE.prompt(s).spec["faces"] == [8, 8, 8]
    s = roll(s, 4, WIND, BULLSEYE, purpose="accuracy")
    assert ENGINE.legal_moves(s, 0) == [
        {"move": "pick", "die": 4},
        {"move": "pick", "die": "wind"},
        {"move": "pick", "die": "bullseye"},
    ]
    s = move(s, "pick die wind")  # the Wind (2) moves the target onto X
    assert s["target"]["hex"] == "1,1" == hex_of(s, "R1")
    assert kind(s) == "blast"
    assert "crater1" in at(s, "1,1")  # a Crater first
    return s


def test_example_turn_every_figure_as_in_the_book() -> None:
    """Given the first-game map, when Blue plays the example turn with the book's rolls,
    then every figure matches the book (An example turn, steps 1-8)."""
    s = blue_to_blast()
    s = roll(s, 1, purpose="blast")  # X Damaged and Scattered in direction 1
    assert hex_of(s, "R1") == "1,0" and s["things"]["R1"]["damaged"]
    # The Bazooka's Movement symbol: into the second Supply Crate, another card.
    assert kind(s) == "move"
    s = move(s, "inch 6")
    assert hex_of(s, "B1") == "-3,2" and "crate2" not in s["things"]
    assert len(s["hands"][0]) == 6  # 5 - Bazooka + 2 Supply cards
    assert [c.split("-", 1)[1] for c in s["discard"]] == ["bazooka"]
    # 6. End turn: nothing. 7. Drop card: two Supply Crates, one at a time, then Wind.
    assert kind(s) == "target"
    assert s["log"][-1] == "drop supply-drop"
    assert ENGINE.legal_moves(s, 0) == [
        {"move": "target", "at": [-2, 1]},
        {"move": "target", "at": [-2, 2]},
    ]  # the Emptiest
    s = move(s, "target -2,1")  # the second: -2,2 is now the only one
    assert [t for t in at(s, "-2,1") if t.startswith("crate")]
    assert [t for t in at(s, "-2,2") if t.startswith("crate")]
    s = roll(s, 5, purpose="wind")
    assert s["wind"] == 5
    # 8. Pass the Target Token: Red's turn.
    assert ENGINE.prompt(s) == Decision((1,), "activate")
    assert s["target"] is None


@pytest.mark.parametrize(
    "die,fate",
    [
        (2, "sinks"),
        (3, "sinks"),
        (4, "sinks"),
        (5, "sinks"),
        (WIND, "sinks"),
        (6, "mine"),
        (BULLSEYE, "stays"),
    ],
)
def test_example_turn_other_blast_rolls(die: int, fate: str) -> None:
    """Given the Blast on X, "they could have ended up in the Water (directions 2, 3, 4
    or 5) or on a Mine, meaning the only safe roll was direction 1" (An example turn, 5).
    The Wind (2) blows X into the Water too; the book's line on the Wind symbol
    leaving X in place fits the Bullseye."""
    s = roll(blue_to_blast(), die, purpose="blast")
    if fate == "sinks":
        assert "R1" not in s["things"]
    elif fate == "mine":
        assert hex_of(s, "R1") == "0,1" and kind(s) == "mine"
    else:
        assert hex_of(s, "R1") == "1,1" and s["things"]["R1"]["damaged"]
