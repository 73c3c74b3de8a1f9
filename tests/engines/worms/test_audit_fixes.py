"""Fixes from the audit of part 1 (issue 14, Deliver 4), each against the book's words.

First-game map, four players (engines/worms/data/map.json): Blue B1 at -2,1, B2 at
-3,3; Red R1 at 1,1, R2 at 1,-1 (with drum2). Directions: 1 N, 2 NE, 3 SE, 4 S, 5 SW,
6 NW.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from engines.worms import ENGINE, board
from tests.engines.worms.helpers import (
    BULLSEYE,
    add,
    at,
    blue_ready,
    hex_of,
    kind,
    move,
    put,
    roll,
    start,
)


def test_damaged_worm_still_inches_inside_its_card_text() -> None:
    """ "If your worm is Damaged during your turn, finish resolving your Weapon Card text
    if you have played one, then immediately skip to step 6" (Damage): the Inch in the
    Dragon Ball's text is still offered; the Movement symbol after it is not."""
    s = move(blue_ready(cards=("dragon-ball",)), "play dragon-ball at -2,1")  # own hex
    assert s["things"]["B1"]["damaged"] and s["turn"]["hurt"]
    s = roll(s, 1, purpose="knockback")  # B1 knocked north onto -2,0 (drum4)
    assert hex_of(s, "B1") == "-2,0" and kind(s) == "move"
    moves = ENGINE.legal_moves(s, 0)
    assert moves[-1] == {"move": "skip"}
    assert {m["move"] for m in moves} == {"inch", "skip"}  # the text's Inch only
    s = move(s, "skip")
    assert "drop" in " ".join(s["log"])  # no Movement symbol: step 6, 7


def test_damaged_worm_still_plays_another_card_from_the_text() -> None:
    """A "Play another card" inside the text is still resolved after the active worm is
    Damaged (components: Clarifications); the other card's text is resolved."""
    s = move(blue_ready(cards=("blowtorch",)), "play blowtorch at -2,1")
    assert s["turn"]["hurt"]
    assert kind(s) == "card"
    s = move(s, "play uzi at -1,1")  # drum1 next to B1
    assert kind(s) == "accuracy"


def test_jump_may_choose_water_and_the_own_hex() -> None:
    """Jumping: "Choose any hex within two hexes of the worm's current hex" - Water and
    the worm's own hex too; a Jump into Water sinks the worm (Water hex)."""
    s = move(start(), "activate B2")  # B2 at -3,3, at the south-west edge
    jumps = [m["to"] for m in ENGINE.legal_moves(s, 0) if m["move"] == "jump"]
    assert [-3, 3] in jumps and [-3, 4] in jumps and [-3, 2] in jumps
    assert all(board.on_board(s, f"{q},{r}") for q, r in jumps)
    assert len(jumps) == len([h for h in board.Hex(-3, 3).within(2) if board.on_board(s, h.key())])
    sunk = move(s, "jump -3,4")
    assert "B2" not in sunk["things"] and "B2 sinks at -3,4" in sunk["log"]
    here = move(s, "jump -3,3")
    assert kind(here) == "scatter" and hex_of(here, "B2") == "-3,3"
    assert hex_of(roll(here, BULLSEYE, purpose="scatter"), "B2") == "-3,3"


def test_air_strike_damage_resolves_hex_by_hex() -> None:
    """Air Strike targets: "resolve the hex containing the Target Token and two hexes in
    the direction it is pointing, in order": the first hex's Oil Drum explodes before
    the third hex's worm is Damaged."""
    s = blue_ready()
    s["target"] = {"hex": "1,-1", "dir": 4}  # 1,-1 (R2, drum2), 1,0, 1,1 (R1)
    s["stack"].append({"op": "do-damage"})
    s["ask"] = None
    s = ENGINE.run(s)
    assert s["things"]["R2"]["damaged"] and "drum2" not in s["things"]
    assert kind(s) == "oil-drum" and not s["things"]["R1"]["damaged"]


def test_many_simultaneous_items_ordered_one_pick_at_a_time() -> None:
    """Blast: "the effects are resolved in an order of your choice" - with four worms
    the player picks the next one at a time (a short list), then orders the last three."""
    s = blue_ready()
    for worm in ("B2", "R2", "Y1"):
        s = put(s, worm, "1,1")  # with R1: four worms
    s = roll(move(s, "play bazooka at 0,1"), 3, 3, 3, purpose="accuracy")
    assert kind(s) == "order"
    assert ENGINE.legal_moves(s, 0) == [
        {"move": "order", "what": "worms", "ids": [w]} for w in ("B2", "R1", "R2", "Y1")
    ]
    s = move(s, "order worms R2")
    s = roll(s, BULLSEYE, purpose="blast")  # R2 first
    assert s["things"]["R2"]["damaged"] and not s["things"]["R1"]["damaged"]
    assert ENGINE.legal_moves(s, 0) == [
        {"move": "order", "what": "worms", "ids": list(p)} for p in permutations(["B2", "R1", "Y1"])
    ]


@pytest.mark.parametrize(
    "players,tiles", [(2, ("A", "B")), (3, ("A", "B", "2")), (4, ("A", "B", "2", "3"))]
)
def test_first_game_map_shrinks_with_the_player_count(players: int, tiles: tuple) -> None:
    """ "The Map Tiles and the Things on them marked 2 and 3 can be removed entirely if you
    are playing a 2 or 3 player game" - with 2 players both go (one tile per player:
    components/worms.md), with 3 the tile marked 3."""
    s = start(players)
    size = sum(len(board.MAP["tiles"][t]["hexes"]) for t in tiles)
    assert len(s["land"]) == size
    assert all(t["hex"] in s["land"] for t in s["things"].values())
    sizes = [len(start(n)["land"]) for n in (2, 3, 4)]
    assert sizes == sorted(sizes) and len(set(sizes)) == 3


def test_blast_rolls_a_die_for_crates_and_destroys_them() -> None:
    """Blast: "For each Thing in the Target hex, starting with any worms, roll a die":
    a Supply Crate gets its die, and the Damage destroys it (Supply Crate)."""
    s = blue_ready()
    s, crate = add(s, "crate", "1,1")  # with R1
    s = roll(move(s, "play bazooka at 0,1"), 3, 3, 3, purpose="accuracy")
    s = roll(s, BULLSEYE, purpose="blast")  # R1
    assert kind(s) == "blast" and crate in s["things"]
    s = roll(s, 1, purpose="blast")  # the crate: destroyed, not moved
    assert crate not in s["things"] and at(s, "1,0") == []
    assert s["pool"]["crate"] == board.BOX["crate"] - sum(
        1 for t in s["things"].values() if t["kind"] == "crate"
    )
