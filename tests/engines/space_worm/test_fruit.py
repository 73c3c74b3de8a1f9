"""Fruit: rules/space-worm.md, "Fruit", and the fruit decisions of
shared/components/space-worm.md, "Decisions".

level1 fruit spaces: apple (0,3) (2,7) (7,1); banana (0,7) (4,0) (8,3);
grape (1,5) (5,2) (6,7); lime (2,1) (4,8) (7,4). Dice 0-1 red (apple), 2-3 yellow
(banana), 4-5 purple (grape), 6-7 green (lime).
"""

from __future__ import annotations

from engines.space_worm import ENGINE
from engines.space_worm.scoring import breakdown
from engines.space_worm.sheet import get_sheet
from tests.engines.space_worm.helpers import GREEN, RED, YELLOW, game, place, play

LEVEL1 = get_sheet("level1")
TWO_APPLES_AT_2_6 = [(7, 1), (7, 2), (0, 3), (1, 3), (2, 3), (2, 4), (2, 5), (2, 6)]
"""A path that has eaten two of the three apples and ends left of the third."""


def _apples_nearly_done(players: int = 3, dice=(1,) * 8) -> dict:
    state = game(players, dice=list(dice))
    for seat in range(players):
        state = place(state, seat, TWO_APPLES_AT_2_6)
    return state


def test_going_through_all_spaces_of_a_fruit_scores_the_highest_track_number() -> None:
    """rules/space-worm.md, "Fruit": "If you go through all fruit spaces of one type ...
    Score points equal to the highest revealed number on the corresponding fruit track".

    Given seat 0 has eaten two of three apples, when its 1 right (a yellow die) goes
    through the last one, then it writes 12, the top of the apple track.
    """
    state = play(_apples_nearly_done(), 0, f"die {YELLOW} right")
    apple = state["sheets"][0]["fruit"]["apple"]
    assert apple["eaten"] == 3 and apple["scored"] == 12
    assert state["claims"] == [{"seat": 0, "fruit": "apple", "value": 12, "plus": 0, "round": 1}]
    assert breakdown(LEVEL1, state["sheets"][0])["fruit"]["apple"]["points"] == 12


def test_then_all_players_colour_that_number() -> None:
    """rules/space-worm.md, "Fruit": "Then, all players colour in the highest number
    space of that fruit's track."

    Given seat 0 completed the apples, then the apple track's 12 is gone for everyone:
    every seat's view shows 9 as the next apple number.
    """
    state = play(_apples_nearly_done(), 0, f"die {YELLOW} right")
    assert state["tracks"]["apple"] == [9, 7, 5, 3, 1]
    for seat in (None, 0, 1, 2):
        track = ENGINE.view(state, seat)["tracks"]["apple"]
        assert track["open"] == [9, 7, 5, 3, 1] and track["next"] == 9
        assert track["track"] == [12, 9, 7, 5, 3, 1]
    assert state["tracks"]["banana"] == [11, 8, 6, 4, 2, 1]


def test_a_race_in_one_round_resolves_in_completion_order() -> None:
    """shared/components/space-worm.md, "Decisions": "Two players completing the same
    fruit type in one round: in the order they completed it, each takes the highest
    number still open at that moment."

    Given seats 0, 1 and 2 each one apple short, when all three complete it in the same
    round, then they score 12, 9 and 7 in turn order.
    """
    state = _apples_nearly_done()
    for seat, die in ((0, YELLOW), (1, YELLOW + 1), (2, GREEN)):
        state = play(state, seat, f"die {die} right")
    scored = [state["sheets"][s]["fruit"]["apple"]["scored"] for s in range(3)]
    assert scored == [12, 9, 7]
    assert [c["seat"] for c in state["claims"]] == [0, 1, 2]
    assert state["tracks"]["apple"] == [5, 3, 1]


def test_a_matching_die_marks_a_plus_one_added_when_scoring() -> None:
    """rules/space-worm.md, "Fruit": "Each time you go through a fruit using a die of the
    matching colour, mark the +1 space ... When scoring that fruit ..., add any +1s".

    Given seat 0 one apple short, when it completes the apples with a red die, then it
    marks a +1 and scores 12 + 1 for apples.
    """
    state = play(_apples_nearly_done(), 0, f"die {RED} right")
    apple = state["sheets"][0]["fruit"]["apple"]
    assert apple["plus"] == 1 and apple["scored"] == 12
    parts = breakdown(LEVEL1, state["sheets"][0])
    assert parts["fruit"]["apple"] == {"track": 12, "plus": 1, "points": 13}
    assert parts["fruit_points"] == 13


def test_a_die_of_another_colour_marks_no_plus_one() -> None:
    """rules/space-worm.md, "Fruit": the +1 needs "a die of the matching colour".

    Given a worm on Planet 1 at (0, 0), when a yellow 3 goes right through the apple at
    (0, 3), then the apple is eaten but no +1 is marked; with a red 3, one is.
    """
    state = game(1, dice=[3, 1, 3, 1, 1, 1, 1, 1], roll=(1, 1))
    yellow = play(state, 0, f"die {YELLOW} right")["sheets"][0]["fruit"]["apple"]
    red = play(state, 0, f"die {RED} right")["sheets"][0]["fruit"]["apple"]
    assert yellow == {"eaten": 1, "plus": 0, "scored": None}
    assert red == {"eaten": 1, "plus": 1, "scored": None}


def test_plus_ones_count_only_when_the_player_completes_that_fruit() -> None:
    """shared/components/space-worm.md, "Decisions": "+1 marks count only when the
    player themself completes that fruit type."

    Given a worm that marked a +1 on apples but has not completed them, then apples add
    nothing to its score; once it completes them with a yellow die, the earlier +1
    counts: 12 + 1.
    """
    state = game(1, dice=[3, 1, 3, 1, 1, 1, 1, 1], roll=(1, 1))
    state = play(state, 0, f"die {RED} right")
    parts = breakdown(LEVEL1, state["sheets"][0])
    assert parts["fruit"]["apple"] == {"track": None, "plus": 1, "points": 0}
    assert parts["fruit_points"] == 0
    finished = place(game(1, dice=[1] * 8), 0, TWO_APPLES_AT_2_6, plus={"apple": 1})
    finished = play(finished, 0, f"die {YELLOW} right")
    assert breakdown(LEVEL1, finished["sheets"][0])["fruit"]["apple"]["points"] == 13


def test_one_line_can_complete_two_fruit_types() -> None:
    """rules/space-worm.md, "Fruit": each fruit type completed is scored on its own track.

    Given a worm at (0, 2) missing only the apple at (0, 3) and the banana at (0, 7),
    when a red 5 goes right through both, then it scores apple 12 (+1) and banana 11,
    in the order the line met them.
    """
    path = [(7, 1), (2, 7), (4, 0), (8, 3), (0, 2)]
    state = place(game(2, dice=[5, 1, 1, 1, 1, 1, 1, 1]), 0, path)
    state = play(state, 0, "die 0 right")
    fruit = state["sheets"][0]["fruit"]
    assert fruit["apple"]["scored"] == 12 and fruit["apple"]["plus"] == 1
    assert fruit["banana"]["scored"] == 11 and fruit["banana"]["plus"] == 0
    assert [c["fruit"] for c in state["claims"]] == ["apple", "banana"]


def test_a_fruit_track_with_no_number_left_scores_only_the_plus_ones() -> None:
    """engines/space_worm/__init__.py, decisions: a track with every number coloured
    scores 0 (the +1s still count).

    Given the apple track used up, when seat 0 completes apples with a red die, then it
    scores 0 + 1 and the track stays empty.
    """
    state = dict(_apples_nearly_done(), tracks={**_apples_nearly_done()["tracks"], "apple": []})
    state = play(state, 0, f"die {RED} right")
    assert state["sheets"][0]["fruit"]["apple"]["scored"] == 0
    assert breakdown(LEVEL1, state["sheets"][0])["fruit"]["apple"]["points"] == 1
    assert state["tracks"]["apple"] == []


def test_a_fruit_type_scores_once() -> None:
    """rules/space-worm.md, "Fruit": the fruit's box is written once: later moves do not
    score the same fruit again (there is no space of it left to go through)."""
    state = play(_apples_nearly_done(players=1), 0, f"die {RED} right")
    state = play(state, 0, "die 1 right")
    assert [c["fruit"] for c in state["claims"]] == ["apple"]
