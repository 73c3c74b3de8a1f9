"""A whole game between built-in bots, over the bare engine: for tests and benchmarks.

Each seat to move gets only its view and its legal moves (:func:`choose`); chance comes
from :func:`arbiter.fairness.derive` with the match's own seed, as the arbiter derives it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbiter.bots import sampling
from arbiter.bots.budget import Budget
from arbiter.bots.players import Bot, choose
from engines.base import Chance, Engine, Over


@dataclass
class Match:
    """A finished match: the ``result`` (``Over``), and the CPU seconds
    (``time.process_time``) of each bot move of each seat (``cpu[seat]``)."""

    result: Mapping[str, Any]
    cpu: list[list[float]] = field(default_factory=list)

    def winners(self) -> list[int]:
        """Return the seats ranked first (several when tied)."""
        return list(self.result["ranking"][0])


def play(
    engine: Engine,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, Any] | None = None,
    budget: Budget | None = None,
    observe: Callable[[int, dict, list[Any]], None] | None = None,
    max_steps: int = 20000,
) -> Match:
    """Play one game of ``len(bots)`` seats, seat ``s`` played by ``bots[s]``; return it.

    :param seed: seeds the chance outcomes and each seat's bot ``rng``;
    :param budget: overrides every search's budget (see :func:`choose`);
    :param observe: called as ``observe(seat, state, legal)`` before each bot move
        (tests use it to compare what a bot saw with the state).
    :raises RuntimeError: no end after ``max_steps`` inputs.
    """
    players = len(bots)
    state = engine.setup(players, engine.load_options(players, options))
    chance_seed = sampling.new_seed(random.Random(f"chance-{seed}"))
    rngs = [random.Random(f"bot-{seed}-{s}") for s in range(players)]
    cpu: list[list[float]] = [[] for _ in range(players)]
    for step in range(1, max_steps + 1):
        prompt = engine.prompt(state)
        if isinstance(prompt, Over):
            return Match(prompt.result, cpu)
        if isinstance(prompt, Chance):
            state = engine.resolve(state, sampling.outcome(prompt.spec, chance_seed, step))
            continue
        seat = min(prompt.seats)
        legal = engine.legal_moves(state, seat)
        if observe is not None:
            observe(seat, state, legal)
        start = time.process_time()
        move = choose(engine, engine.view(state, seat), seat, legal, bots[seat], rngs[seat], budget)
        cpu[seat].append(time.process_time() - start)
        state = engine.play(state, seat, move)
    raise RuntimeError(f"{engine.id}: no end after {max_steps} inputs")
