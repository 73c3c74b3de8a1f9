"""The client's ``agreements`` area against the real service in-process (httpx's WSGI
transport): ask to take back a move, the other accepts, and a refusal is the typed
error with the problem's code."""

from __future__ import annotations

import httpx
import pytest
from arbiter_client import Client, Conflict

from tests.helpers import new_game, until_decision


def client_of(app, token: str) -> Client:
    http = httpx.Client(transport=httpx.WSGITransport(app=app), base_url="http://arbiter.test")
    return Client("http://arbiter.test", token=token, http=http)


def test_undo_asked_and_accepted_through_the_client(app, client):
    game_id, tokens = new_game(client, players=2)
    ann = until_decision(client, app, game_id)["to_act"][0]
    ann_client, bob_client = client_of(app, tokens[ann]), client_of(app, tokens[1 - ann])
    with pytest.raises(Conflict) as refused:
        ann_client.agreements.ask(game_id, "undo")
    assert refused.value.code == "undo-not-allowed"
    legal = ann_client.moves.legal(game_id)
    ann_client.moves.play(game_id, legal["moves"][0])
    asked = ann_client.agreements.ask(game_id, "undo")
    assert asked["status"] == "pending"
    agreed = bob_client.agreements.answer(game_id, "undo", asked["request"], accept=True)
    assert agreed["status"] == "agreed" and agreed["undone"] == [asked["move_seq"]]
    assert bob_client.agreements.get(game_id, "undo", asked["request"])["status"] == "agreed"
