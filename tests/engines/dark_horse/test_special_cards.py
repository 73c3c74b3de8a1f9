"""Special cards: Run for your life! and Bad encounter! (rules/dark-horse.md, "Special
Cards"; shared/components/dark-horse.md, "Decisions on rules questions")."""

from __future__ import annotations

import copy

import pytest

from engines.base import Decision, IllegalMove, InvalidMove

from .support import BUGS, E, in_play

GOALS = [
    ["goal-fly-1", "goal-bee-1"],
    ["goal-wasp-1", "goal-snail-1"],
    ["goal-ladybug-1", "goal-caterpillar-1"],
]
DECK = [
    "goal-grasshopper-1",
    "goal-fly-2",
    "goal-snail-2",
    "goal-bee-2",
    "goal-ladybug-2",
    "goal-wasp-2",
    "goal-grasshopper-2",
    "goal-caterpillar-2",
]
HANDS = [
    ["mv-bad-encounter", "mv-fly+1"],
    ["mv-run-for-your-life", "mv-wasp+1"],
    ["mv-bee+1", "mv-snail+1"],
]


def scenario() -> dict:
    """Return a 3-player game, seat 0 to play, known hands, goals and Goal deck."""
    return in_play(3, hands=HANDS, goals=GOALS, goal_deck=DECK)


def test_special_card_is_played_instead_of_a_move_card() -> None:
    """Given a special card in hand, then it is one of the turn's choices, and playing it
    uses up the turn (rules/dark-horse.md, "Special Cards": "instead of a Move card")."""
    moves = E.legal_moves(scenario(), 0)
    assert {"play": "mv-bad-encounter", "swap": 1} in moves
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "swap": 1})
    assert E.prompt(state) == Decision((1,), "play-card")
    assert state["hands"][0] == ["mv-fly+1"]


def test_run_for_your_life() -> None:
    """Given the Grasshopper on the cherry (space 3), when Run for your life! is played,
    then it goes to the stone (space 7, the last space) and the Bugs that were behind it
    each move one space forward (rules/dark-horse.md, "Special Cards")."""
    state = E.play(scenario(), 0, {"play": "mv-fly+1"})
    assert state["track"][2] == "grasshopper"
    state = E.play(state, 1, {"play": "mv-run-for-your-life"})
    assert state["track"] == [
        "fly",
        "snail",
        "bee",
        "ladybug",
        "wasp",
        "caterpillar",
        "grasshopper",
    ]
    assert E.view(state, None)["track"][6]["name"] == "stone"


def test_run_for_your_life_takes_no_direction() -> None:
    """Given Run for your life!, when played with a direction, then ``no-direction-on-card``
    (rules/dark-horse.md, "Special Cards")."""
    state = E.play(scenario(), 0, {"play": "mv-fly+1"})
    with pytest.raises(IllegalMove) as err:
        E.play(state, 1, {"play": "mv-run-for-your-life", "direction": "forward"})
    assert err.value.code == "no-direction-on-card"


def test_bad_encounter_swap_your_own_goal_card() -> None:
    """Given Bad encounter!, when seat 0 swaps its Goal card 2, then it holds the first
    card of the Goal deck in that slot, the card given goes to the bottom of the deck,
    and the Track does not move (rules/dark-horse.md, "Special Cards"; components page,
    "Decisions")."""
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "swap": 2})
    assert state["goals"][0] == ["goal-fly-1", "goal-grasshopper-1"]
    assert state["goal_deck"] == DECK[1:] + ["goal-bee-1"]
    assert state["track"] == BUGS
    assert state["played"][-1] == {"seat": 0, "card": "mv-bad-encounter", "swap": 2}


def test_the_goal_card_taken_is_seen_only_by_its_new_owner() -> None:
    """Given seat 0 swapped a Goal card, then its view shows the new card and no other
    view does; the public record says only which slot was swapped (components page,
    "Decisions": only its owner sees the card taken)."""
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "swap": 2})
    assert "goal-grasshopper-1" in [g["card"] for g in E.view(state, 0)["you"]["goals"]]
    for seat in (None, 1, 2):
        text = str(E.view(state, seat))
        assert "goal-grasshopper-1" not in text and "goal-bee-1" not in text
        assert "grasshopper-1" not in text


def test_bad_encounter_choose_another_player_who_must_swap() -> None:
    """Given Bad encounter!, when seat 0 chooses seat 2, then seat 2, not on turn, owes a
    decision: which of its own Goal cards to swap; when it picks card 1, then that card
    goes to the bottom of the Goal deck, it takes the top card, and the turn passes to
    seat 1 (rules/dark-horse.md, "Special Cards"; components page, "Decisions": the
    chosen player picks which card)."""
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "choose": 2})
    assert E.prompt(state) == Decision((2,), "bad-encounter-swap")
    assert E.legal_moves(state, 2) == [{"swap": 1}, {"swap": 2}]
    assert E.legal_moves(state, 0) == [] and E.legal_moves(state, 1) == []
    assert E.view(state, 1)["pending_bad_encounter"] == {"seat": 2, "by": 0}
    state = E.play(state, 2, {"swap": 1})
    assert state["goals"][2] == ["goal-grasshopper-1", "goal-caterpillar-1"]
    assert state["goal_deck"][-1] == "goal-ladybug-1"
    assert state["played"][-1] == {"seat": 0, "card": "mv-bad-encounter", "choose": 2, "swap": 1}
    assert E.prompt(state) == Decision((1,), "play-card")


@pytest.mark.parametrize("seat", [0, 1])
def test_only_the_chosen_player_answers(seat: int) -> None:
    """Given seat 2 chosen by Bad encounter!, when another seat (even the one who played
    it) answers, then it is refused with ``not-your-choice`` and a sentence naming the
    chosen seat (rules/dark-horse.md, "Special Cards")."""
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "choose": 2})
    with pytest.raises(IllegalMove) as err:
        E.play(state, seat, {"swap": 1})
    assert err.value.code == "not-your-choice"
    assert "Seat 2" in err.value.detail and "Bad encounter" in err.value.detail


def test_no_card_is_played_while_the_chosen_player_decides() -> None:
    """Given seat 2 chosen, when seat 1 (next in turn) plays a card, then
    ``not-your-choice``; when seat 2 plays a card instead of answering, ``wrong-phase``."""
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "choose": 2})
    with pytest.raises(IllegalMove) as err:
        E.play(state, 1, {"play": "mv-wasp+1"})
    assert err.value.code == "not-your-choice"
    with pytest.raises(IllegalMove) as err:
        E.play(state, 2, {"play": "mv-bee+1"})
    assert err.value.code == "wrong-phase"


@pytest.mark.parametrize(
    "move, code",
    [
        ({"play": "mv-bad-encounter", "swap": 3}, "goal-not-held"),
        ({"play": "mv-bad-encounter", "swap": 0}, "goal-not-held"),
        ({"play": "mv-bad-encounter", "choose": 3}, "no-such-player"),
        ({"play": "mv-bad-encounter", "choose": -1}, "no-such-player"),
        ({"play": "mv-bad-encounter", "choose": 0}, "choose-another-player"),
        ({"play": "mv-bad-encounter"}, "choice-required"),
        ({"play": "mv-bad-encounter", "swap": 1, "direction": "forward"}, "no-direction-on-card"),
    ],
)
def test_bad_encounter_errors(move: dict, code: str) -> None:
    """Given Bad encounter! in hand, when the choice breaks the card's text, then it is
    refused with a stable code and nothing changes (rules/dark-horse.md, "Special
    Cards"; issue 3, "Bad input")."""
    state = scenario()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        E.play(state, 0, move)
    assert err.value.code == code
    assert state == before


@pytest.mark.parametrize(
    "move",
    [
        {"play": "mv-bad-encounter", "swap": 1, "choose": 1},
        {"play": "mv-bad-encounter", "swap": "goal-fly-1"},
        {"play": "mv-bad-encounter", "choose": "1"},
        {"play": "mv-bad-encounter", "swap": True},
    ],
)
def test_bad_encounter_malformed(move: dict) -> None:
    """Given Bad encounter!, when the choice is unreadable (both, or not a number), then
    ``bad-move`` (engines/base.py, InvalidMove)."""
    with pytest.raises(InvalidMove):
        E.play(scenario(), 0, move)


def test_chosen_player_swapping_a_goal_not_held() -> None:
    """Given seat 2 chosen, when it names Goal card 5, then ``goal-not-held`` (issue 3,
    "Bad input": swapping a Goal card you do not hold)."""
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "choose": 2})
    with pytest.raises(IllegalMove) as err:
        E.play(state, 2, {"swap": 5})
    assert err.value.code == "goal-not-held"


def test_bad_encounter_as_the_last_card_is_answered_before_the_end() -> None:
    """Given Bad encounter! is the last card of the game, when it chooses a player, then
    the game waits for that player's swap and ends after it (rules/dark-horse.md, "End
    of the Game": "the last one has been resolved")."""
    state = in_play(3, hands=[["mv-bad-encounter"], [], []], goals=GOALS, goal_deck=DECK)
    state = E.play(state, 0, {"play": "mv-bad-encounter", "choose": 1})
    assert E.prompt(state) == Decision((1,), "bad-encounter-swap")
    state = E.play(state, 1, {"swap": 2})
    result = E.prompt(state).result
    goals = [g["card"] for g in result["details"][1]["goals"]]
    assert goals == ["goal-wasp-1", "goal-grasshopper-1"]


def test_the_arbiter_turn_check_names_the_chosen_player() -> None:
    """Given seat 2 chosen, when the arbiter checks whether seat 1 may move (before
    ``play``), then it gets ``not-your-choice`` with the Bad encounter sentence, and the
    chosen seat gets the Decision (engines/base.py, check_turn)."""
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "choose": 2})
    with pytest.raises(IllegalMove) as err:
        E.check_turn(state, 1)
    assert err.value.code == "not-your-choice" and "Bad encounter" in err.value.detail
    assert E.check_turn(state, 2) == Decision((2,), "bad-encounter-swap")
