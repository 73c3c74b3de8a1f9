"""The move notation for mails and logs (engines/dark_horse/notation.py; issue 3,
"Notation")."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove, InvalidMove

from .support import E, dealt, in_play, placing

HAND = [
    "mv-fly+2",
    "mv-snail-3",
    "mv-bee-pm1",
    "mv-position-5",
    "mv-bad-encounter",
    "mv-run-for-your-life",
]
GOALS = [
    ["goal-fly-1", "goal-bee-1"],
    ["goal-wasp-1", "goal-snail-1"],
    ["goal-ladybug-1", "goal-caterpillar-1"],
]


def scenario() -> dict:
    """Return a game with seat 0 to play HAND."""
    return in_play(3, hands=[HAND, ["mv-wasp+1"], ["mv-bee+1"]], goals=GOALS)


@pytest.mark.parametrize(
    "text, move",
    [
        ("play 1", {"play": "mv-fly+2"}),
        ("play 3 forward", {"play": "mv-bee-pm1", "direction": "forward"}),
        ("Play 4 Backward.", {"play": "mv-position-5", "direction": "backward"}),
        ("play position-5 forward", {"play": "mv-position-5", "direction": "forward"}),
        ("play 3 back", {"play": "mv-bee-pm1", "direction": "backward"}),
        ("play fly+2", {"play": "mv-fly+2"}),
        ("play fly +2", {"play": "mv-fly+2"}),
        ("play mv-snail-3", {"play": "mv-snail-3"}),
        ("play snail -3", {"play": "mv-snail-3"}),
        ("play bee ±1 fwd", {"play": "mv-bee-pm1", "direction": "forward"}),
        ("play bee-pm1 forward", {"play": "mv-bee-pm1", "direction": "forward"}),
        ("play run-for-your-life", {"play": "mv-run-for-your-life"}),
        ("run-for-your-life", {"play": "mv-run-for-your-life"}),
        ("bad-encounter swap 2", {"play": "mv-bad-encounter", "swap": 2}),
        ("bad-encounter swap bee", {"play": "mv-bad-encounter", "swap": 2}),
        ("play 5 swap goal 1", {"play": "mv-bad-encounter", "swap": 1}),
        ("bad-encounter choose 1", {"play": "mv-bad-encounter", "choose": 1}),
        ("bad-encounter choose seat 2", {"play": "mv-bad-encounter", "choose": 2}),
        ("play 1 forward", {"play": "mv-fly+2", "direction": "forward"}),
    ],
)
def test_parse_play(text: str, move: dict) -> None:
    """Given seat 0's hand, when it writes a play, then it reads as that move; hand
    numbers count from 1 (rules/dark-horse.md, "Gameplay", "Special Cards")."""
    assert E.parse(text, scenario(), 0) == move


@pytest.mark.parametrize(
    "text, move",
    [
        ("place fly", {"place": "fly"}),
        ("place fly front", {"place": "fly", "end": "front"}),
        ("place wasp back", {"place": "wasp", "end": "back"}),
        ("ant take", {"ant": "take"}),
        ("ant pass", {"ant": "pass"}),
        ("pass", {"ant": "pass"}),
        ("swap 2", {"swap": 2}),
    ],
)
def test_parse_setup_and_answers(text: str, move: dict) -> None:
    """Given any state, when a placement, an Ant choice or a swap answer is written,
    then it reads as that move (rules/dark-horse.md, "Setup" 3, "Dilly Dally Variant" 3,
    "Special Cards")."""
    assert E.parse(text, placing(3), 0) == move


def test_chosen_player_may_name_the_card_too() -> None:
    """Given seat 1 chosen by Bad encounter!, when it writes 'bad-encounter swap 2' or
    'swap snail', then it reads as its answer (rules/dark-horse.md, "Special Cards")."""
    state = E.play(scenario(), 0, {"play": "mv-bad-encounter", "choose": 1})
    assert E.parse("bad-encounter swap 2", state, 1) == {"swap": 2}
    assert E.parse("swap snail", state, 1) == {"swap": 2}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "dance",
        "play",
        "play dragonfly+2",
        "place fly sideways",
        "bad-encounter choose x",
        "play 1 forward loudly",
        "swap",
        "ant maybe",
        "swap purple",
    ],
)
def test_unreadable_text_is_a_bad_move(text: str) -> None:
    """Given seat 0 to play, when the text is not notation, then ``bad-move`` with the
    notation's examples."""
    with pytest.raises(InvalidMove) as err:
        E.parse(text, scenario(), 0)
    assert err.value.code == "bad-move"


def test_a_number_past_the_hand_or_goals() -> None:
    """Given 6 cards in hand, when a player writes 'play 7' or swaps a Bug it holds no
    Goal card for, then ``card-not-in-hand`` / ``goal-not-held``; 'play 1' before the
    deal is ``wrong-phase`` (issue 3, "Bad input")."""
    with pytest.raises(IllegalMove) as err:
        E.parse("play 7", scenario(), 0)
    assert err.value.code == "card-not-in-hand"
    with pytest.raises(IllegalMove) as err:
        E.parse("bad-encounter swap wasp", scenario(), 0)
    assert err.value.code == "goal-not-held"
    with pytest.raises(IllegalMove) as err:
        E.parse("play 1", placing(3), 0)
    assert err.value.code == "wrong-phase"
    with pytest.raises(InvalidMove):
        E.parse(None, scenario(), 0)


@pytest.mark.parametrize(
    "move, text",
    [
        ({"play": "mv-fly+2"}, "play fly+2"),
        ({"play": "mv-bee-pm1", "direction": "forward"}, "play bee-pm1 forward"),
        ({"play": "mv-bad-encounter", "swap": 2}, "bad-encounter swap 2"),
        ({"play": "mv-bad-encounter", "choose": 1}, "bad-encounter choose 1"),
        ({"swap": 1}, "swap 1"),
        ({"place": "fly"}, "place fly"),
        ({"place": "fly", "end": "front"}, "place fly front"),
        ({"ant": "take"}, "ant take"),
    ],
)
def test_describe(move: dict, text: str) -> None:
    """Given a move, then it is written with the card's name, readable without the hand."""
    assert E.describe(move) == text


@pytest.mark.parametrize("move", [{}, {"play": "mv-nothing"}, {"play": "mv-fly+2", "x": 1}, 3])
def test_describe_refuses_non_moves(move) -> None:
    """Given something that is no move, then describe refuses it as ``bad-move``."""
    with pytest.raises(InvalidMove):
        E.describe(move)


def test_every_legal_move_round_trips() -> None:
    """Given states of every kind of decision, then parse(describe(m)) == m for every
    legal move (tests/engines/test_contract.py)."""
    pending = E.play(scenario(), 0, {"play": "mv-bad-encounter", "choose": 2})
    states = [
        placing(3),
        E.play(placing(3), 0, {"place": "bee"}),
        dealt(3, dilly=True),
        scenario(),
        pending,
    ]
    for state in states:
        seat = E.to_act(state)[0]
        for move in E.legal_moves(state, seat):
            assert E.parse(E.describe(move), state, seat) == move
