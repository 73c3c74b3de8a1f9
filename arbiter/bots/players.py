"""Which bots there are, and the one call the service makes: :func:`choose`.

A bot reads only what its seat may see: the seat's view (``Engine.view(state, seat)``) and
its own legal moves (which reveal nothing another seat holds). It never receives the state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from arbiter.bots.budget import Budget, for_level
from arbiter.bots.mcts import Search
from engines.base import Engine

KINDS = ("random", "mcts")
"""The bots by name: ``random`` plays a uniformly random legal move; ``mcts`` searches."""

LEVELS = range(1, 6)
"""Strength levels, 1 (weakest, fastest) to 5."""


class UnknownBot(ValueError):
    """No bot of that kind, or a level out of :data:`LEVELS`."""


@dataclass(frozen=True)
class Bot:
    """A built-in player: its ``kind`` (one of :data:`KINDS`) and strength ``level``."""

    kind: str = "random"
    level: int = 1

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise UnknownBot(f"no bot {self.kind!r}: the bots are {', '.join(KINDS)}")
        if self.level not in LEVELS:
            raise UnknownBot(f"a bot's level is {LEVELS.start} to {LEVELS.stop - 1}")

    def to_json(self) -> dict:
        """``{"kind": str, "level": int}``, as stored with the seat."""
        return {"kind": self.kind, "level": self.level}


def choose(
    engine: Engine,
    view: dict,
    seat: int,
    legal: list[Any],
    bot: Bot,
    rng: random.Random,
    budget: Budget | None = None,
) -> Any:
    """Return the move ``bot`` plays for ``seat``: one of ``legal``, unchanged.

    :param view: ``engine.view(state, seat)``, all the bot may know of the game;
    :param legal: ``engine.legal_moves(state, seat)``, not empty;
    :param rng: the bot's own randomness (never the game's seed);
    :param budget: the search's limits (default: the level's, :mod:`arbiter.bots.budget`);
        with ``seconds=None`` the choice depends on ``rng``'s state alone.
    :raises ValueError: ``legal`` is empty.

    ``mcts`` searches (:mod:`arbiter.bots.mcts`); with one legal move, or for an engine
    that cannot rebuild a state from a view (:meth:`Engine.complete`), it plays at random.
    """
    if not legal:
        raise ValueError(f"seat {seat} has no legal move to choose from")
    if bot.kind == "random" or len(legal) == 1:
        return rng.choice(legal)
    try:
        return Search(engine, view, seat, list(legal), rng).run(budget or for_level(bot.level))
    except NotImplementedError:
        return rng.choice(legal)
