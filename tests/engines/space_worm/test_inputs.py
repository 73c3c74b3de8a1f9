"""Bad input, chance outcomes, purity and immutability of the Space Worm engine
(DESIGN.md, "Engines: pure functions of state and input")."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest

from engines.base import BadOutcome, InvalidMove
from engines.space_worm import ENGINE
from tests.engines.space_worm.helpers import game, place, play, started

PACKAGE = Path(__file__).resolve().parents[3] / "engines" / "space_worm"
FORBIDDEN = {
    "flask",
    "flask_smorest",
    "sqlalchemy",
    "celery",
    "kombu",
    "arbiter",
    "workers",
    "random",
    "secrets",
    "time",
    "datetime",
    "os",
    "socket",
    "requests",
    "subprocess",
}


@pytest.mark.parametrize(
    "move",
    [
        None,
        3,
        "die 3 up",
        [3, "up"],
        {},
        {"die": 3},
        {"direction": "up"},
        {"die": "3", "direction": "up"},
        {"die": True, "direction": "up"},
        {"die": 3.0, "direction": "up"},
        {"die": 3, "direction": "north"},
        {"die": 3, "direction": ["up"]},
        {"die": 3, "heart": False},
        {"die": 3, "heart": 1},
        {"die": 3, "direction": "up", "heart": True},
        {"die": 3, "direction": "up", "x": 1},
    ],
)
def test_a_malformed_move_is_bad_move(move) -> None:
    """Given a move that is not ``{"die", "direction"}`` or ``{"die", "heart": true}``,
    then InvalidMove ``bad-move`` with a sentence, whatever the state."""
    with pytest.raises(InvalidMove) as err:
        ENGINE.play(game(2), 0, move)
    assert err.value.code == "bad-move"
    assert err.value.detail.endswith(".")


@pytest.mark.parametrize(
    "outcome",
    [
        None,
        [],
        [1] * 7,
        [1] * 9,
        [0] + [1] * 7,
        [7] + [1] * 7,
        [True] + [1] * 7,
        [1.0] * 8,
        ["1"] * 8,
        "11111111",
    ],
)
def test_a_round_roll_that_does_not_fit_is_refused(outcome) -> None:
    """Given the round's 8 dice are awaited, when the outcome is not 8 whole numbers
    1..6, then BadOutcome ``bad-outcome``."""
    with pytest.raises(BadOutcome) as err:
        ENGINE.resolve(started(2), outcome)
    assert err.value.code == "bad-outcome"


@pytest.mark.parametrize("outcome", [[1], [1, 2, 3], [0, 6], [6, 7]])
def test_a_start_roll_that_does_not_fit_is_refused(outcome) -> None:
    """rules/space-worm.md, "Setup": the start roll is exactly 2 dice of 1..6."""
    with pytest.raises(BadOutcome) as err:
        ENGINE.resolve(ENGINE.setup(2, ENGINE.load_options(2, {})), outcome)
    assert err.value.code == "bad-outcome"


def test_no_outcome_is_taken_while_a_move_or_nothing_is_awaited() -> None:
    """Given the game waits for a move (or is over), then BadOutcome
    ``no-chance-pending``."""
    state = game(2)
    with pytest.raises(BadOutcome) as err:
        ENGINE.resolve(state, [1] * 8)
    assert err.value.code == "no-chance-pending"
    over = place(state, 0, [(0, 1), (1, 1), (1, 0), (0, 0)], hearts=3)
    over = play(over, 0, "die 0 heart")
    with pytest.raises(BadOutcome):
        ENGINE.resolve(over, [1] * 8)


def test_play_and_resolve_never_change_the_state_they_are_given() -> None:
    """DESIGN.md: states are never mutated in place; every call returns a new state."""
    states = [ENGINE.setup(3, ENGINE.load_options(3, {})), started(3), game(3, [1] * 8)]
    states.append(place(game(3, [1] * 8), 0, [(7, 1), (0, 3), (2, 6)]))
    for state in states:
        before = copy.deepcopy(state)
        prompt = ENGINE.prompt(state)
        if hasattr(prompt, "spec"):
            ENGINE.resolve(state, [1] * len(prompt.spec["faces"]))
        else:
            for move in ENGINE.legal_moves(state, 0):
                ENGINE.play(state, 0, move)
        assert state == before


def test_the_engine_imports_no_service_clock_or_randomness() -> None:
    """DESIGN.md / STYLE.md 1: engines import nothing from Flask, SQLAlchemy, Celery or
    ``arbiter``, and use no clock, no random generator and no OS calls at play time."""
    for file in PACKAGE.rglob("*.py"):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{file.name} imports {name}"
