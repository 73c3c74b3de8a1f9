"""The generic engine contract, run over every engine in the registry.

Given random games of random legal moves (STYLE.md, "What we take from all of them", 2):
they end, never dead-end, replay to the same state, round-trip through JSON, every
listed move is described in notation that parses back to it, and views are JSON.
"""

from __future__ import annotations

import json
import os
import random

import pytest

import engines
from arbiter.playout import random_game
from engines.base import Chance, Decision, Engine, IllegalMove, Over, fold

GAMES_PER_ENGINE = int(os.environ.get("ARBITER_PLAYOUTS", "200"))
ENGINES = engines.all_engines()
ENGINES += [
    old
    for engine in list(ENGINES)
    for version in range(1, int(engine.version))
    if (old := engine.at_version(str(version))) is not None
]
"""Every registered engine, and every older version it still plays for old games."""
STEP_GAMES = max(2, min(10, GAMES_PER_ENGINE // 10))
"""Games whose every step the step test checks: 10 (4 in ``make check``, whose
``ARBITER_PLAYOUTS`` is 40)."""
CURRENT = {id(engine) for engine in engines.all_engines()}


def _games(engine: Engine) -> int:
    """Games per playout test: ``ARBITER_PLAYOUTS`` for today's engines, a quarter of
    that for an older version (a subclass of today's engine, whose saved playthroughs
    replay step by step in ``tests/playthroughs``)."""
    return GAMES_PER_ENGINE if id(engine) in CURRENT else max(1, GAMES_PER_ENGINE // 4)


def _counts(engine: Engine) -> list[int]:
    return list(range(engine.min_players, engine.max_players + 1))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: f"{e.id}-v{e.version}")
def test_random_playouts_end_and_replay(engine: Engine) -> None:
    """Given random legal games, they end with a ranking of every seat and replay exactly."""
    rng = random.Random(f"contract-{engine.id}")
    for _i in range(_games(engine)):
        players = rng.choice(_counts(engine))
        game = random_game(engine, players, {}, rng)
        result = game.result
        ranked = sorted(s for group in result["ranking"] for s in group)
        assert ranked == list(range(players))
        assert len(result["scores"]) == players
        replayed = fold(engine, players, {}, game.inputs)
        assert replayed == game.state
        assert json.loads(json.dumps(game.state)) == game.state


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: f"{e.id}-v{e.version}")
def test_every_step_round_trips_and_views_are_json(engine: Engine) -> None:
    """At every step: moves survive describe/parse, views are JSON, timeout moves are legal,
    and a seat not on turn is refused with ``not-your-turn`` (or ``already-answered``
    for a seat that answered this simultaneous turn already, ``not-your-choice`` while
    another seat answers a choice put to it)."""
    rng = random.Random(f"steps-{engine.id}")
    for _ in range(STEP_GAMES):
        players = rng.choice(_counts(engine))
        game = random_game(engine, players, {}, rng, keep_states=True)
        for state in game.states:
            prompt = engine.prompt(state)
            for seat in [None, *range(players)]:
                json.dumps(engine.view(state, seat))
            if isinstance(prompt, Decision):
                for seat in prompt.seats:
                    moves = engine.legal_moves(state, seat)
                    for move in moves[:20]:
                        text = engine.describe(move)
                        assert engine.parse(text, state, seat) == move, text
                    assert engine.timeout_move(state, seat) in moves
                    assert isinstance(engine.brief(state, seat), str)
                idle = [s for s in range(players) if s not in prompt.seats]
                for seat in idle:
                    with pytest.raises(IllegalMove) as err:
                        engine.play(state, seat, engine.legal_moves(state, prompt.seats[0])[0])
                    assert err.value.code in (
                        "not-your-turn",
                        "already-answered",
                        "not-your-choice",
                    )
            else:
                assert isinstance(prompt, (Chance, Over))
