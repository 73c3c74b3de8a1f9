"""Turns: rules/space-worm.md, "Turns", and the die decisions of
shared/components/space-worm.md, "Decisions"."""

from __future__ import annotations

import pytest

from engines.base import Chance, Decision, IllegalMove
from engines.space_worm import ENGINE
from tests.engines.space_worm.helpers import (
    cell,
    game,
    place,
    play,
    position,
    rolled,
    started,
    to_move,
)


def _draft_order(state: dict) -> tuple[list[int], dict]:
    """Play the timeout move until the round's dice are gone; return who chose, in order."""
    order = []
    while isinstance(ENGINE.prompt(state), Decision):
        seat = to_move(state)
        order.append(seat)
        state = ENGINE.play(state, seat, ENGINE.timeout_move(state, seat))
    return order, state


@pytest.mark.parametrize(
    "players, order",
    [
        (1, [0] * 8),
        (2, [0, 1] * 4),
        (3, [0, 1, 2, 0, 1, 2, 0, 1]),
        (6, [0, 1, 2, 3, 4, 5, 0, 1]),
    ],
)
def test_players_choose_in_turn_clockwise_until_all_8_dice_are_taken(players, order) -> None:
    """rules/space-worm.md, "Turns": "On your turn, choose one die", from the start player
    clockwise, "After all dice have been chosen" the round ends: with fewer than 8
    players seats take several dice, 1 player takes all 8.

    Given a round's roll, when every seat takes the first legal move, then the seats
    choose in this order and then the next roll is asked for.
    """
    seen, state = _draft_order(game(players, dice=[1] * 8))
    assert seen == order
    assert all(s is not None for s in state["taken"])
    assert isinstance(ENGINE.prompt(state), Chance)


def test_the_start_player_marker_passes_one_seat_clockwise() -> None:
    """rules/space-worm.md, "Turns": "After all dice have been chosen, pass the start
    player marker one space clockwise. The new start player rolls all 8 dice and begins
    the round."

    Given 3 players, when rounds end, then the marker goes 0 -> 1 -> 2 -> 0, the roll is
    the new start player's, and the new start player chooses first.
    """
    state = game(3, dice=[1] * 8)
    for expected in (1, 2, 0):
        _, state = _draft_order(state)
        assert state["start_player"] == expected
        prompt = ENGINE.prompt(state)
        assert prompt.spec["roller"] == expected and prompt.spec["round"] == state["round"]
        state = rolled(state, [1] * 8)
        assert to_move(state) == expected


def test_second_round_order_starts_with_the_new_start_player() -> None:
    """rules/space-worm.md, "Turns": the new start player "begins the round"."""
    _, state = _draft_order(game(3, dice=[1] * 8))
    seen, _ = _draft_order(rolled(state, [1] * 8))
    assert seen == [1, 2, 0, 1, 2, 0, 1, 2]


def test_a_move_draws_a_straight_line_through_as_many_spaces_as_pips() -> None:
    """rules/space-worm.md, "Turns": "draw a horizontal or vertical line through as many
    spaces as there are pips on the face of the die you chose".

    Given a worm on Planet 4 at (4, 6), when it takes a 3 up, then it has gone through
    (3, 6), (2, 6), (1, 6) and is at (1, 6); the die is now seat 0's.
    """
    state = play(game(2, dice=[3, 1, 1, 1, 1, 1, 1, 1]), 0, "die 0 up")
    assert state["sheets"][0]["path"] == [cell(4, 6), cell(3, 6), cell(2, 6), cell(1, 6)]
    assert position(state, 0) == (1, 6)
    assert state["taken"][0] == 0
    assert state["sheets"][1]["path"] == [cell(4, 6)]


@pytest.mark.parametrize(
    "direction, end", [("up", (2, 6)), ("right", (4, 8)), ("down", (6, 6)), ("left", (4, 4))]
)
def test_lines_go_in_all_four_directions(direction, end) -> None:
    """rules/space-worm.md, "Turns": "a horizontal or vertical line" (row 0 is up)."""
    state = play(game(1, dice=[2] * 8), 0, f"die 0 {direction}")
    assert position(state, 0) == end


def test_you_must_move_the_full_distance_and_not_beyond_the_edges() -> None:
    """rules/space-worm.md, "Turns": "You must move the full distance and cannot move
    beyond the edges of the map."

    Given a worm at (4, 6), two spaces from the right edge, when it takes a 3 right,
    then ``off-the-map``: it may not stop short at the edge; the 3 is not listed right.
    """
    state = game(2, dice=[3, 1, 1, 1, 1, 1, 1, 1])
    with pytest.raises(IllegalMove) as err:
        play(state, 0, "die 0 right")
    assert err.value.code == "off-the-map"
    assert "full distance" in err.value.detail
    assert {"die": 0, "direction": "right"} not in ENGINE.legal_moves(state, 0)
    assert {"die": 0, "direction": "up"} in ENGINE.legal_moves(state, 0)


def test_a_gap_in_the_map_is_an_edge() -> None:
    """rules/space-worm.md, "Turns": "cannot move beyond the edges of the map"; decision:
    a gap (``#``) in a sheet's map is outside the map.

    Given the small sheet with a worm at (3, 4) and a gap at (3, 3), when it takes a 1
    left, then ``off-the-map``.
    """
    state = game(1, dice=[1] * 8, roll=(3, 3), sheet="small")
    assert position(state, 0) == (3, 4)
    with pytest.raises(IllegalMove) as err:
        play(state, 0, "die 0 left")
    assert err.value.code == "off-the-map"


def test_you_cannot_move_through_a_space_you_have_been_to() -> None:
    """rules/space-worm.md, "Turns": "You cannot move to or through a space you have
    already been to."

    Given a worm that came down column 6 to (4, 6), when it takes a 2 up, then
    ``blocked-path``.
    """
    state = place(game(2, dice=[2] * 8), 0, [(2, 6), (3, 6), (4, 6)])
    with pytest.raises(IllegalMove) as err:
        play(state, 0, "die 0 up")
    assert err.value.code == "blocked-path"
    assert "already been" in err.value.detail


def test_you_cannot_move_to_a_space_you_have_been_to() -> None:
    """rules/space-worm.md, "Turns": "You cannot move to ... a space you have already
    been to."

    Given a worm whose path holds (2, 6) but not (3, 6), at (4, 6), when it takes a 2
    up (ending on (2, 6)), then ``blocked-path``; a 1 up is fine.
    """
    state = place(
        game(2, dice=[2, 1, 1, 1, 1, 1, 1, 1]), 0, [(2, 6), (2, 5), (3, 5), (4, 5), (4, 6)]
    )
    with pytest.raises(IllegalMove) as err:
        play(state, 0, "die 0 up")
    assert err.value.code == "blocked-path"
    assert position(play(state, 0, "die 1 up"), 0) == (3, 6)


def test_other_worms_do_not_block() -> None:
    """rules/space-worm.md, "Setup"/"Turns": each player draws on their own sheet, so
    only your own path blocks you.

    Given seat 0 went up from the shared start Planet, when seat 1 takes a 1 up, then
    it moves there too.
    """
    state = play(game(2, dice=[1] * 8), 0, "die 0 up")
    state = play(state, 1, "die 1 up")
    assert position(state, 1) == (3, 6)


def test_a_die_that_cannot_move_colours_a_heart_instead() -> None:
    """rules/space-worm.md, "Turns": "After choosing a die, if you cannot move the
    required amount, colour in a heart symbol instead." Decision: the die is taken and
    the worm stays.

    Given a worm at (4, 6) that came from (4, 5), a 5 cannot move (4 up, 2 right,
    4 down, left blocked); when seat 0 takes it, then the only listed move for it is a
    Heart, and playing it colours one Heart and leaves the worm where it was.
    """
    state = place(game(2, dice=[5, 1, 1, 1, 1, 1, 1, 1]), 0, [(4, 5), (4, 6)])
    moves = ENGINE.legal_moves(state, 0)
    assert [m for m in moves if m["die"] == 0] == [{"die": 0, "heart": True}]
    after = play(state, 0, "die 0 heart")
    assert after["sheets"][0]["hearts"] == 1
    assert after["sheets"][0]["path"] == state["sheets"][0]["path"]
    assert after["taken"][0] == 0
    assert to_move(after) == 1


def test_a_die_that_can_move_must_move() -> None:
    """shared/components/space-worm.md, "Decisions": "A die that can be moved must be
    moved."

    Given a 1 that can go up, when seat 0 asks to colour a Heart with it, then
    ``must-move``, and no Heart is listed for it.
    """
    state = game(2, dice=[1] * 8)
    with pytest.raises(IllegalMove) as err:
        play(state, 0, "die 0 heart")
    assert err.value.code == "must-move"
    assert {"die": 0, "heart": True} not in ENGINE.legal_moves(state, 0)


def test_a_stuck_worm_colours_a_heart_with_any_die() -> None:
    """rules/space-worm.md, "Turns": a worm boxed in at a corner cannot move any die.

    Given a worm at (0, 0) with (0, 1) and (1, 0) eaten, then every free die is listed
    as a Heart and nothing else.
    """
    state = place(game(2, dice=[1, 2, 3, 4, 5, 6, 1, 2]), 0, [(0, 1), (1, 1), (1, 0), (0, 0)])
    assert ENGINE.legal_moves(state, 0) == [{"die": d, "heart": True} for d in range(8)]


def test_choose_one_die_that_is_still_free() -> None:
    """rules/space-worm.md, "Turns": "choose one die": a die taken this round is gone.

    Given seat 0 took die 0, when seat 1 asks for die 0, then ``die-taken``; die 0 is
    not in seat 1's legal moves.
    """
    state = play(game(2, dice=[1] * 8), 0, "die 0 up")
    with pytest.raises(IllegalMove) as err:
        play(state, 1, "die 0 up")
    assert err.value.code == "die-taken"
    assert all(m["die"] != 0 for m in ENGINE.legal_moves(state, 1))


@pytest.mark.parametrize("die", [8, 9, -1, 100])
def test_there_are_only_8_dice(die) -> None:
    """rules/space-worm.md, "Turns": "rolls all 8 dice": dice are numbered 0 to 7."""
    with pytest.raises(IllegalMove) as err:
        ENGINE.play(game(2), 0, {"die": die, "direction": "up"})
    assert err.value.code == "no-such-die"


def test_only_the_seat_on_turn_may_move() -> None:
    """rules/space-worm.md, "Turns": "On your turn": seat 1 may not choose on seat 0's."""
    state = game(3)
    with pytest.raises(IllegalMove) as err:
        play(state, 1, "die 0 up")
    assert err.value.code == "not-your-turn"
    assert ENGINE.legal_moves(state, 1) == []


def test_no_move_before_the_dice_are_rolled() -> None:
    """rules/space-worm.md, "Turns": the start player rolls before anyone chooses.

    Given the round's roll is awaited, when seat 0 moves, then ``awaiting-chance``.
    """
    for state in (ENGINE.setup(2, ENGINE.load_options(2, {})), started(2)):
        with pytest.raises(IllegalMove) as err:
            play(state, 0, "die 0 up")
        assert err.value.code == "awaiting-chance"
        assert ENGINE.legal_moves(state, 0) == []


def test_timeout_move_is_the_first_legal_move() -> None:
    """engines/space_worm/__init__.py, decisions: the timeout move is the lowest free die,
    its first open direction in the order up, right, down, left, or a Heart."""
    state = place(game(2, dice=[5, 1, 1, 1, 1, 1, 1, 1]), 0, [(4, 5), (4, 6)])
    assert ENGINE.timeout_move(state, 0) == {"die": 0, "heart": True}
    state = play(state, 0, "die 0 heart")
    assert ENGINE.timeout_move(state, 1) == {"die": 1, "direction": "up"}
    assert ENGINE.legal_moves(state, 1)[:3] == [
        {"die": 1, "direction": d} for d in ("up", "right", "down")
    ]
    with pytest.raises(IllegalMove) as err:
        ENGINE.timeout_move(state, 0)
    assert err.value.code == "not-your-turn"


def test_a_worm_eats_whatever_crosses_its_path() -> None:
    """rules/space-worm.md, "Turns": "Space Worms automatically eat whatever crosses
    their path": every Planet and fruit on the line counts, not only where it stops.

    Given a worm on Planet 4 at (4, 6), when a 4 goes down through Planet 6 at (7, 6)
    to (8, 6), then Planet 6 is eaten; when a 5 goes left from (4, 6) through to
    (4, 1), nothing is eaten, and a 6 left reaches the banana at (4, 0).
    """
    state = play(game(1, dice=[4, 5, 6, 1, 1, 1, 1, 1]), 0, "die 0 down")
    assert state["sheets"][0]["planets"] == [4, 6]
    assert position(state, 0) == (8, 6)
    left5 = play(game(1, dice=[4, 5, 6, 1, 1, 1, 1, 1]), 0, "die 1 left")
    assert left5["sheets"][0]["fruit"]["banana"]["eaten"] == 0
    left6 = play(game(1, dice=[4, 5, 6, 1, 1, 1, 1, 1]), 0, "die 2 left")
    assert left6["sheets"][0]["fruit"]["banana"]["eaten"] == 1
