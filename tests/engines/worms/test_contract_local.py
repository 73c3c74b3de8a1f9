"""The generic engine contract (tests/engines/test_contract.py), run on Worms before it
is registered: random playouts end and replay, every step round-trips, views are JSON."""

from __future__ import annotations

import json
import os
import random

import pytest

from arbiter.playout import random_game
from engines.base import Chance, Decision, IllegalMove, Over, fold
from engines.worms import ENGINE

GAMES = int(os.environ.get("ARBITER_PLAYOUTS", "100"))


def test_random_playouts_end_and_replay() -> None:
    """Given random legal games, they end with a ranking of every seat and replay exactly."""
    rng = random.Random("contract-worms")
    for _ in range(GAMES):
        players = rng.choice([2, 3, 4])
        game = random_game(ENGINE, players, {}, rng)
        ranked = sorted(s for group in game.result["ranking"] for s in group)
        assert ranked == list(range(players))
        assert len(game.result["scores"]) == players
        assert fold(ENGINE, players, {}, game.inputs) == game.state
        assert json.loads(json.dumps(game.state)) == game.state


def test_every_step_round_trips_and_views_are_json() -> None:
    """At every step: moves survive describe/parse, views are JSON, timeout moves are legal,
    and a seat not on turn is refused with ``not-your-turn``."""
    rng = random.Random("steps-worms")
    for _ in range(10):
        players = rng.choice([2, 3, 4])
        game = random_game(ENGINE, players, {}, rng, keep_states=True)
        for state in game.states:
            prompt = ENGINE.prompt(state)
            for seat in [None, *range(players)]:
                json.dumps(ENGINE.view(state, seat))
            if isinstance(prompt, Decision):
                for seat in prompt.seats:
                    moves = ENGINE.legal_moves(state, seat)
                    for move in moves:
                        text = ENGINE.describe(move)
                        assert ENGINE.parse(text, state, seat) == move, text
                    assert ENGINE.timeout_move(state, seat) in moves
                    assert isinstance(ENGINE.brief(state, seat), str)
                for seat in [s for s in range(players) if s not in prompt.seats]:
                    with pytest.raises(IllegalMove) as err:
                        ENGINE.play(state, seat, ENGINE.legal_moves(state, prompt.seats[0])[0])
                    assert err.value.code == "not-your-turn"
            else:
                assert isinstance(prompt, (Chance, Over))
