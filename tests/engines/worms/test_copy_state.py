"""engines/worms/engine.py copy_state: a deep copy of a JSON state, equal to a JSON round
trip and sharing nothing with the state it copied."""

import json
import random

import engines
from arbiter.playout import random_game
from engines.worms.engine import copy_state


def test_copies_equal_a_json_round_trip_and_share_nothing() -> None:
    engine = engines.get("worms")
    game = random_game(engine, 3, {}, random.Random("copy"), keep_states=True)
    for state in game.states[::7]:
        copy = copy_state(state)
        assert copy == json.loads(json.dumps(state)) == state
        copy["things"]["probe"] = {"kind": "probe"}
        copy["stack"].append("probe")
        assert "probe" not in state["things"] and "probe" not in state["stack"]
