"""Arms and locks: locked parts score only once unlocked; pre-filled stars bind their boxes.

rules/star-maps.md, "Arms", "Lock/Unlock", "Using the Dice" (note). Sheet ``arms`` (Twin
Arms): the East arm (e1 Diamond: E1 + A6 via C3; e2 Pentagon: E1-E2; e3 Hexagon: E2-E3)
opens when C3 is filled; the West arm (w1 Pentagon: W1-W2; p Hexagon pre-filled 4:
W2-W3; w2 Diamond: W3 + B4 via C4) opens when C4 is filled and w1 is found.
"""

from __future__ import annotations

from engines.star_maps import ENGINE
from engines.star_maps.scoring import score_marks
from engines.star_maps.sheet import SHEETS

from .helpers import connect, dice, given, marks, refused

ARMS = SHEETS["arms"]


def arms_marks(boxes=None, connections=()):
    return marks(boxes, connections, sheet="arms")


def test_stars_of_a_locked_arm_can_be_found_but_do_not_score():
    """Arms: "areas of the sheet that are not scored unless they are unlocked via
    connections". Given e2 is found (E1 1, E2 4) and C3 is open, then e2 holds 3 but the
    score leaves it out (p, whose boxes are empty, is not filled out at all)."""
    score = score_marks(ARMS, arms_marks({"E1": 1, "E2": 4}))
    assert score["locked_stars"] == {"e2": 3}
    assert score["by_type"]["5"] == 0 and score["total"] == 0


def test_writing_in_a_locked_arm_is_allowed():
    """Arms: a locked arm is only unscored. Given a roll of 5 and 2, then E1 and E2 (the
    Pentagon e2's boxes) are legal boxes."""
    moves = ENGINE.legal_moves(given(sheet="arms", roll=[5, 2]), 0)
    assert dice(5, 2, "E1") in moves and dice(5, 2, "E2") in moves


def test_filling_the_connection_unlocks_the_arm_without_an_action():
    """Lock/Unlock: "Filling in an Unlocked symbol does not require an action"; Arms: "Once
    they are unlocked, they score normally." Given e2 is found, when C3 is filled, then
    lock L1 is open, e2 scores 3 and the sheet rule gives 5 for the unlocked arm."""
    state = given(sheet="arms", seats=[arms_marks({"E1": 1, "E2": 4})], roll=[6, 6])
    state = ENGINE.play(state, 0, connect("C3"))
    seat = ENGINE.view(state, 0)["sheets"][0]
    assert seat["open_locks"] == ["L1"] and seat["unlocked_arms"] == ["east"]
    score = score_marks(ARMS, state["marks"][0])
    assert score["stars"] == {"e2": 3}
    assert score["sheet_points"] == 5 and score["total"] == 8


def test_a_lock_that_needs_a_found_star_stays_shut_until_it_is_found():
    """Lock/Unlock: the lock symbol is connected to a star (here the West lock needs C4 and
    w1). Given C4 is filled and w1 is not found, then the West arm is locked; once w1 is
    found, it opens."""
    assert score_marks(ARMS, arms_marks({}, ["C4"]))["unlocked_arms"] == []
    found = arms_marks({"W1": 1, "W2": 5}, ["C4"])
    assert score_marks(ARMS, found)["unlocked_arms"] == ["west"]


def test_a_pre_filled_locked_star_scores_its_value_once_unlocked():
    """Lock/Unlock: "A player scores unlocked pre-filled numbers normally at the end of the
    game." Given p's boxes are filled (W2 5, W3 1) and the West arm is locked, then p's 4
    does not count; once C4 is filled and w1 found (W1 1, W2 5 -> 4), p's 4 counts as a
    Hexagon."""
    locked = score_marks(ARMS, arms_marks({"W1": 1, "W2": 5, "W3": 1}))
    assert locked["locked_stars"] == {"w1": 4, "p": 4} and locked["by_type"]["6"] == 0
    unlocked = score_marks(ARMS, arms_marks({"W1": 1, "W2": 5, "W3": 1}, ["C4"]))
    assert unlocked["stars"] == {"w1": 4, "p": 4}
    assert unlocked["by_type"] == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 4, "6": 4}
    assert unlocked["total"] == 8 + 5


def test_the_boxes_of_a_pre_filled_star_must_make_its_value_true():
    """Lock/Unlock: "the player must fill out the two adjacent squares in a way that makes
    the pre-filled value true." Given W2 holds 1 (p is pre-filled 4), when star 4 write 2
    goes in W3, then breaks-lock with the reason; star 4 write 5 is accepted."""
    state = given(sheet="arms", seats=[arms_marks({"W2": 1})], roll=[4, 2])
    err = refused(state, 0, dice(4, 2, "W3"), "breaks-lock")
    assert "differ by exactly 4" in err.detail and "W2" in err.detail
    state = given(sheet="arms", seats=[arms_marks({"W2": 1})], roll=[4, 5])
    assert ENGINE.play(state, 0, dice(4, 5, "W3"))["marks"][0]["boxes"]["W3"] == 5


def test_a_value_that_leaves_no_partner_for_a_pre_filled_star_is_refused():
    """Lock/Unlock. Given W2 and W3 are empty (p is pre-filled 4), when a 3 goes in W2 (no
    die value differs from 3 by 4), then breaks-lock, and W2 is not offered for that
    value; a 1 in W2 (5 can follow) is offered."""
    state = given(sheet="arms", roll=[5, 3])
    err = refused(state, 0, dice(5, 3, "W2"), "breaks-lock")
    assert "no die value could go in W3" in err.detail
    assert dice(5, 3, "W2") not in ENGINE.legal_moves(state, 0)
    assert dice(5, 1, "W2") in ENGINE.legal_moves(given(sheet="arms", roll=[5, 1]), 0)


def test_a_pre_filled_star_is_not_a_star_to_find():
    """Lock/Unlock, "pre-filled": the star already holds its value. Given a roll of 6 and 2,
    then no Hexagon move writes next to p unless another Hexagon is there (W2 and W3 are
    not offered for star 6)."""
    boxes = {
        m["box"]
        for m in ENGINE.legal_moves(given(sheet="arms", roll=[6, 2]), 0)
        if m["act"] == "dice" and m["star"] == 6
    }
    assert boxes == {"B1", "E2", "E3"}


def test_a_locked_pre_filled_type_is_complete_only_once_unlocked():
    """Using the Dice, note: "A star shape that is locked and pre-filled must be unlocked
    before a bonus can be gained from its type." Given the Hexagons s6 and e3 are found,
    p's boxes filled (W2 5, W3 1) and p locked, then the Hexagon type is not complete; once
    the West arm opens it is."""
    boxes = {"B1": 1, "A1": 2, "E2": 1, "E3": 6, "W1": 1, "W2": 5, "W3": 1}
    assert 6 not in score_marks(ARMS, arms_marks(boxes, ["C2"]))["complete_types"]
    assert 6 in score_marks(ARMS, arms_marks(boxes, ["C2", "C4"]))["complete_types"]


# The Hexagons s6 (B1 + A1 via C2) and e3 (E2-E3) found, C4 filled and W1 1: a 5 in W2
# finds w1 and opens the West arm, where p (pre-filled 4, W2-W3) is the last Hexagon.
LAST_HEXAGON = {"B1": 1, "A1": 2, "E2": 1, "E3": 6, "W1": 1}


def test_an_unlocked_pre_filled_star_with_empty_boxes_neither_scores_nor_completes():
    """Lock/Unlock: "If the star it's connected to contains a pre-filled value, then the
    player must fill out the two adjacent squares in a way that makes the pre-filled value
    true. A player scores unlocked pre-filled numbers normally" (and Final Scoring: "all
    filled out stars"; engines/star_maps/__init__.py). Given the West arm is unlocked and
    p's box W3 is still empty, then p scores nothing, its Hexagon type is not complete, the
    move that opens the arm earns no bonus and unlocks no bonus in play."""
    opened = score_marks(ARMS, arms_marks({**LAST_HEXAGON, "W2": 5}, ["C2", "C4"]))
    assert opened["unlocked_arms"] == ["west"]
    assert "p" not in opened["stars"] and "p" not in opened["locked_stars"]
    assert opened["by_type"]["6"] == 1 and 6 not in opened["complete_types"]  # s6 only
    state = given(
        sheet="arms",
        bonuses=["bridge"],
        seats=[arms_marks(LAST_HEXAGON, ["C2", "C4"])],
        roll=[5, 5],
    )
    moves = ENGINE.legal_moves(state, 0)
    assert dice(5, 5, "W2") in moves
    assert not [m for m in moves if m.get("box") == "W2" and "bonuses" in m]
    refused(state, 0, dice(5, 5, "W2", {"bonus": "bridge", "connection": "C1"}), "bonus-not-earned")
    after = ENGINE.play(state, 0, dice(5, 5, "W2"))
    assert "leap" not in after["unlocked"]
    assert ENGINE.view(after, 0)["sheets"][0]["complete_types"] == []


def test_an_unlocked_pre_filled_star_scores_and_completes_once_its_boxes_are_filled():
    """Lock/Unlock: "the player must fill out the two adjacent squares in a way that makes
    the pre-filled value true. A player scores unlocked pre-filled numbers normally."
    Given the West arm is open and W2 holds 5, when a 1 goes in W3 (for the Diamond w2),
    then p is filled out (5 - 1 = 4): the move completes the Hexagons and may add a bonus,
    p's 4 scores as a Hexagon and the Hexagons unlock Leap in play."""
    state = given(
        sheet="arms",
        bonuses=["bridge"],
        seats=[arms_marks({**LAST_HEXAGON, "W2": 5}, ["C2", "C4"])],
        roll=[4, 1],
    )
    with_bonus = dice(4, 1, "W3", {"bonus": "bridge", "connection": "C1"})
    assert with_bonus in ENGINE.legal_moves(state, 0)
    after = ENGINE.play(state, 0, with_bonus)
    score = score_marks(ARMS, after["marks"][0])
    # s6 and p; e3 lies in the East arm, still locked
    assert score["stars"]["p"] == 4 and score["by_type"]["6"] == 1 + 4
    assert 6 in score["complete_types"] and "leap" in after["unlocked"]


def test_version_2_games_count_a_pre_filled_star_found_from_the_start():
    """Given a game created under engine version 2 (engines/base.py, "Rules versions"),
    then as version 2 played it an unlocked pre-filled star with empty boxes scores and
    completes its type: the move that opens the West arm earns a bonus (Lock/Unlock)."""
    old = ENGINE.at_version("2")
    state = given(
        sheet="arms",
        bonuses=["bridge"],
        seats=[arms_marks(LAST_HEXAGON, ["C2", "C4"])],
        roll=[5, 5],
    )
    with_bonus = dice(5, 5, "W2", {"bonus": "bridge", "connection": "C1"})
    assert with_bonus in old.legal_moves(state, 0)
    after = old.play(state, 0, with_bonus)
    seat = old.view(after, 0)["sheets"][0]
    assert 6 in seat["complete_types"] and "leap" in after["unlocked"]
    assert seat["score"] == 1 + 4 + 4 + 5  # s6, w1, p and the open West arm
