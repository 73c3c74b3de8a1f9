"""``/legal-moves`` for a large decision: the short moves, one example per part, the
parts and the count; a move filled from a part is accepted (issue 14, "Measured")."""

from __future__ import annotations

import random

from engines import move_parts
from tests.helpers import auth, new_game, until_decision


def test_a_map_tile_decision_is_described_by_parts(app, client):
    game_id, tokens = new_game(client, "worms", 3)
    s = until_decision(client, app, game_id)
    seat = s["to_act"][0]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    assert legal["parts"] and legal["count"] > len(legal["moves"]) + len(legal["parts"])
    assert len(legal["moves"]) == len(legal["notation"])
    part = legal["parts"][-1]
    move = {**part["move"], **{k: v[-1] for k, v in part["fill"].items()}}
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[seat]),
        json={"move": move, "expected_version": legal["version"]},
    )
    assert answer.status_code == 201, answer.json
    assert move_parts.pick(legal, random.Random(1)) is not None
