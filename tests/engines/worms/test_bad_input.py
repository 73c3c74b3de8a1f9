"""Bad input is refused with a stable code and changes nothing (issue 6, Bad input)."""

from __future__ import annotations

import json

import pytest

from engines.base import BadOutcome, IllegalMove, InvalidMove
from engines.worms import ENGINE
from tests.engines.worms.helpers import blue_ready, move, roll, start


def refused(state: dict, seat: int, mv, code: str, exc=IllegalMove) -> None:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(exc) as err:
        ENGINE.play(state, seat, mv)
    assert err.value.code == code, err.value
    assert json.dumps(state, sort_keys=True) == before


def test_activating_another_teams_worm() -> None:
    """1. Activate: choose one of *your* worms."""
    refused(start(4), 0, {"move": "activate", "worm": "R1"}, "not-your-worm")
    refused(start(4), 0, {"move": "activate", "worm": "Z9"}, "not-your-worm")


def test_not_your_turn_and_awaiting_chance() -> None:
    refused(start(4), 1, {"move": "activate", "worm": "R1"}, "not-your-turn")
    s = ENGINE.setup(2, {"setup": "first-game"})
    refused(s, 0, {"move": "skip"}, "awaiting-chance")


def test_inching_into_water_and_jumping_too_far_or_off_the_map() -> None:
    """Inching: to an adjacent Land hex; Jumping: within two hexes (Movement)."""
    s = move(start(4), "activate B2")  # B2 at -3,3, on the south-west edge
    refused(s, 0, {"move": "inch", "dir": 4}, "into-water")
    refused(s, 0, {"move": "jump", "to": [-3, 6]}, "jump-too-far")
    refused(s, 0, {"move": "jump", "to": [-5, 5]}, "off-the-map")
    refused(s, 0, {"move": "inch", "dir": 9}, "bad-move", InvalidMove)


def test_targets_must_be_direct_and_within_range() -> None:
    """Direct hex and Hex within X (Target)."""
    s = blue_ready()
    refused(s, 0, {"move": "play", "card": "bazooka", "at": [0, 2]}, "not-direct")
    refused(s, 0, {"move": "play", "card": "uzi", "at": [2, 1]}, "out-of-range")
    refused(s, 0, {"move": "play", "card": "bazooka", "at": [9, 0]}, "off-the-map")


def test_card_not_in_hand() -> None:
    refused(blue_ready(), 0, {"move": "play", "card": "sheep", "at": [-2, 0]}, "card-not-in-hand")


def test_die_not_rolled_and_things_not_in_hex() -> None:
    s = roll(move(blue_ready(), "play bazooka at 0,1"), 1, 2, 3)
    refused(s, 0, {"move": "pick", "die": 6}, "no-such-die")
    refused(s, 0, {"move": "pick", "die": "wind"}, "no-such-die")
    s = move(start(4), "activate B1")
    s = move(s, "inch 4")
    refused(s, 0, {"move": "order", "what": "effects", "ids": ["crate1", "mine2"]}, "not-in-hex")
    refused(s, 0, {"move": "order", "what": "effects", "ids": ["crate1"]}, "not-in-hex")


def test_garbage_is_invalid() -> None:
    for mv in [
        "skip",
        None,
        {},
        {"move": "dance"},
        {"move": "inch", "dir": "3"},
        {"move": "skip", "extra": 1},
    ]:
        refused(start(4), 0, mv, "bad-move", InvalidMove)
    with pytest.raises(InvalidMove):
        ENGINE.parse("inch north", start(4), 0)


def test_game_over_and_bad_outcomes() -> None:
    s = start(4)
    with pytest.raises(BadOutcome):
        ENGINE.resolve(s, [1])
    s = move(blue_ready(), "play bazooka at 0,1")
    for bad in ([1, 2], [0, 1, 1], [9, 1, 1], "1,1,1", [1.0, 1, 1]):
        with pytest.raises(BadOutcome):
            ENGINE.resolve(s, bad)
    s["over"] = {"scores": [1, 1], "ranking": [[0, 1]], "reason": "test"}
    refused(s, 0, {"move": "skip"}, "game-over")
