"""Shared givens for the Star Maps tests: build a state with chosen marks and roll."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from engines.base import EngineError
from engines.star_maps import ENGINE
from engines.star_maps.sheet import SHEETS, blank_marks

ALL_BONUSES = ["bridge", "echo", "nudge", "reprise", "comet", "leap"]


def marks(
    boxes: Mapping[str, int] | None = None,
    connections: Sequence[str] = (),
    bonuses_used: Sequence[str] = (),
    sheet: str = "plain",
) -> dict:
    """Return a seat's marks with these boxes written and connections filled."""
    order = list(SHEETS[sheet].connections)
    return {
        **blank_marks(),
        "boxes": dict(boxes or {}),
        "connections": sorted(connections, key=order.index),
        "bonuses_used": list(bonuses_used),
    }


def given(
    players: int = 1,
    sheet: str = "plain",
    bonuses: Sequence[str] = (),
    seats: Sequence[dict] | None = None,
    roll: Sequence[int] | None = None,
) -> dict:
    """Return a game with the seats' marks set, then the roll applied (if any)."""
    state = ENGINE.setup(players, {"sheet": sheet, "unlocked_bonuses": list(bonuses)})
    if seats is not None:
        state = {**state, "marks": [*seats, *state["marks"][len(seats) :]]}
    if roll is not None:
        state = ENGINE.resolve(state, list(roll))
    return state


def refused(state: dict, seat: int, move, code: str, engine=ENGINE) -> EngineError:
    """Play ``move`` on ``engine`` and assert it is refused with ``code``; return the
    error."""
    with pytest.raises(EngineError) as err:
        engine.play(state, seat, move)
    assert err.value.code == code, err.value.detail
    assert err.value.detail
    return err.value


def dice(star: int, write: int, box: str, *uses: dict) -> dict:
    """Return a dice-use move (with bonus uses, if any)."""
    move = {"act": "dice", "star": star, "write": write, "box": box}
    return {**move, "bonuses": list(uses)} if uses else move


def connect(connection: str, *uses: dict) -> dict:
    """Return a connection move (with bonus uses, if any)."""
    move = {"act": "connect", "connection": connection}
    return {**move, "bonuses": list(uses)} if uses else move


def seat_marks(state: dict, seat: int = 0) -> dict:
    """Return a seat's marks."""
    return state["marks"][seat]


def value_of(state: dict, star: str, seat: int = 0) -> int | None:
    """Return the value a star holds on a seat's sheet (None if not found)."""
    return ENGINE.view(state, seat)["sheets"][seat]["stars"][star]
