"""Random playouts checked for invariants at every step (issue 3, "Secrets hold
everywhere" and "Notation": the Track is always a permutation of the 7 Bugs, every card
is played once, scores add up, no view leaks).

``ARBITER_PLAYOUTS`` sets the number of games (default 200; the soak runs 10,000).
"""

from __future__ import annotations

import json
import os
import random

from arbiter.playout import random_game
from engines.base import Over, ranking_from_scores
from engines.dark_horse import rules

from .support import BUGS, GOALS, MOVES, E

GAMES = int(os.environ.get("ARBITER_PLAYOUTS", "200"))
CHART = [10, 8, 6, 4, 3, 2, 1]


def check_cards(state: dict) -> None:
    """Every Bug once on the Track (or in the row), every card in exactly one place."""
    track = state["track"]
    assert len(set(track)) == len(track) and set(track) <= set(BUGS)
    if rules.phase(E.components, state) not in (rules.DEAL_GOALS, rules.START_PLAYER, rules.PLACE):
        assert sorted(track) == sorted(BUGS)
    if state["goals"] is not None:
        assert sorted(sum(state["goals"], []) + state["goal_deck"]) == sorted(GOALS)
    if state["hands"] is not None:
        played = [e["card"] for e in state["played"]]
        assert sorted(sum(state["hands"], []) + played + state["set_aside"]) == sorted(MOVES)
        assert len({len(h) for h in state["hands"]}) <= 2  # turns go round one card each


def check_views(state: dict, players: int) -> None:
    """No view or brief of one seat shows another seat's secrets or anyone's hidden
    cards; a seat's own view shows its own."""
    hidden = {seat: E.secrets(state, seat) for seat in [None, *range(players)]}
    for viewer in [None, *range(players)]:
        text = json.dumps(E.view(state, viewer))
        if viewer is not None:
            text += E.brief(state, viewer)
            assert all(s in text for s in hidden[viewer])
        for seat, secrets in hidden.items():
            if seat != viewer or seat is None:
                assert not any(s in text for s in secrets), (viewer, seat)


def check_result(state: dict, result: dict) -> None:
    """Scores add up from the chart and the Ant tokens; the ranking follows them."""
    places = {bug: i + 1 for i, bug in enumerate(state["track"])}
    black = state["black_base"]
    holders = rules.ant_holders(state) if state["dilly_dally"] else []
    for seat, detail in enumerate(result["details"]):
        goal_points = sum(
            CHART[places[E.components.goal_by_id[g].bug] - 1] for g in state["goals"][seat]
        )
        ant = 0 if seat not in holders else (5 if places[black] <= 3 else -3)
        assert detail["goal_points"] == goal_points
        assert result["scores"][seat] == detail["total"] == goal_points + ant
    assert result["ranking"] == ranking_from_scores(result["scores"])
    dealt = rules.HAND_SIZE[state["players"]] * state["players"]
    assert len(state["played"]) == dealt == len({e["card"] for e in state["played"]})
    assert all(not hand for hand in state["hands"]) and state["pending"] is None


def test_random_playouts_keep_every_invariant() -> None:
    """Given random games of random legal moves (2 to 6 players, half with Dilly Dally),
    then at every step the Track is a permutation of the Bugs, each card is in one place,
    no view leaks, and at the end every card was played once and the scores add up."""
    rng = random.Random("dark-horse-invariants")
    for _ in range(GAMES):
        players = rng.randint(2, 6)
        options = {"dilly_dally": rng.random() < 0.5}
        game = random_game(E, players, options, rng, keep_states=True)
        for state in game.states:
            check_cards(state)
            check_views(state, players)
        assert isinstance(E.prompt(game.state), Over)
        check_result(game.state, game.result)


def test_the_leak_check_catches_a_leak(monkeypatch) -> None:
    """Given a view that shows seat 1's hand to seat 0, then the invariant check fails:
    the playout test would see a leak (a check of the check)."""
    from .support import dealt

    state = dealt(3)
    honest = E.view

    def leaky(state: dict, seat):
        out = honest(state, seat)
        return {**out, "oops": state["hands"][1]} if seat == 0 else out

    monkeypatch.setattr(E, "view", leaky)
    try:
        check_views(state, 3)
    except AssertionError:
        return
    raise AssertionError("a leaked hand went unnoticed")
