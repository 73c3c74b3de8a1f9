"""engines/worms/rules/targets.py target_options: the hexes listed are exactly those
target_error finds nothing wrong with, in board order, for every target step of the
cards, in the states of random games."""

import random

import engines
from arbiter.playout import random_game
from engines.worms import board as B
from engines.worms.rules.targets import target_error, target_options


def _steps(engine) -> list[dict]:
    """Return every distinct Target step of the cards (Air Strike included)."""
    steps = []
    for card in engine.cards.cards.values():
        for step in card["steps"]:
            if step["do"] in ("target", "air-strike") and step not in steps:
                steps.append(step)
    return steps


def test_listed_hexes_are_the_hexes_target_error_accepts() -> None:
    engine = engines.get("worms")
    steps = _steps(engine)
    assert any(s.get("direct") for s in steps) and any(s.get("within") for s in steps)
    for players in (2, 4):
        game = random_game(engine, players, {}, random.Random("targets"), keep_states=True)
        for state in game.states[::4]:
            if "setup" in state:
                continue
            for step in steps:
                listed = [tuple(o["at"]) for o in target_options(state, step)]
                board = B.board_hexes(state["dial"], state["radius"])
                fits = [k for k in board if target_error(state, step, k) is None]
                expected = [tuple(map(int, k.split(","))) for k in fits]
                if step["do"] == "air-strike":
                    expected = [at for at in expected for _ in range(6)]
                assert listed == expected
