"""Built-in bots answer agreement requests (issue 24, item 3; issue 25, item 1): a bot
accepts a take-back or an abort at once, in the request's own transaction, so a person
playing bots can take a move back or end the game; a request that also needs another
person's answer waits for them."""

from __future__ import annotations

from tests.arbiter.games.bot_helpers import bot_game, drive
from tests.arbiter.games.test_agreed_undo import answer, ask, play

BOT = {"kind": "random", "level": 1}


def person_to_act(app, client, engine: str, bots: list) -> tuple[str, dict]:
    """A game of ``bots`` (None: a person) driven until a person is to act; return its
    id and the creation answer."""
    made = bot_game(client, engine, bots)
    drive(app, made["id"])
    return made["id"], made


def test_a_bot_accepts_a_take_back_at_once(any_app):
    """Given Ann's move in a game against a bot, before the bot answers it, Ann's undo
    request is agreed in the same answer: the bot's acceptance and the marker are in
    the log and Ann is to act again."""
    client = any_app.test_client()
    game_id, made = person_to_act(any_app, client, "space-worm", [None, BOT])
    token = made["seats"][0]["token"]
    assert client.get(f"/v1/games/{game_id}").json["to_act"] == [0]
    moved = play(client, game_id, token)
    assert moved.status_code == 201 and moved.json["to_act"] == [1], moved.json
    asked = ask(client, game_id, token)
    assert asked.status_code == 201, asked.json
    assert asked.json["status"] == "agreed" and asked.json["accepted"] == [1]
    assert asked.json["undone"] == [moved.json["seq"]]
    kinds = [e["kind"] for e in client.get(f"/v1/games/{game_id}/events").json["events"]]
    assert kinds[-4:] == ["move", "undo-requested", "undo-accepted", "moves-undone"]
    assert client.get(f"/v1/games/{game_id}").json["to_act"] == [0]


def test_a_bot_accepts_an_abort_and_a_person_still_answers(any_app):
    """Given Ann, Bob and a bot, Ann's proposal to abort is accepted by the bot at once
    and waits for Bob; when Bob accepts, the game is over, aborted."""
    client = any_app.test_client()
    game_id, made = person_to_act(any_app, client, "space-worm", [None, None, BOT])
    ann, bob = (s["token"] for s in made["seats"][:2])
    proposed = ask(client, game_id, ann, "abort")
    assert proposed.status_code == 201, proposed.json
    assert proposed.json["status"] == "pending"
    assert (proposed.json["accepted"], proposed.json["waiting_for"]) == ([2], [1])
    agreed = answer(client, game_id, bob, proposed.json["request"], "accept", "abort")
    assert agreed.json["status"] == "agreed" and agreed.json["game_status"] == "over"
    summary = client.get(f"/v1/games/{game_id}").json
    assert summary["status"] == "over" and summary["result"]["reason"] == "aborted"
