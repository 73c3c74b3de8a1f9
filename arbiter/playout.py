"""Random playouts of a bare engine: random legal moves, chance from a random seed.

Used by the generic engine contract tests, the soak run and the benchmarks. It holds
no rules: it only asks the engine what is legal and what chance it needs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arbiter import fairness
from engines.base import Chance, Decision, Engine, Input, Over, apply


class RunawayGame(RuntimeError):
    """A playout went past its step limit without the game ending."""


class DeadEnd(RuntimeError):
    """A seat owes a decision but has no legal move."""


@dataclass
class Playout:
    """The outcome of one random game.

    :param state: the final state; :param inputs: every input applied, in order;
    :param result: the ``Over`` result; :param states: the state after each input
        (only when asked for, it costs memory).
    """

    state: dict
    inputs: list[Input]
    result: Mapping[str, Any]
    states: list[dict] = field(default_factory=list)


def random_game(
    engine: Engine,
    players: int,
    options: Mapping[str, Any] | None = None,
    rng: random.Random | None = None,
    max_steps: int = 20000,
    keep_states: bool = False,
) -> Playout:
    """Play one game of random legal moves; return its :class:`Playout`.

    Chance outcomes come from :func:`arbiter.fairness.derive` with a seed drawn from
    ``rng`` and the input's position as ``seq``, as the arbiter itself derives them.
    In a simultaneous turn the seats answer in a random order.

    :raises DeadEnd: a seat to move has no legal move.
    :raises RunawayGame: no end after ``max_steps`` inputs.
    """
    rng = rng or random.Random()
    seed = f"{rng.getrandbits(256):064x}"
    state = engine.setup(players, engine.load_options(players, options))
    inputs: list[Input] = []
    states: list[dict] = []
    for step in range(1, max_steps + 1):
        item = next_input(engine, state, rng, seed, step)
        if item is None:
            return Playout(state, inputs, engine.prompt(state).result, states)
        state = apply(engine, state, item)
        inputs.append(item)
        if keep_states:
            states.append(state)
    raise RunawayGame(f"{engine.id}: no end after {max_steps} inputs")


def next_input(
    engine: Engine, state: dict, rng: random.Random, seed: str, seq: int
) -> Input | None:
    """Return a random input that fits the current prompt, ``None`` once it is over.

    :raises DeadEnd: a seat to move has no legal move.
    """
    prompt = engine.prompt(state)
    if isinstance(prompt, Over):
        return None
    if isinstance(prompt, Chance):
        return Input("chance", None, fairness.derive(prompt.spec, seed, seq))
    assert isinstance(prompt, Decision)
    seat = rng.choice(list(prompt.seats))
    moves = engine.legal_moves(state, seat)
    if not moves:
        raise DeadEnd(f"{engine.id}: seat {seat} must move but has no legal move")
    return Input("move", seat, rng.choice(moves))
