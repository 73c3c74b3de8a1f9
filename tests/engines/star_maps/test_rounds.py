"""Rounds: the roll, the simultaneous Choose Phase, and the end of the game.

rules/star-maps.md, "Round", "Roll Phase", "Choose Phase", "How to Win", "Game End";
components/star-maps.md, "Decisions on rules questions".
"""

from __future__ import annotations

import itertools

import pytest

from engines.base import BadOutcome, Chance, Decision, Over
from engines.star_maps import ENGINE
from engines.star_maps.rules import ALREADY_ANSWERED_CODE, AlreadyAnswered
from engines.star_maps.sheet import SHEETS

from .helpers import connect, dice, given, marks, refused

FULL_PLAIN = marks({b: 1 for b in SHEETS["plain"].boxes}, list(SHEETS["plain"].connections))


def test_a_round_starts_with_a_public_roll_of_two_dice():
    """Roll Phase: "Any player may roll the dice. Once rolled, announce the results aloud."
    Given a new game, when asked what it waits for, then it is two public six-sided dice."""
    state = given(players=3)
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Chance)
    assert prompt.spec["kind"] == "dice" and prompt.spec["faces"] == [6, 6]
    assert prompt.visible_to is None


def test_every_seat_answers_the_same_roll_at_once():
    """Choose Phase; Decisions: "a round is a simultaneous turn". Given a roll in a 3-player
    game, then one Decision of kind "choose" holds every seat."""
    state = given(players=3, roll=[2, 5])
    prompt = ENGINE.prompt(state)
    assert prompt == Decision((0, 1, 2), kind="choose")
    assert ENGINE.view(state, None)["roll"] == [2, 5]


def test_the_decision_shrinks_as_seats_answer_and_the_next_round_rolls_after_the_last():
    """Round: Roll then Choose. Given 3 seats, when seats 1 and 0 answer, then only seat 2
    is owed; when it answers, the next round's roll is asked for."""
    state = given(players=3, roll=[2, 5])
    state = ENGINE.play(state, 1, dice(2, 5, "A2"))
    state = ENGINE.play(state, 0, connect("C1"))
    assert ENGINE.prompt(state) == Decision((2,), kind="choose")
    state = ENGINE.play(state, 2, dice(5, 2, "A5"))
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Chance) and prompt.spec["for"] == "round 2"
    assert state["round"] == 2


def test_the_order_of_a_rounds_answers_does_not_change_the_result():
    """Choose Phase: each player writes on their own sheet. Given three answers to one roll,
    when they arrive in every possible order, then the state after the round is the same."""
    start = given(players=3, roll=[3, 3])
    answers = {0: dice(3, 3, "A3"), 1: connect("C4"), 2: dice(3, 3, "B6")}
    results = []
    for order in itertools.permutations(answers):
        state = start
        for seat in order:
            state = ENGINE.play(state, seat, answers[seat])
        results.append(state)
    assert all(r == results[0] for r in results)


def test_a_second_answer_in_the_same_round_is_refused():
    """Decisions: a round resolves when every player has chosen, once. Given seat 0 has
    answered, when it answers again, then it is refused (HTTP 409, reason
    already-answered) and seat 1 still owes its answer."""
    state = given(players=2, roll=[2, 5])
    state = ENGINE.play(state, 0, dice(2, 5, "A2"))
    err = refused(state, 0, dice(5, 2, "A5"), ALREADY_ANSWERED_CODE)
    assert isinstance(err, AlreadyAnswered)
    assert err.reason == "already-answered"  # 409: tests/arbiter/resources/test_problems.py
    assert "already answered" in err.detail
    assert ENGINE.to_act(state) == [1]


def test_a_seat_outside_the_game_is_refused():
    """Choose Phase. Given a 2-player round, when seat 5 answers, then not-your-turn."""
    refused(given(players=2, roll=[2, 5]), 5, dice(2, 5, "A2"), "not-your-turn")


def test_no_answer_before_the_roll():
    """Round: the roll comes first. Given no roll yet, when a seat moves, then
    awaiting-chance."""
    refused(given(players=2), 0, dice(2, 5, "A2"), "awaiting-chance")


@pytest.mark.parametrize("outcome", [[7, 1], [0, 3], [1], [1, 2, 3], "12", [True, 2], None])
def test_a_roll_must_be_two_dice(outcome):
    """Components: 2 six-sided dice. Given a game awaiting its roll, when the outcome is
    not two values 1-6, then BadOutcome bad-outcome."""
    with pytest.raises(BadOutcome) as err:
        ENGINE.resolve(given(), outcome)
    assert err.value.code == "bad-outcome"


def test_no_roll_while_seats_owe_answers():
    """Round: one roll per round. Given a rolled round, when another roll comes, then
    BadOutcome no-chance-pending."""
    with pytest.raises(BadOutcome) as err:
        ENGINE.resolve(given(roll=[1, 2]), [3, 4])
    assert err.value.code == "no-chance-pending"


def test_a_seat_that_can_act_must_act():
    """Choose Phase: "A player must use the dice or make a connection if they can." Given a
    seat that can act, when it passes, then must-act, and pass is not among its moves."""
    state = given(roll=[2, 5])
    refused(state, 0, {"act": "pass"}, "must-act")
    assert {"act": "pass"} not in ENGINE.legal_moves(state, 0)


def test_a_seat_that_can_only_connect_is_asked_and_must_connect():
    """How to Win: the game ends only when a player can neither use the dice nor mark off a
    connection. Given a sheet with every box filled but C2 open, when the dice are rolled,
    then the seat is asked and its only moves are connections."""
    boxes = {b: 1 for b in SHEETS["plain"].boxes}
    state = given(seats=[marks(boxes, ["C1", "C3", "C4"])], roll=[6, 6])
    assert ENGINE.to_act(state) == [0]
    assert ENGINE.legal_moves(state, 0) == [connect("C2")]
    assert ENGINE.timeout_move(state, 0) == connect("C2")


def test_a_seat_that_cannot_act_is_not_asked_and_the_game_ends_after_the_round():
    """Choose Phase, note: "If any player cannot use the dice or make a connection, the
    game ends immediately after this phase"; Decisions: "the other players still finish
    the round". Given seat 1's sheet is full, when the dice are rolled, then only seat 0 is
    asked, seat 1 is refused with not-your-turn, and the game ends once seat 0 answers."""
    state = given(players=2, seats=[marks(), FULL_PLAIN], roll=[2, 5])
    assert ENGINE.prompt(state) == Decision((0,), kind="choose")
    assert ENGINE.view(state, 1)["cannot_move"] == [1]
    assert ENGINE.legal_moves(state, 1) == []
    err = refused(state, 1, dice(2, 5, "A2"), "not-your-turn")
    assert "game ends after this round" in err.detail
    state = ENGINE.play(state, 0, dice(2, 5, "A2"))
    assert state["phase"] in ("vote", "over")
    assert state["result"]["cannot_move"] == [1] and state["result"]["ended_round"] == 1
    assert state["marks"][0]["boxes"] == {"A2": 5}


def test_when_no_seat_can_act_the_game_ends_at_the_roll():
    """Game End: "The game ends when a player can no longer make a legal move." Given a
    solo sheet that is full, when the dice are rolled, then the game is over at once."""
    state = given(seats=[FULL_PLAIN], roll=[4, 1])
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Over)
    assert "could neither use the dice 4 and 1 nor make a connection" in prompt.result["reason"]


def test_a_seat_with_no_action_may_pass_in_the_answer_rules():
    """Choose Phase: the duty to act holds only "if they can". Given a sheet with no action,
    then its only answer is pass and pass is accepted (such a seat is never asked, so this
    is the answer rule itself)."""
    from engines.star_maps import turn

    layout = SHEETS["plain"]
    assert turn.answers(layout, [2, 5], [], FULL_PLAIN) == [{"act": "pass"}]
    assert turn.apply_answer(layout, [2, 5], [], FULL_PLAIN, {"act": "pass"}) == FULL_PLAIN


def test_no_move_after_the_game_is_over():
    """Game End. Given a finished solo game, when a move comes, then game-over."""
    state = given(seats=[FULL_PLAIN], roll=[4, 1])
    refused(state, 0, dice(4, 1, "A4"), "game-over")


def test_the_timeout_move_is_the_first_dice_use():
    """Decisions: a round resolves when every player has chosen or their deadline passed.
    Given a roll, then the timeout move is the first dice use (the die as rolled first
    picks the star, boxes in printed order)."""
    state = given(roll=[2, 5])
    assert ENGINE.timeout_move(state, 0) == dice(2, 5, "A2")


def test_the_timeout_move_of_a_seat_that_owes_nothing_is_refused():
    """Choose Phase. Given seat 0 answered, then asking its timeout move is not-your-turn
    (or the already-answered code)."""
    state = ENGINE.play(given(players=2, roll=[2, 5]), 0, dice(2, 5, "A2"))
    with pytest.raises(AlreadyAnswered):
        ENGINE.timeout_move(state, 0)
