"""Random playouts across option sets (issue 14, Deliver 5): every player count, each
setup, each optional rule on (and off: the plain sets), and all of them at once. They
end, never dead-end, keep every Thing within its pool, never place a fourth Thing by
setup, and replay identically.

ARBITER_PLAYOUTS games in all (default 300, shared round-robin over the option sets;
``make soak`` sets 10000). Games per second per set: ``bench/worms_playouts.py``.
"""

from __future__ import annotations

import os
import random

import pytest

from arbiter.playout import random_game
from engines.base import Decision, fold
from engines.worms import ENGINE, board

GAMES = int(os.environ.get("ARBITER_PLAYOUTS", "300"))

RULES = [
    "parting_gifts",
    "true_elimination",
    "sudden_death_draft",
    "no_sudden_death",
    "late_superweapons",
    "longer_game",
    "reduced_blast",
    "timer",
]
EVERYTHING = {rule: True for rule in RULES if rule != "no_sudden_death"}

OPTION_SETS: dict[str, dict] = {
    "standard": {},
    "first-game": {"setup": "first-game"},
    **{f"standard+{r}": {r: True} for r in RULES},
    **{f"first-game+{r}": {"setup": "first-game", r: True} for r in RULES},
    "standard+larger_map": {"larger_map": True},
    "all-at-once": {**EVERYTHING, "larger_map": True},
    "all-at-once-no-sudden-death": {
        **EVERYTHING,
        "sudden_death_draft": False,
        "no_sudden_death": True,
        "larger_map": True,
    },
    "first-game-all-at-once": {"setup": "first-game", **EVERYTHING},
}
"""Option sets by name (contradictory pairs are refused: see test_options.py)."""


def check_invariants(state: dict, players: int) -> None:
    """Things within their pools and on Land; no fourth Thing placed during setup; no
    worm left in a full hex at the start of a turn."""
    counts: dict[str, int] = {}
    per_hex: dict[str, list[str]] = {}
    for i, t in state["things"].items():
        counts[t["kind"]] = counts.get(t["kind"], 0) + 1
        per_hex.setdefault(t["hex"], []).append(i)
        assert t["hex"] in state["land"], f"{i} on Water at {t['hex']}"
    for kind, total in board.BOX.items():
        if kind != "water":
            assert counts.get(kind, 0) + state["pool"][kind] == total, kind
            assert state["pool"][kind] >= 0
    per_team = 2 if state["options"]["setup"] == "first-game" else 4
    for team in {t["team"] for t in state["things"].values() if t["kind"] == "worm"}:
        assert len(board.worms_of(state, team)) <= per_team
    assert counts.get("worm", 0) <= per_team * players
    if state["turn"]["number"] == 0:
        assert all(len(ids) <= 3 for ids in per_hex.values()), "a fourth Thing by setup"
    p = ENGINE.prompt(state)
    if isinstance(p, Decision) and p.kind == "activate":
        for key, ids in per_hex.items():
            if len(ids) >= 4:
                assert not [i for i in ids if state["things"][i]["kind"] == "worm"], key


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_random_playouts_keep_the_invariants(name: str) -> None:
    options = OPTION_SETS[name]
    index = list(OPTION_SETS).index(name)
    games = GAMES // len(OPTION_SETS) + (1 if index < GAMES % len(OPTION_SETS) else 0)
    rng = random.Random(f"worms-soak-{name}")
    for g in range(games):
        players = [2, 3, 4][g % 3]
        game = random_game(ENGINE, players, options, rng, keep_states=g < 3)
        for state in game.states:
            check_invariants(state, players)
        check_invariants(game.state, players)
        assert fold(ENGINE, players, options, game.inputs) == game.state
