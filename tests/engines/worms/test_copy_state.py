"""engines/base.py clone, which Worms copies its states with: a deep copy of a JSON
state, equal to a JSON round trip and sharing nothing with the state it copied;
engines/worms/copying.py answered_copy: the same without the ask, keys in the same
order."""

import json
import random

import engines
from arbiter.playout import random_game
from engines.base import clone
from engines.worms.copying import answered_copy


def test_copies_equal_a_json_round_trip_and_share_nothing() -> None:
    engine = engines.get("worms")
    game = random_game(engine, 3, {}, random.Random("copy"), keep_states=True)
    for state in game.states[::7]:
        copy = clone(state)
        assert copy == json.loads(json.dumps(state)) == state
        copy["things"]["probe"] = {"kind": "probe"}
        copy["stack"].append("probe")
        assert "probe" not in state["things"] and "probe" not in state["stack"]


def _containers(value, path=()):
    """Yield (path, object) for every list and dict inside a JSON value."""
    if isinstance(value, (list, dict)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            yield from _containers(v, (*path, k))


def test_answered_copies_drop_the_ask_keep_the_order_and_share_nothing() -> None:
    engine = engines.get("worms")
    options = {"timer": True, "parting_gifts": True, "larger_map": True}
    for players, chosen in ((2, {}), (4, {}), (3, options)):
        game = random_game(engine, players, chosen, random.Random("answered"), keep_states=True)
        for state in game.states[::3]:
            copy = answered_copy(state)
            assert copy == {**json.loads(json.dumps(state)), "ask": None}
            assert list(copy) == list(state)
            mine = {id(c) for _, c in _containers(state)}
            assert not [p for p, c in _containers(copy) if id(c) in mine]
