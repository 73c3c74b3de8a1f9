"""The determinization contract (``Engine.unseen`` / ``Engine.complete``), every engine.

Given random games and every seat's view at every step: a state rebuilt from the view
with any deal of the unseen pools shows that seat the very same view, holds the same
public part as the real state (the whole state where nothing is hidden), gives the seat
the same legal moves when it is to act, and never holds a card twice. And the deal is
really drawn: across deals, another seat's hidden cards change.
"""

from __future__ import annotations

import json
import random

import pytest

import engines
from arbiter.playout import random_game
from engines.base import Decision, Engine

OPTIONS = {
    "space-worm": [{}, {"start_roll": "shared"}],
    "dark-horse": [{}, {"dilly_dally": True}],
    "worms": [
        {},
        {"setup": "first-game"},
        {"sudden_death_draft": True, "late_superweapons": True},
        {"no_sudden_death": True, "true_elimination": True},
    ],
    "star-maps": [{}],
}
HIDDEN = {
    "dark-horse": ("goals", "goal_deck", "hands", "set_aside"),
    "worms": ("hands", "supply", "drop"),
}
"""The state's keys that a seat cannot fully see, by engine."""


def _deal(engine: Engine, view: dict, seat: int, rng: random.Random) -> dict:
    pools = engine.unseen(view, seat)
    return engine.complete(view, seat, {k: rng.sample(v, len(v)) for k, v in pools.items()})


def _rebuilt(engine: Engine, state: dict, seat: int, rng: random.Random) -> dict | None:
    """Return a state rebuilt from ``seat``'s view of ``state`` (None during Worms' setup)."""
    try:
        return _deal(engine, engine.view(state, seat), seat, rng)
    except NotImplementedError:
        assert engine.id == "worms" and ("setup" in state or state["over"] is not None)
        return None


@pytest.mark.parametrize("engine", engines.all_engines(), ids=lambda e: e.id)
def test_a_rebuilt_state_shows_the_same_view_and_public_part(engine: Engine) -> None:
    rng = random.Random(f"determinize-{engine.id}")
    rebuilt_count = 0
    for options in OPTIONS[engine.id]:
        for players in range(engine.min_players, engine.max_players + 1):
            game = random_game(engine, players, options, rng, keep_states=True)
            for state in game.states[:: max(1, len(game.states) // 12)]:
                prompt = engine.prompt(state)
                for seat in range(players):
                    rebuilt = _rebuilt(engine, state, seat, rng)
                    if rebuilt is None:
                        continue
                    rebuilt_count += 1
                    assert engine.view(rebuilt, seat) == engine.view(state, seat)
                    hidden = HIDDEN.get(engine.id, ())
                    other_ask = isinstance(prompt, Decision) and seat not in prompt.seats
                    for key in state:
                        if key not in hidden and not (key == "ask" and other_ask):
                            assert rebuilt[key] == state[key], key
                    if isinstance(prompt, Decision) and seat in prompt.seats:
                        assert engine.legal_moves(rebuilt, seat) == engine.legal_moves(state, seat)
                    cards = [c for key in hidden for c in _strings(rebuilt[key])]
                    assert len(cards) == len(set(cards))
    assert rebuilt_count > 50


@pytest.mark.parametrize("engine_id", ["dark-horse", "worms"])
def test_the_other_seats_cards_are_drawn_not_copied(engine_id: str) -> None:
    engine = engines.get(engine_id)
    rng = random.Random(f"drawn-{engine_id}")
    game = random_game(
        engine, 3, {"setup": "first-game"} if engine_id == "worms" else {}, rng, keep_states=True
    )
    state = next(
        s
        for s in game.states[len(game.states) // 3 :]
        if isinstance(engine.prompt(s), Decision) and engine.prompt(s).seats == (0,)
    )
    others = [json.dumps(_rebuilt(engine, state, 0, rng)["hands"][1:]) for _ in range(20)]
    assert len(set(others)) > 1
    assert sum(o == json.dumps(state["hands"][1:]) for o in others) < 3


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []
