"""Decision points of random games, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from arbiter.playout import random_game
from engines.base import Decision, Engine

OPTIONS = {
    "space-worm": [{}],
    "dark-horse": [{}, {"dilly_dally": True}],
    "worms": [{}, {"setup": "first-game"}],
    "star-maps": [{}],
}
"""The option sets the bot tests play, by engine."""


def decisions(
    engine: Engine, players: int, options: dict, seed: str, every: int
) -> Iterator[tuple[dict, int]]:
    """Yield ``(state, seat)`` at every ``every``-th decision of a random game (each seat
    of a simultaneous turn)."""
    game = random_game(engine, players, options, random.Random(seed), keep_states=True)
    points = [
        (state, seat)
        for state in game.states
        if isinstance(prompt := engine.prompt(state), Decision)
        for seat in prompt.seats
    ]
    yield from points[::every]
