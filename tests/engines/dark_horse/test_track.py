"""Track movement (rules/dark-horse.md, "Gameplay", "Special Cards";
shared/components/dark-horse.md, "Decisions on rules questions")."""

from __future__ import annotations

from engines.dark_horse import ENGINE
from engines.dark_horse import track as tr

from .support import in_play

START = ["caterpillar", "ladybug", "snail", "fly", "bee", "wasp", "grasshopper"]


def test_book_example_minus_three() -> None:
    """Given the Caterpillar first and the Ladybug, Snail and Fly behind it, when it
    moves -3, then it goes back three spaces, the three Bugs it passes each move one
    forward, and it is 4th (on the acorn space) behind the Ladybug, the Snail and the
    Fly (rules/dark-horse.md, "Gameplay", Example; its space names are contradictory,
    its mechanics are kept: components page)."""
    after = tr.move_bug(START, "caterpillar", -3)
    assert after[:4] == ["ladybug", "snail", "fly", "caterpillar"]
    assert tr.place_of(after, "caterpillar") == 4
    assert after[4:] == START[4:]


def test_book_example_minus_three_played_as_a_card() -> None:
    """Given the default deck's Caterpillar -3 card and the example's Track, when a
    player plays it, then the Track is the example's (rules/dark-horse.md, "Gameplay",
    Example: "The player plays a -3 Move card for the Bug which is on the walnut
    space"): the Caterpillar ends on the acorn space, in fourth place."""
    engine = ENGINE
    state = in_play(track=START)
    hands = [list(h) for h in state["hands"]]
    hands[0][0] = "mv-caterpillar-3"
    state = {**state, "hands": hands}
    after = engine.play(state, 0, {"play": "mv-caterpillar-3"})
    track = engine.view(after, None)["track"]
    assert [t["bug"] for t in track[:4]] == ["ladybug", "snail", "fly", "caterpillar"]
    assert track[3]["name"] == "acorn"


def test_forward_move_shifts_the_passed_bugs_back() -> None:
    """Given a Bug on space 5, when it moves +2, then it is on space 3 and the two Bugs
    it passed each move one space backward (rules/dark-horse.md, "Gameplay")."""
    after = tr.move_bug(START, "bee", 2)
    assert after == ["caterpillar", "ladybug", "bee", "snail", "fly", "wasp", "grasshopper"]


def test_a_move_past_the_front_stops_at_space_one() -> None:
    """Given a Bug on space 2, when it moves +2, then it stops on space 1 (components
    page, "Decisions": a move past either end stops at the end)."""
    assert tr.move_bug(START, "ladybug", 2)[0] == "ladybug"
    assert tr.move_bug(START, "caterpillar", 2) == START


def test_a_move_past_the_back_stops_at_the_stone() -> None:
    """Given a Bug on space 6, when it moves -3, then it stops on space 7, the stone
    (components page, "Decisions")."""
    assert tr.move_bug(START, "wasp", -3)[-1] == "wasp"
    assert tr.move_bug(START, "grasshopper", -1) == START


def test_positions_forward_moves_the_front_bug_first() -> None:
    """Given a card naming spaces 1 and 2, when both move forward, then the front Bug
    is moved first (it stays, clamped) and the rear Bug then passes it: each moved one
    space forward or stopped at the end. Only rules version 1 plays a positions card
    that way: version 2 does not offer a direction in which a Bug cannot move
    (rules.directions; test_play.py)."""
    after = tr.move_positions(START, [1, 2], 1, forward=True)
    assert after[:2] == ["ladybug", "caterpillar"]


def test_positions_forward_in_the_middle() -> None:
    """Given a card naming spaces 3 and 4, when both move forward, then the Bugs that
    stood there are on spaces 2 and 3 and the Bug from space 2 is on space 4
    (rules/dark-horse.md, "Gameplay")."""
    after = tr.move_positions(START, [3, 4], 1, forward=True)
    assert after[:4] == ["caterpillar", "snail", "fly", "ladybug"]


def test_positions_backward_moves_the_rear_bug_first() -> None:
    """Given a card naming spaces 6 and 7, when both move backward, then the rear Bug
    is moved first (clamped, as only rules version 1 plays it) and the front one passes
    it (components page, "Decisions": "the rear Bug first when moving back")."""
    after = tr.move_positions(START, [6, 7], 1, forward=False)
    assert after[5:] == ["grasshopper", "wasp"]
    after = tr.move_positions(START, [4, 5], 1, forward=False)
    assert after[3:] == ["wasp", "fly", "bee", "grasshopper"]


def test_run_for_your_life_sends_the_cherry_bug_to_the_stone() -> None:
    """Given the Snail on the cherry (space 3), when Run for your life! is resolved,
    then it is on the stone (space 7) and the Bugs that were behind it each move one
    space forward (rules/dark-horse.md, "Special Cards")."""
    after = tr.run_for_your_life(START, 3, 7)
    assert after == ["caterpillar", "ladybug", "fly", "bee", "wasp", "grasshopper", "snail"]


def test_row_grows_at_either_end_only() -> None:
    """Given a row of placed Bugs, when a Bug is added, then it goes just before or just
    after the row, never between (rules/dark-horse.md, "Setup" 3)."""
    row = tr.add_to_row([], "fly", None)
    row = tr.add_to_row(row, "bee", tr.FRONT)
    row = tr.add_to_row(row, "wasp", tr.BACK)
    assert row == ["bee", "fly", "wasp"]


def test_moves_return_new_lists() -> None:
    """Given a Track, when any move is applied, then the given list is unchanged (pure
    engine: DESIGN.md, "Engines")."""
    start = list(START)
    tr.move_bug(start, "fly", 2)
    tr.move_positions(start, [1, 2], 1, True)
    tr.run_for_your_life(start, 3, 7)
    tr.add_to_row(start[:3], "wasp", tr.FRONT)
    assert start == START
