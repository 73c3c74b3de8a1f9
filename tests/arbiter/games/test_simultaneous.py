"""Simultaneous turns in the arbiter (issue 4, item 5), on Star Maps: every seat owes
an answer to the same roll; the summary shows who still owes one; an answer is taken
once per round (a second gets 409); "your turn" mail goes once per round to each seat."""

from __future__ import annotations

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import OutboxMail
from tests.helpers import auth, new_game, summary, until_decision


def turn_mails(app, game_id):
    with app.app_context():
        return sorted(
            m.dedupe_key
            for m in db.session.scalars(
                sa.select(OutboxMail).where(
                    OutboxMail.game_id == game_id, OutboxMail.dedupe_key.like("turn:%")
                )
            )
        )


def answer(client, game_id, token, move=None):
    """Post the seat's first legal move (or ``move``); return the response."""
    if move is None:
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token)).json
        move = legal["moves"][0]
    return client.post(f"/v1/games/{game_id}/moves", headers=auth(token), json={"move": move})


def test_a_round_waits_for_every_seat_and_mails_each_once(app, client):
    game_id, tokens = new_game(client, "star-maps", players=3, emails=True)
    s = until_decision(client, app, game_id)
    owing = s["to_act"]
    assert len(owing) >= 2
    first_mails = turn_mails(app, game_id)
    assert first_mails == sorted(f"turn:{game_id}:{s['version']}:{seat}" for seat in owing)
    first = owing[0]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[first])).json
    assert answer(client, game_id, tokens[first], legal["moves"][0]).status_code == 201
    after_one = summary(client, game_id)
    assert after_one["to_act"] == owing[1:]
    assert turn_mails(app, game_id) == first_mails  # no new mail mid-round
    again = answer(client, game_id, tokens[first], legal["moves"][0])
    assert again.status_code == 409 and again.json["code"] == "already-answered"
    assert summary(client, game_id)["version"] == after_one["version"]
    view = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[first])).json
    assert view["to_act"] == owing[1:]
    for seat in owing[1:]:
        assert answer(client, game_id, tokens[seat]).status_code == 201
    s2 = until_decision(client, app, game_id)
    if s2["status"] == "active":
        new = set(turn_mails(app, game_id)) - set(first_mails)
        assert new == {f"turn:{game_id}:{s2['version']}:{seat}" for seat in s2["to_act"]}


def test_answers_made_against_the_rounds_version_do_not_conflict(app, client):
    """Given every seat answering with the version the round began at (as in its
    mail), each answer is taken: the others' answers do not make it stale."""
    game_id, tokens = new_game(client, "star-maps", players=3)
    s = until_decision(client, app, game_id)
    for seat in s["to_act"]:
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
        answer = client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(tokens[seat]),
            json={"move": legal["moves"][0], "expected_version": s["version"]},
        )
        assert answer.status_code == 201, answer.json
    late = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    assert late["moves"] == [] or summary(client, game_id)["version"] > s["version"]


def test_a_second_answer_against_the_rounds_version_is_already_answered(app, client):
    """Given a seat that answered the round, resending against the version the round
    began at (as in its mail) is 409 already-answered, not stale-version, and records
    nothing; a version from before the round is still stale."""
    game_id, tokens = new_game(client, "star-maps", players=3)
    s = until_decision(client, app, game_id)
    first = s["to_act"][0]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[first])).json
    body = {"move": legal["moves"][0], "expected_version": s["version"]}
    assert (
        client.post(
            f"/v1/games/{game_id}/moves", headers=auth(tokens[first]), json=body
        ).status_code
        == 201
    )
    version = summary(client, game_id)["version"]
    again = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[first]),
        json=dict(body, move=legal["moves"][-1]),
    )
    assert again.status_code == 409 and again.json["code"] == "already-answered", again.json
    old = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[first]),
        json=dict(body, expected_version=s["version"] - 1),
    )
    assert old.status_code == 409 and old.json["code"] == "stale-version", old.json
    assert summary(client, game_id)["version"] == version
