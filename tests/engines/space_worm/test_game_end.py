"""Game end: rules/space-worm.md, "Game End"."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove, Over
from engines.space_worm import ENGINE
from tests.engines.space_worm.helpers import game, place, play, to_move

BOXED_IN = [(0, 1), (1, 1), (1, 0), (0, 0)]
"""A worm at (0, 0) that cannot move any die."""
ALL_FRUIT_BUT_ONE_APPLE = [
    (0, 3),
    (7, 1),
    (0, 7),
    (4, 0),
    (8, 3),
    (1, 5),
    (5, 2),
    (6, 7),
    (2, 1),
    (4, 8),
    (7, 4),
    (2, 6),
]
"""Every fruit space of level1 but the apple at (2, 7), ending left of it."""


def test_the_game_ends_immediately_when_a_player_colours_the_4th_heart() -> None:
    """rules/space-worm.md, "Game End": "The Game ends immediately when one player has
    coloured in all 4 of their heart symbols".

    Given seat 1 boxed in with 3 Hearts, when it colours a 4th, then the game is over at
    once: the other dice of the round stay untaken and no more moves are accepted.
    """
    state = place(game(3, dice=[1] * 8), 1, BOXED_IN, hearts=3)
    state = play(state, 0, "die 0 up")
    state = play(state, 1, "die 1 heart")
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Over)
    assert prompt.result["reason"] == "all-hearts" and prompt.result["ended_by"] == 1
    assert state["taken"] == [0, 1, None, None, None, None, None, None]
    for seat in range(3):
        assert ENGINE.legal_moves(state, seat) == []
    with pytest.raises(IllegalMove) as err:
        play(state, 2, "die 2 up")
    assert err.value.code == "game-over"
    with pytest.raises(IllegalMove) as err:
        ENGINE.timeout_move(state, 2)
    assert err.value.code == "game-over"


def test_three_hearts_do_not_end_the_game() -> None:
    """rules/space-worm.md, "Game End": only "all 4" Hearts end it.

    Given seat 0 boxed in with 2 Hearts, when it colours a 3rd, then play goes on.
    """
    state = place(game(2, dice=[1] * 8), 0, BOXED_IN, hearts=2)
    state = play(state, 0, "die 0 heart")
    assert state["sheets"][0]["hearts"] == 3
    assert to_move(state) == 1


def test_the_game_ends_immediately_when_a_player_has_gone_through_every_fruit_space() -> None:
    """rules/space-worm.md, "Game End": "... or when one player has gone through every
    fruit space on their map."

    Given seat 0 has eaten every fruit space but one apple, when it eats that apple,
    then it scores the apples and the game is over at once.
    """
    state = place(
        game(2, dice=[1] * 8),
        0,
        ALL_FRUIT_BUT_ONE_APPLE,
        scored={"banana": 11, "grape": 10, "lime": 9},
    )
    state = play(state, 0, "die 0 right")
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Over)
    assert prompt.result["reason"] == "all-fruit" and prompt.result["ended_by"] == 0
    details = prompt.result["details"][0]
    assert details["fruit"]["apple"] == {"track": 12, "plus": 1, "points": 13}
    assert details["fruit_points"] == 13 + 11 + 10 + 9


def test_the_result_has_scores_ranking_reason_and_details_per_seat() -> None:
    """engines/base.py, ``Over``: scores per seat, ranking best first, reason, details.

    Given a 3-player game ended by seat 1's 4th Heart, then each seat's score is its
    fruit points + 2 VP per uncoloured Heart - the Planet penalty, and the ranking
    follows the scores.
    """
    state = place(game(3, dice=[1] * 8), 1, BOXED_IN, hearts=3)
    state = play(play(state, 0, "die 0 up"), 1, "die 1 heart")
    result = ENGINE.prompt(state).result
    assert set(result) >= {"scores", "ranking", "reason", "details", "text"}
    for seat, d in enumerate(result["details"]):
        assert d["seat"] == seat
        assert result["scores"][seat] == d["fruit_points"] + d["heart_points"] - d["planet_penalty"]
    # seat 0 ate Planet 4 only: 8 - 28; seat 1 ate Planet 1, 4 Hearts: 0 - 28;
    # seat 2 ate Planet 4: 8 - 28
    assert result["scores"] == [-20, -28, -20]
    assert result["ranking"] == [[0, 2], [1]]
    assert "Seat 1" in result["text"]
