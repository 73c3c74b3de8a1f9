"""Random playouts (issue 6, Deliver 8): they end, never dead-end, keep every Thing
count within the box, keep full hexes free of worms between turns, and replay
identically. ARBITER_PLAYOUTS games (default 100; soak: 2000)."""

from __future__ import annotations

import os
import random

from arbiter.playout import random_game
from engines.base import Decision, fold
from engines.worms import ENGINE, board

GAMES = int(os.environ.get("ARBITER_PLAYOUTS", "100"))


def check_invariants(state: dict, players: int) -> None:
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
    assert counts.get("worm", 0) <= 2 * players
    for seat, team in enumerate(state["teams"]):
        assert len(board.worms_of(state, team)) <= 2
    p = ENGINE.prompt(state)
    if isinstance(p, Decision) and p.kind == "activate":
        for key, ids in per_hex.items():
            if len(ids) >= 4:
                assert not [i for i in ids if state["things"][i]["kind"] == "worm"], key


def test_random_playouts_keep_the_invariants() -> None:
    rng = random.Random("worms-soak")
    for _ in range(GAMES):
        players = rng.choice([2, 3, 4])
        game = random_game(ENGINE, players, {}, rng, keep_states=True)
        for state in game.states:
            check_invariants(state, players)
        assert fold(ENGINE, players, {}, game.inputs) == game.state
