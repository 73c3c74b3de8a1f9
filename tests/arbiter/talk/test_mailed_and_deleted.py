"""The section of a turn mail or digest quoting what the others said: only what the
seat may read, hidden ones as "(hidden)", muted authors left out, one's own lines and
notes never; and an author whose account is deleted reads as "(deleted player)" on
every channel while the log stays as it was."""

from __future__ import annotations

from arbiter.extensions import db
from arbiter.models import Game
from arbiter.talk import mailed
from tests.arbiter.talk.support import post
from tests.helpers import agreed, auth, sign_in


def game_with_cat(client, app):
    """A 3-seat game (press on) whose seat 2, Cat, is an account; return
    ``(game_id, seat tokens, Cat's personal token)``."""
    agreed(app, "cat@example.org")
    created = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [
                {"name": "Ann"},
                {"name": "Bob"},
                {"name": "Cat", "email": "cat@example.org"},
            ],
            "talk": {"press": True},
        },
    ).json
    cat = sign_in(client, app, "cat@example.org", "Cat")
    return created["id"], [s["token"] for s in created["seats"]], cat


class T:
    def __init__(self, game_id):
        self.game_id = game_id


def section(app, game_id: str, seat: int) -> str:
    with app.app_context():
        return "\n".join(mailed.section(db.session.get(Game, game_id), seat))


def test_the_section_quotes_what_the_seat_may_read_once(any_app):
    client = any_app.test_client()
    game_id, seats, cat = game_with_cat(client, any_app)
    t = T(game_id)
    post(client, t, seats[0], "Ann to all")
    post(client, t, seats[0], "Ann to Bob only", "private", 1)
    rude = post(client, t, seats[1], "Bob is rude").json["n"]
    post(client, t, seats[2], "Cat to all")
    client.post(f"/v1/games/{game_id}/notes", json={"text": "Cat's note"}, headers=auth(seats[2]))
    text = section(any_app, game_id, 2)
    assert text.startswith(mailed.HEADING)
    assert "Ann: Ann to all" in text and "Bob: Bob is rude" in text
    assert "Bob only" not in text and "Cat to all" not in text and "Cat's note" not in text
    # Cat mutes Ann; a message hidden since reads (hidden)
    assert client.put(f"/v1/games/{game_id}/messages/1/mute", headers=auth(cat)).status_code == 200
    text = section(any_app, game_id, 2)
    assert "Ann" not in text and "Bob: Bob is rude" in text
    bob_view = section(any_app, game_id, 1)
    assert "Ann (privately): Ann to Bob only" in bob_view and "Cat: Cat to all" in bob_view
    assert rude  # Bob's own line is not quoted to Bob
    assert "Bob is rude" not in bob_view
    assert section(any_app, game_id, 0).count("\n  ") == 2  # Bob's and Cat's lines


def test_a_hidden_message_is_quoted_as_hidden(app, client):
    created = client.post(
        "/v1/games",
        json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "Bob"}]},
    ).json
    t = T(created["id"])
    n = post(client, t, created["seats"][1]["token"], "something rude").json["n"]
    hide = client.post(
        f"/v1/games/{t.game_id}/messages/{n}/hide", headers=auth(created["creator_token"])
    )
    assert hide.status_code == 201
    text = section(app, t.game_id, 0)
    assert "Bob: (hidden)" in text and "rude" not in text


def test_a_deleted_author_reads_as_deleted_everywhere(app, client):
    game_id, seats, cat = game_with_cat(client, app)
    post(client, T(game_id), seats[2], "Cat was here")
    assert client.delete("/v1/me", headers=auth(cat)).status_code == 204
    body = client.get(f"/v1/games/{game_id}/messages", headers=auth(seats[0])).json
    assert [m["name"] for m in body["messages"]] == ["(deleted player)"]
    assert "Cat" not in section(app, game_id, 0).replace("Cat was here", "")
