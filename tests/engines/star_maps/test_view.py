"""Views and the "your turn" brief: sheets are public; who still owes an answer.

rules/star-maps.md, "Roll Phase" (results announced aloud), "Choose Phase".
"""

from __future__ import annotations

import json

from engines.star_maps import ENGINE

from .helpers import dice, given, marks


def test_every_sheet_is_shown_to_everyone():
    """Roll Phase / Choose Phase: nothing is hidden. Given a 3-player round where seat 1
    answered, then every seat and a spectator see all three sheets, the same except for
    'seat', and seat 1's write shows at once."""
    state = ENGINE.play(given(players=3, roll=[2, 5]), 1, dice(2, 5, "A2"))
    views = [ENGINE.view(state, s) for s in (None, 0, 1, 2)]
    assert all({**v, "seat": None} == views[0] for v in views)
    assert len(views[0]["sheets"]) == 3
    assert views[0]["sheets"][1]["boxes"] == {"A2": 5}
    json.dumps(views[0])


def test_the_view_says_who_still_owes_an_answer():
    """Choose Phase. Given seat 1 answered, then to_answer is [0, 2] and answered is [1]."""
    state = ENGINE.play(given(players=3, roll=[2, 5]), 1, dice(2, 5, "A2"))
    view = ENGINE.view(state, 0)
    assert view["to_answer"] == [0, 2] and view["answered"] == [1]
    assert view["roll"] == [2, 5] and view["phase"] == "choose" and view["last_round"] is False


def test_the_view_shows_found_stars_and_the_running_score():
    """Using the Dice, step 3. Given a1 found with 4, then the view shows it and the
    score."""
    state = given(seats=[marks({"A1": 2, "A2": 6})], roll=[1, 1])
    sheet = ENGINE.view(state, 0)["sheets"][0]
    assert sheet["stars"]["a1"] == 4 and sheet["stars"]["a2"] is None
    assert sheet["score"] == 4


def test_the_brief_gives_the_roll_and_what_each_die_picks():
    """Choose Phase: use the dice or make a connection. Given a roll of 2 and 5, then the
    brief names the dice and the star type each picks; the moves themselves are the
    mail's list (issue 24: listed once)."""
    text = ENGINE.brief(given(roll=[2, 5]), 0)
    assert "the dice show 2 and 5" in text
    assert "die 2 picks Triangle stars (star 2), and 5 goes in a box" in text
    assert "die 5 picks Pentagon stars (star 5), and 2 goes in a box" in text
    assert "Or make a connection." in text
    assert "A2" not in text


def test_the_brief_mentions_bonus_moves_when_there_are_some():
    """Using the Dice, step 4. Given a move that finds the last Diamond with Bridge
    unlocked, then the brief says a bonus may be added."""
    state = given(bonuses=["bridge"], seats=[marks({"A4": 1, "A5": 3, "B1": 2})], roll=[4, 6])
    assert "may add a bonus" in ENGINE.brief(state, 0)
