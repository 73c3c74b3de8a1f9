"""Timeout moves: the least surprising legal move for every prompt (package docstring,
"Timeouts"; issue 3, "Notation")."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove

from .support import E, dealt, finish, in_play, placing


def test_placement_timeout_puts_the_first_free_bug_at_the_back() -> None:
    """Given a placement due, then the timeout places the first Bug not yet placed (data
    order), behind the row; the first Bug has no end (rules/dark-horse.md, "Setup" 3)."""
    state = placing(3)
    assert E.timeout_move(state, 0) == {"place": "fly"}
    state = E.play(state, 0, {"place": "fly"})
    assert E.timeout_move(state, 1) == {"place": "snail", "end": "back"}


def test_ant_timeout_passes() -> None:
    """Given the Ant round, then the timeout passes (rules/dark-horse.md, "Dilly Dally
    Variant" 3)."""
    assert E.timeout_move(dealt(3, dilly=True), 0) == {"ant": "pass"}


@pytest.mark.parametrize(
    "hand, move",
    [
        (["mv-fly+2", "mv-bee-pm1"], {"play": "mv-fly+2"}),
        (["mv-bee-pm1", "mv-fly+2"], {"play": "mv-bee-pm1", "direction": "forward"}),
        (["mv-positions-6-7"], {"play": "mv-positions-6-7", "direction": "forward"}),
        (["mv-positions-1-2"], {"play": "mv-positions-1-2", "direction": "backward"}),
        (["mv-bad-encounter", "mv-fly+2"], {"play": "mv-bad-encounter", "swap": 1}),
        (["mv-run-for-your-life"], {"play": "mv-run-for-your-life"}),
    ],
)
def test_turn_timeout_plays_the_first_card_forward(hand: list[str], move: dict) -> None:
    """Given a turn due, then the timeout plays the first card of the hand, forward when
    it asks for a direction (backward for a positions card that cannot go forward:
    "each Bug must move in the same direction"), and Bad encounter! swaps the player's
    own Goal card 1 (rules/dark-horse.md, "Gameplay", "Special Cards")."""
    state = in_play(3, hands=[hand, ["mv-wasp+1"], ["mv-bee+1"]])
    assert E.timeout_move(state, 0) == move
    assert move in E.legal_moves(state, 0)


def test_chosen_player_timeout_swaps_goal_one() -> None:
    """Given a player chosen by Bad encounter!, then its timeout swaps its Goal card 1
    (rules/dark-horse.md, "Special Cards")."""
    state = in_play(3, hands=[["mv-bad-encounter"], ["mv-wasp+1"], ["mv-bee+1"]])
    state = E.play(state, 0, {"play": "mv-bad-encounter", "choose": 1})
    assert E.timeout_move(state, 1) == {"swap": 1}


def test_no_timeout_for_a_seat_that_owes_nothing() -> None:
    """Given seat 0 to play, then seats 1 and 2 have no timeout move, nor has anyone after
    the end or while chance is due (engines/base.py, timeout_move)."""
    state = dealt(3)
    for seat in (1, 2):
        with pytest.raises(IllegalMove) as err:
            E.timeout_move(state, seat)
        assert err.value.code == "not-your-turn"
    with pytest.raises(IllegalMove) as err:
        E.timeout_move(finish(state), 0)
    assert err.value.code == "game-over"
    with pytest.raises(IllegalMove) as err:
        E.timeout_move(E.setup(3, {}), 0)
    assert err.value.code == "awaiting-chance"
