"""The search bot beats the random bot clearly, in every engine (make soak: some minutes).

Each engine: 20 two-seat games, the search bot's seat alternating, its budget counted in
iterations only (so the games, seeded, are the same on every run). Random against random
wins about 45 % of such games (draws apart); the bound, 14 of 20, is passed by that with a
chance of about 2 %, so a broken search (one that plays at random) fails it.
"""

from __future__ import annotations

import pytest

import engines
from arbiter.bots import match
from arbiter.bots.budget import Budget
from arbiter.bots.players import Bot

GAMES, BOUND = 20, 14
BUDGET = Budget(iterations=300, seconds=None)


@pytest.mark.soak
@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_mcts_wins_clearly_more_than_random(engine_id: str) -> None:
    engine = engines.get(engine_id)
    wins = 0
    for g in range(GAMES):
        seat = g % 2
        bots = [Bot("random"), Bot("random")]
        bots[seat] = Bot("mcts", 3)
        wins += match.play(engine, bots, seed=g, budget=BUDGET).winners() == [seat]
    assert wins >= BOUND, f"{engine_id}: the search bot won {wins} of {GAMES}"
