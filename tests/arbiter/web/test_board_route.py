"""``GET /v1/games/{id}/board.svg`` for every engine (issue 12): the picture of the
caller's view, a seat's own cards only with its token."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import engines
from tests.helpers import auth, new_game, until_decision

PLAYERS = {"space-worm": 2, "dark-horse": 3, "star-maps": 2, "worms": 2}


@pytest.mark.parametrize("engine_id", list(engines.ENGINE_MODULES))
def test_every_engine_serves_its_board(client, app, engine_id) -> None:
    """Every engine's game answers board.svg with an SVG picture, for a seat and for a
    spectator."""
    game_id, tokens = new_game(client, engine_id, PLAYERS[engine_id])
    until_decision(client, app, game_id)
    for headers in ({}, auth(tokens[0])):
        answer = client.get(f"/v1/games/{game_id}/board.svg", headers=headers)
        assert answer.status_code == 200
        assert answer.mimetype == "image/svg+xml"
        ET.fromstring(answer.get_data(as_text=True))


def test_a_dark_horse_board_shows_the_seats_hand_only_with_its_token(client, app) -> None:
    """The picture drawn for seat 0's token lists seat 0's Move cards; the spectator's
    picture lists none; a wrong token is refused (401)."""
    game_id, tokens = new_game(client, "dark-horse", 3)
    until_decision(client, app, game_id)
    hand = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).json
    mine = client.get(f"/v1/games/{game_id}/board.svg", headers=auth(tokens[0])).get_data(True)
    public = client.get(f"/v1/games/{game_id}/board.svg").get_data(True)
    if hand["view"].get("you") and hand["view"]["you"]["hand"]:
        assert all(h["label"] in mine for h in hand["view"]["you"]["hand"])
    assert "Your Move cards" not in public
    assert (
        client.get(f"/v1/games/{game_id}/board.svg", headers=auth("not-a-token")).status_code == 401
    )
