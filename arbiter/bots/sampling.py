"""Sampling what the bot cannot see: the deal behind a view, and chance outcomes.

Both draw only from the bot's own ``random.Random``. The deal goes through the engine's
:meth:`~engines.base.Engine.unseen` and :meth:`~engines.base.Engine.complete`, which read
the seat's view and nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arbiter import fairness
from engines.base import Engine


def pools(engine: Engine, view: dict, seat: int) -> dict[str, list[Any]]:
    """Return the pools of items ``seat`` cannot place (:meth:`Engine.unseen`)."""
    return {name: list(items) for name, items in engine.unseen(view, seat).items()}


def determinize(
    engine: Engine, view: dict, seat: int, unseen: Mapping[str, list[Any]], rng: random.Random
) -> dict:
    """Return one full state consistent with ``view``: each pool of ``unseen`` in a
    uniformly random order, dealt by :meth:`Engine.complete`.

    :raises NotImplementedError: the engine cannot rebuild a state from a view.
    """
    dealt = {name: rng.sample(items, len(items)) for name, items in unseen.items()}
    return engine.complete(view, seat, dealt)


def new_seed(rng: random.Random) -> str:
    """Return a seed for :func:`outcome`, drawn from the bot's ``rng``."""
    return f"{rng.getrandbits(256):064x}"


def outcome(spec: Mapping[str, Any], seed: str, seq: int) -> list[int]:
    """Return a chance outcome for ``spec`` as the arbiter derives one
    (:func:`arbiter.fairness.derive`), from the bot's own ``seed``, never the game's."""
    return fairness.derive(spec, seed, seq)
