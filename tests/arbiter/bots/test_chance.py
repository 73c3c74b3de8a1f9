"""The search samples chance afresh on every walk: it never plans on one imagined roll
(issue 25, the search bot; ``arbiter/bots/mcts.py``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arbiter.bots import sampling
from arbiter.bots.budget import Budget
from arbiter.bots.mcts import Search
from engines.base import Chance, Decision, Engine, Over

BETS = {"even": {2, 4, 6}, "odd": {1, 3, 5}, "not six": {1, 2, 3, 4, 5}}
"""A bet -> the rolls of one six-sided die that win it."""


class Bet(Engine):
    """A toy game: seat 0 names a bet, one die is rolled, seat 0 wins if the roll is in
    the bet, else seat 1 wins. "not six" wins 5 times in 6, the others 3 times in 6."""

    id = "bet"

    def setup(self, players, options):
        return {"bet": None, "roll": None}

    def prompt(self, state):
        if state["bet"] is None:
            return Decision(seats=(0,))
        if state["roll"] is None:
            return Chance(spec={"kind": "dice", "faces": [6]})
        won = state["roll"] in BETS[state["bet"]]
        return Over({"scores": [int(won), int(not won)], "reason": "rolled"})

    def legal_moves(self, state, seat):
        return list(BETS)

    def play(self, state, seat, move):
        return {**state, "bet": move}

    def resolve(self, state, outcome):
        return {**state, "roll": outcome[0]}

    def view(self, state, seat):
        return dict(state)

    def complete(self, view, seat, dealt):
        return dict(view)


@pytest.mark.parametrize("seed", range(12))
def test_the_search_takes_the_bet_that_wins_most_often(seed: int) -> None:
    """Were one roll drawn for every walk, a search that imagined a six would bet
    "even" (it would always win) over "not six" (never); each walk rolling anew, the
    search sees "not six" win five times in six and takes it."""
    engine = Bet()
    state = engine.setup(2, {})
    search = Search(engine, engine.view(state, 0), 0, list(BETS), random.Random(seed))
    assert search.run(Budget(iterations=300, seconds=None)) == "not six"


def test_draw_rolls_dice_and_shuffles_from_the_bots_rng() -> None:
    """Dice fall in ``1..faces``, every face turns up, a shuffle is a permutation; the
    same rng seed gives the same outcome."""
    rng = random.Random(1)
    rolls = Counter(
        v for _ in range(600) for v in sampling.draw({"kind": "dice", "faces": [6, 4]}, rng)[:1]
    )
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    pair = sampling.draw({"kind": "dice", "faces": [6, 4]}, rng)
    assert 1 <= pair[0] <= 6 and 1 <= pair[1] <= 4
    assert sorted(sampling.draw({"kind": "shuffle", "size": 9}, rng)) == list(range(9))
    spec = {"kind": "shuffle", "size": 9}
    assert sampling.draw(spec, random.Random(5)) == sampling.draw(spec, random.Random(5))
    with pytest.raises(ValueError):
        sampling.draw({"kind": "coin"}, rng)
