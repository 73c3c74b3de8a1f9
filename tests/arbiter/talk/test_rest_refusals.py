"""Bad input to the talk over REST gets a clear 4xx with a stable code and writes
nothing; hiding, reporting and muting do what they say, and only for whom they may."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import TalkEvent, TalkMute
from tests.arbiter.games.test_games_api import assert_problem
from tests.arbiter.talk.support import post, table
from tests.helpers import auth, sampled


def entries(app, game_id: str) -> int:
    """Return how many talk entries ``game_id`` has."""
    with app.app_context():
        return db.session.scalar(
            sa.select(sa.func.count()).select_from(TalkEvent).where(TalkEvent.game_id == game_id)
        )


REFUSED = [
    # (who, channel, text, to, status, code)
    ("seat0", "table", "x" * 1001, None, 422, "message-too-long"),
    ("seat0", "table", "   \n ", None, 422, "empty-message"),
    ("seat0", "table", "nul\x00here", None, 422, "bad-characters"),
    ("seat0", "shout", "hello", None, 422, "bad-channel"),
    ("seat0", "private", "psst", 7, 422, "no-such-seat"),
    ("seat0", "private", "psst", None, 422, "no-such-seat"),
    ("seat0", "private", "to me", 0, 422, "private-to-self"),
    # issue 24: a "to" the table channel would ignore is refused, not dropped silently
    ("seat0", "table", "for you", 1, 422, "to-only-private"),
    ("watcher", "spectators", "for you", 0, 422, "to-only-private"),
    ("seat0", "spectators", "hi watchers", None, 403, "spectators-only"),
    ("watcher", "table", "let me in", None, 403, "not-a-player"),
    ("watcher", "private", "psst", 0, 403, "not-a-player"),
    ("anonymous", "spectators", "hi", None, 401, "sign-in-to-talk"),
    ("creator", "spectators", "hi", None, 401, "sign-in-to-talk"),
]


@pytest.mark.parametrize(
    "who,channel,text,to,status,code", sampled(REFUSED, kind=lambda row: row[5])
)
def test_bad_messages_are_refused_and_write_nothing(
    app, client, who, channel, text, to, status, code
):
    t = table(client, app)
    token = {"seat0": t.seats[0], "watcher": t.watcher, "anonymous": None, "creator": t.creator}
    assert_problem(post(client, t, token[who], text, channel, to), status, code)
    assert entries(app, t.game_id) == 0


def test_private_messages_need_press(any_app):
    client = any_app.test_client()
    t = table(client, any_app, press=False)
    assert_problem(post(client, t, t.seats[0], "psst", "private", 1), 403, "press-not-allowed")
    assert entries(any_app, t.game_id) == 0


def test_a_malformed_body_and_a_bad_token_write_nothing(app, client):
    t = table(client, app)
    url = f"/v1/games/{t.game_id}/messages"
    assert client.post(url, json={"channel": "table"}, headers=auth(t.seats[0])).status_code == 422
    assert client.post(url, json={"text": 5}, headers=auth(t.seats[0])).status_code == 422
    assert_problem(
        client.post(url, json={"text": "hi"}, headers=auth("nope" * 10)), 401, "bad-token"
    )
    assert_problem(client.get("/v1/games/nosuchgame/messages"), 404, "game-not-found")
    assert_problem(
        client.post(f"/v1/games/{t.game_id}/notes", json={"text": "mine"}, headers=auth(t.watcher)),
        403,
        "no-seat",
    )
    assert_problem(
        client.post(
            f"/v1/games/{t.game_id}/notes", json={"text": "y" * 4001}, headers=auth(t.seats[1])
        ),
        422,
        "message-too-long",
    )
    assert entries(app, t.game_id) == 0


def test_the_rate_limit_refuses_the_seventh_message_of_a_minute(app, client):
    t = table(client, app)
    for i in range(6):
        assert post(client, t, t.seats[0], f"line {i}").status_code == 201
    refused = post(client, t, t.seats[0], "one too many")
    assert_problem(refused, 429, "talk-rate-limited")
    assert int(refused.headers["Retry-After"]) >= 1
    assert entries(app, t.game_id) == 6
    assert post(client, t, t.seats[1], "another author is not limited").status_code == 201


def test_a_retry_with_the_same_idempotency_key_posts_once(app, client):
    t = table(client, app)
    headers = {**auth(t.seats[0]), "Idempotency-Key": "talk-key-0123456789"}
    url = f"/v1/games/{t.game_id}/messages"
    first = client.post(url, json={"text": "once"}, headers=headers)
    again = client.post(url, json={"text": "once"}, headers=headers)
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert entries(app, t.game_id) == 1


def test_the_creator_hides_a_message_which_stays_in_the_log_as_hidden(any_app):
    client = any_app.test_client()
    t = table(client, any_app)
    n = post(client, t, t.seats[1], "something rude").json["n"]
    assert_problem(
        client.post(f"/v1/games/{t.game_id}/messages/{n}/hide", headers=auth(t.seats[0])),
        403,
        "not-moderator",
    )
    hidden = client.post(f"/v1/games/{t.game_id}/messages/{n}/hide", headers=auth(t.creator))
    assert hidden.status_code == 201 and hidden.json["message"] == n
    for token in t.seats:
        body = client.get(f"/v1/games/{t.game_id}/messages", headers=auth(token)).json
        assert body["messages"] == [
            {**body["messages"][0], "n": n, "hidden": True, "text": None, "name": "Bob"}
        ]
        assert "rude" not in str(body)
    # a reader that had read up to the message reads it again, hidden
    again = client.get(f"/v1/games/{t.game_id}/messages?after={n}", headers=auth(t.seats[2])).json
    assert [(m["n"], m["hidden"]) for m in again["messages"]] == [(n, True)]
    assert_problem(
        client.post(f"/v1/games/{t.game_id}/messages/{n}/hide", headers=auth(t.creator)),
        409,
        "already-hidden",
    )
    assert_problem(
        client.post(f"/v1/games/{t.game_id}/messages/99/hide", headers=auth(t.creator)),
        404,
        "no-such-message",
    )
    assert entries(any_app, t.game_id) == 2  # the message and the entry that hides it


def test_a_report_reaches_nobody_but_the_operators(app, client):
    t = table(client, app)
    n = post(client, t, t.seats[1], "spam spam").json["n"]
    url = f"/v1/games/{t.game_id}/messages/{n}/report"
    assert_problem(
        client.post(url, json={"reason": "x"}, headers=auth(t.watcher)), 404, "no-such-message"
    )
    reported = client.post(url, json={"reason": "it is spam"}, headers=auth(t.seats[2]))
    assert reported.status_code == 201 and reported.json["kind"] == "message-reported"
    for token in [*t.seats, t.watcher, t.creator, None]:
        raw = client.get(
            f"/v1/games/{t.game_id}/messages", headers=auth(token) if token else {}
        ).get_data(as_text=True)
        assert "it is spam" not in raw


def test_an_account_mutes_an_author_for_itself_only(any_app):
    client = any_app.test_client()
    t = table(client, any_app, spectators_read_table=True)
    n = post(client, t, t.seats[0], "Ann talks a lot").json["n"]
    url = f"/v1/games/{t.game_id}/messages"
    assert_problem(
        client.put(f"{url}/{n}/mute", headers=auth(t.seats[1])), 401, "not-an-account-token"
    )
    muted = client.put(f"{url}/{n}/mute", headers=auth(t.watcher))
    assert muted.status_code == 200 and muted.json == {"n": n, "name": "Ann", "muted": True}
    assert client.put(f"{url}/{n}/mute", headers=auth(t.watcher)).status_code == 200
    post(client, t, t.seats[0], "Ann again")
    assert "Ann" not in client.get(url, headers=auth(t.watcher)).get_data(as_text=True)
    assert "Ann again" in client.get(url, headers=auth(t.seats[1])).get_data(as_text=True)
    with any_app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(TalkMute)) >= 1
    assert client.delete(f"{url}/{n}/mute", headers=auth(t.watcher)).json["muted"] is False
    assert "Ann again" in client.get(url, headers=auth(t.watcher)).get_data(as_text=True)
