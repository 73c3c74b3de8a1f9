"""The search bot cannot reach another seat's hidden cards.

Its input is the seat's view and legal moves (``choose`` takes no state); the view holds
none of the other seats' secrets; two states that differ only in another seat's hidden
cards give the same view and so the same decision; and every state the search plays
through is a determinization (``Engine.complete``) that shows the seat its own view, with
the other seats' cards drawn at random, not copied from the game.
"""

from __future__ import annotations

import inspect
import json
import random

import pytest

import engines
from arbiter.bots.budget import Budget
from arbiter.bots.players import Bot, choose
from arbiter.playout import random_game
from engines.base import Decision
from engines.dark_horse.engine import DarkHorse
from engines.worms.engine import WormsEngine

BUDGET = Budget(iterations=40, seconds=None)
CASES = {"dark-horse": ({}, "set_aside"), "worms": ({"setup": "first-game"}, "supply")}
"""Engine -> options whose game deals early, and the deck that trades with a hand."""


def _decision_of_seat_0(engine, options: dict) -> dict:
    """Return a mid-game state of a 3-seat random game where seat 0 must decide and the
    other seats hold cards."""
    game = random_game(engine, 3, options, random.Random("secrets"), keep_states=True)
    for state in game.states[len(game.states) // 4 :]:
        prompt = engine.prompt(state)
        if isinstance(prompt, Decision) and prompt.seats == (0,) and state["hands"][1]:
            if len(engine.legal_moves(state, 0)) > 1:
                return state
    raise AssertionError("no decision of seat 0 with cards in other hands")


def _traded(engine, state: dict, deck: str) -> dict:
    """Return ``state`` with seat 1's first card traded with the top of ``deck``."""
    other = json.loads(json.dumps(state))
    mine, theirs = other["hands"][1][0], other[deck][0]
    other["hands"][1][0], other[deck][0] = theirs, mine
    if engine.id == "dark-horse":  # a Dark Horse hand is kept in printed order
        order = {m.id: i for i, m in enumerate(engine.components.move_cards)}
        other["hands"][1].sort(key=order.__getitem__)
    return other


def test_choose_takes_no_state() -> None:
    assert "state" not in inspect.signature(choose).parameters


@pytest.mark.parametrize("engine_id", sorted(CASES))
def test_states_differing_in_another_seats_cards_give_the_same_decision(engine_id: str) -> None:
    engine = engines.get(engine_id)
    options, deck = CASES[engine_id]
    state = _decision_of_seat_0(engine, options)
    other = _traded(engine, state, deck)
    assert engine.view(other, 1) != engine.view(state, 1)  # seat 1's cards did change
    view = engine.view(state, 0)
    assert engine.view(other, 0) == view
    text = json.dumps(view)
    for seat in (1, 2):
        assert not [s for s in engine.secrets(state, seat) if s in text]
    legal = engine.legal_moves(state, 0)
    assert engine.legal_moves(other, 0) == legal
    moves = [
        choose(engine, engine.view(s, 0), 0, legal, Bot("mcts", 3), random.Random(5), BUDGET)
        for s in (state, other)
    ]
    assert moves[0] == moves[1]


def recording(engine_class: type) -> type:
    """Return a subclass of a real engine class that keeps every state it rebuilds."""

    class Recording(engine_class):
        def __init__(self) -> None:
            super().__init__()
            self.rebuilt: list[dict] = []

        def complete(self, view, seat, dealt):
            state = super().complete(view, seat, dealt)
            self.rebuilt.append(state)
            return state

    return Recording


@pytest.mark.parametrize("engine_class", [DarkHorse, WormsEngine], ids=["dh", "worms"])
def test_the_search_plays_only_determinizations_of_the_view(engine_class: type) -> None:
    engine = recording(engine_class)()
    options, _ = CASES[engine.id]
    state = _decision_of_seat_0(engine, options)
    view = engine.view(state, 0)
    legal = engine.legal_moves(state, 0)
    choose(engine, view, 0, legal, Bot("mcts", 3), random.Random(6), BUDGET)
    assert len(engine.rebuilt) == BUDGET.iterations
    for rebuilt in engine.rebuilt:
        assert engine.view(rebuilt, 0) == view
        assert rebuilt["hands"][0] == state["hands"][0]
    real = [json.dumps(state["hands"][s]) for s in (1, 2)]
    drawn = [[json.dumps(r["hands"][s]) for s in (1, 2)] for r in engine.rebuilt]
    assert sum(d == real for d in drawn) < len(drawn) // 4
