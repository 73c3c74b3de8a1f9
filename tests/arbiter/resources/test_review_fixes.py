"""Regressions found in code review: idempotent answers never reach another caller,
text moves retry idempotently, the list has the summary's shape, a resignation does not
restart a simultaneous round, a move that loses a race is checked again, mail never
holds the database during SMTP."""

from __future__ import annotations

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import store
from arbiter.models import OutboxMail
from tests.arbiter.games.test_games_api import assert_problem
from tests.helpers import auth, new_game, summary, until_decision

KEY = "9f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b"


def test_a_campaign_answer_is_not_returned_to_a_caller_without_the_organiser_token(client):
    created = client.post(
        "/v1/campaigns", json={"engine": "star-maps", "players": [{"name": "A"}, {"name": "B"}]}
    )
    campaign, token = created.json["id"], created.json["token"]
    first = client.post(
        f"/v1/campaigns/{campaign}/games", headers={**auth(token), "Idempotency-Key": KEY}, json={}
    )
    assert first.status_code == 201
    replay = client.post(
        f"/v1/campaigns/{campaign}/games", headers={"Idempotency-Key": KEY}, json={}
    )
    assert_problem(replay, 401, "missing-token")
    again = client.post(
        f"/v1/campaigns/{campaign}/games", headers={**auth(token), "Idempotency-Key": KEY}, json={}
    )
    assert again.json == first.json


def test_short_idempotency_keys_are_refused_and_answers_are_stored_sealed(app, client):
    body = {"engine": "space-worm", "players": [{"name": "A"}]}
    assert_problem(
        client.post("/v1/games", json=body, headers={"Idempotency-Key": "1"}),
        422,
        "bad-idempotency-key",
    )
    created = client.post("/v1/games", json=body, headers={"Idempotency-Key": KEY}).json
    with app.app_context():
        stored = db.session.execute(sa.text("SELECT body FROM idempotency")).scalar_one()
    assert created["seats"][0]["token"] not in stored
    assert created["creator_token"] not in stored


def test_a_text_move_retried_with_its_key_gets_its_first_answer(app, client):
    game_id, tokens = new_game(client, "dark-horse", players=2)
    s = until_decision(client, app, game_id)
    seat = s["to_act"][0]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    headers = {**auth(tokens[seat]), "Idempotency-Key": KEY}
    body = {"text": legal["notation"][0], "expected_version": s["version"]}
    first = client.post(f"/v1/games/{game_id}/moves", headers=headers, json=body)
    again = client.post(f"/v1/games/{game_id}/moves", headers=headers, json=body)
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert_problem(
        client.post(f"/v1/games/{game_id}/moves", json={"text": "play 1"}), 401, "missing-token"
    )


def test_the_list_shows_each_game_as_its_summary(client):
    game_id, _ = new_game(client)
    [listed] = client.get("/v1/games").json
    assert listed == summary(client, game_id)


def test_a_resignation_mid_round_keeps_the_round_and_its_mails(app, client):
    game_id, tokens = new_game(client, "star-maps", players=3, emails=True)
    s = until_decision(client, app, game_id)
    assert len(s["to_act"]) == 3
    with app.app_context():
        mails_before = db.session.scalar(sa.select(sa.func.count()).select_from(OutboxMail))
    assert client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[2])).status_code == 201
    after = summary(client, game_id)
    assert after["to_act"] == [0, 1]
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(OutboxMail)) == mails_before
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[0]),
        json={"move": legal["moves"][0], "expected_version": s["version"]},
    )
    assert answer.status_code == 201


def test_a_move_that_loses_a_race_is_checked_again(app, client, monkeypatch):
    """Given a move without expected_version whose first append loses a race (another
    seat's answer to the same round committed first), it is checked again against
    the version it was made on, and taken."""
    game_id, tokens = new_game(client, "star-maps", players=2)
    until_decision(client, app, game_id)
    real_append, lost = store.append, []

    def append_once_lost(game, events, snapshot, extra_rows=()):
        if not lost:
            lost.append(True)
            db.session.rollback()
            raise store.RaceLost("lost")
        return real_append(game, events, snapshot, extra_rows)

    monkeypatch.setattr("arbiter.games.commit.store.append", append_once_lost)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    answer = client.post(
        f"/v1/games/{game_id}/moves", headers=auth(tokens[0]), json={"move": legal["moves"][0]}
    )
    assert lost and answer.status_code == 201
