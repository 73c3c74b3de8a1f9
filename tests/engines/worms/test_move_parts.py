"""Large decisions by their parts (issue 14, "Measured"; DESIGN.md, legal_moves): the
Air Strike card (832 moves in part 1), the Map Tiles, the setup's Things. The parts
describe exactly the legal moves, and /legal-moves stays short."""

from __future__ import annotations

import json
import random

from engines import move_parts
from engines.worms import ENGINE
from tests.engines.worms.helpers import blue_ready
from tests.engines.worms.test_setup import until


def same_moves(state: dict, seat: int) -> tuple[int, int]:
    """Check that the parts and listed moves make exactly the legal moves; return
    (legal moves, entries shown)."""
    legal = ENGINE.legal_moves(state, seat)
    parts = ENGINE.legal_parts(state, seat)
    assert parts is not None and parts["count"] == len(legal)
    described = [m for p in parts["parts"] for m in move_parts.expand(p)]
    examples = [move_parts.expand(p)[0] for p in parts["parts"]]
    short = [m for m in parts["moves"] if m not in examples]
    key = lambda m: json.dumps(m, sort_keys=True)  # noqa: E731
    assert sorted(map(key, described + short)) == sorted(map(key, legal))
    assert all(m in legal for m in parts["moves"])
    rng = random.Random(7)
    assert all(move_parts.pick(parts, rng) in legal for _ in range(50))
    return len(legal), len(parts["moves"]) + len(parts["parts"])


def test_an_air_strike_card_is_a_few_parts() -> None:
    """Air Strike targets "any hex (even a Water hex) pointing it in one of the six Wind
    Directions": 61 hexes x 6 directions, shown as one part per card."""
    s = blue_ready(cards=("air-strike", "concrete-donkey", "napalm-strike"))
    legal, shown = same_moves(s, 0)
    assert legal > 3 * 61 * 6
    assert shown <= 40
    air = [p for p in ENGINE.legal_parts(s, 0)["parts"] if p["move"].get("card") == "air-strike"]
    assert len(air) == 1 and sorted(air[0]["fill"]) == ["at", "dir"]
    assert air[0]["fill"]["dir"] == [1, 2, 3, 4, 5, 6] and len(air[0]["fill"]["at"]) == 61


def test_tiles_and_things_of_the_setup_are_parts() -> None:
    s = ENGINE.setup(4, {})
    legal, shown = same_moves(s, 0)
    assert legal > 200 and shown < legal / 4
    s = until(s, "place")
    legal, shown = same_moves(s, ENGINE.prompt(s).seats[0])
    assert shown <= 10


def test_short_decisions_are_listed() -> None:
    s = blue_ready()
    assert ENGINE.legal_parts(s, 0) is None or len(ENGINE.legal_moves(s, 0)) > 40
