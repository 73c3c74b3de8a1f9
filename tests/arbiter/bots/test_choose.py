"""The search bot answers with one of its legal moves, unchanged, for every engine and
every seat count, and the same rng gives the same move."""

from __future__ import annotations

import random

import pytest

import engines
from arbiter.bots.budget import Budget
from arbiter.bots.players import Bot, choose
from engines.base import Engine
from tests.arbiter.bots.helpers import OPTIONS, decisions

SMALL = Budget(iterations=6, seconds=None)
"""A budget by iterations only: the choice depends on the rng alone."""


@pytest.mark.parametrize("engine", engines.all_engines(), ids=lambda e: e.id)
def test_the_bot_returns_one_of_its_legal_moves_unchanged(engine: Engine) -> None:
    asked = 0
    for options in OPTIONS[engine.id]:
        for players in range(engine.min_players, engine.max_players + 1):
            for state, seat in decisions(engine, players, options, f"legal-{players}", 9):
                legal = engine.legal_moves(state, seat)
                view = engine.view(state, seat)
                move = choose(engine, view, seat, legal, Bot("mcts", 1), random.Random(1), SMALL)
                assert any(move is m for m in legal)
                engine.play(state, seat, move)
                asked += 1
    assert asked > 20


@pytest.mark.parametrize("engine", engines.all_engines(), ids=lambda e: e.id)
def test_the_same_rng_seed_gives_the_same_move(engine: Engine) -> None:
    for state, seat in decisions(engine, 2, OPTIONS[engine.id][-1], "same", 7):
        legal = engine.legal_moves(state, seat)
        view = engine.view(state, seat)
        first, again = (
            choose(engine, view, seat, legal, Bot("mcts", 2), random.Random(7), SMALL)
            for _ in range(2)
        )
        assert first == again


def test_a_level_budget_ends_a_search_in_time_for_any_legal_answer() -> None:
    """Level 1 (the default budget, CPU time included) still answers legally."""
    engine = engines.get("star-maps")
    state, seat = next(decisions(engine, 2, {}, "level", 1))
    legal = engine.legal_moves(state, seat)
    move = choose(engine, engine.view(state, seat), seat, legal, Bot("mcts", 1), random.Random(2))
    assert move in legal


def test_a_single_legal_move_is_played_without_search() -> None:
    engine = engines.get("space-worm")
    state, seat = next(decisions(engine, 2, {}, "single", 1))
    only = engine.legal_moves(state, seat)[:1]
    assert choose(engine, {}, seat, only, Bot("mcts", 5), random.Random(3)) is only[0]


def test_no_legal_move_is_refused() -> None:
    with pytest.raises(ValueError):
        choose(engines.get("space-worm"), {}, 0, [], Bot("mcts", 1), random.Random(4))
