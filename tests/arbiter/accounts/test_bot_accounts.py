"""Bot accounts (issue 25, item 3): a person makes them for their programs; a bot
account has no address and is never mailed, its token plays but administers nothing,
it is seated by its id and marked as a bot in games, and it plays with legal-moves +
moves like any account."""

from __future__ import annotations

import sqlalchemy as sa

from arbiter import settings as arbiter_settings
from arbiter.extensions import db
from arbiter.models import Account, OutboxMail, Seat
from tests.helpers import auth, sign_in, until_decision


def make_bot(client, owner: str, name: str = "Robo", public: bool = False) -> dict:
    """Make a bot account with ``owner``'s token; return the answer's body."""
    answer = client.post("/v1/me/bots", headers=auth(owner), json={"name": name, "public": public})
    assert answer.status_code == 201, answer.json
    return answer.json


def test_a_person_makes_a_bot_account_with_a_play_token_shown_once(client, app):
    ann = sign_in(client, app, "ann@example.org", "Ann")
    bot = make_bot(client, ann)
    assert bot["display_name"] == "Robo" and bot["public"] is False
    assert bot["token"]["token"].startswith("arb_")
    assert bot["token"]["scopes"] == ["games:play"]
    me = client.get("/v1/me", headers=auth(bot["token"]["token"])).json
    ann_id = client.get("/v1/me", headers=auth(ann)).json["id"]
    assert me["id"] == bot["id"] and me["email"] is None
    assert me["bot"] == {"owner": ann_id, "public": False}
    listed = client.get("/v1/me/bots", headers=auth(ann)).json
    assert [b["id"] for b in listed] == [bot["id"]] and "token" not in listed[0]
    with app.app_context():
        row = db.session.get(Account, bot["id"])
        assert row.email is None and row.is_bot and row.mail_off


def test_a_bot_token_plays_but_administers_nothing(client, app):
    ann = sign_in(client, app, "ann@example.org", "Ann")
    token = make_bot(client, ann)["token"]["token"]
    refused = [
        client.patch("/v1/me", headers=auth(token), json={"display_name": "X"}),
        client.delete("/v1/me", headers=auth(token)),
        client.post(
            "/v1/me/tokens", headers=auth(token), json={"name": "x", "scopes": ["games:read"]}
        ),
        client.get("/v1/me/tokens", headers=auth(token)),
        client.post("/v1/me/bots", headers=auth(token), json={"name": "Son"}),
        client.post("/v1/me/webhooks", headers=auth(token), json={"url": "https://example.org/h"}),
        client.post(
            "/v1/games",
            headers=auth(token),
            json={"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]},
        ),
    ]
    assert [r.status_code for r in refused] == [403] * len(refused)
    assert {r.json["code"] for r in refused} == {"missing-scope"}
    for r in refused:  # no advice a bot cannot follow (making itself another token)
        assert (
            "its owner does the rest" in r.json["detail"] and "/me/tokens" not in r.json["detail"]
        )
    assert client.get("/v1/me/games", headers=auth(token)).status_code == 200


def test_a_bot_is_seated_by_id_marked_as_a_bot_never_mailed_and_plays(client, app):
    ann = sign_in(client, app, "ann@example.org", "Ann")
    bot = make_bot(client, ann)
    token = bot["token"]["token"]
    created = client.post(
        "/v1/games",
        headers=auth(ann),
        json={
            "engine": "space-worm",
            "players": [
                {"name": "Ann", "email": "ann@example.org"},
                {"name": "Robo", "account": bot["id"]},
            ],
        },
    )
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    players = created.json["players"]
    assert [p.get("bot_account", False) for p in players] == [False, True]
    mine = client.get("/v1/me/games", headers=auth(token)).json["games"]
    assert [g["id"] for g in mine] == [game_id] and mine[0]["seats"] == [1]
    summary = until_decision(client, app, game_id)
    ann_seat_token = created.json["seats"][0]["token"]
    while summary["status"] == "active" and 1 not in summary["to_act"]:
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(ann_seat_token)).json
        move = client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(ann_seat_token),
            json={"move": legal["moves"][0], "expected_version": legal["version"]},
        )
        assert move.status_code == 201, move.json
        summary = until_decision(client, app, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token)).json
    assert legal["seat"] == 1
    played = client.post(
        f"/v1/games/{game_id}/moves",
        headers={**auth(token), "Idempotency-Key": "bot-move-0000000001"},
        json={"move": legal["moves"][0], "expected_version": legal["version"]},
    )
    assert played.status_code == 201, played.json
    with app.app_context():
        seat = db.session.get(Seat, (game_id, 1))
        assert seat.email is None and seat.bot_account and seat.account_id == bot["id"]
        to_bot = db.session.scalar(
            sa.select(sa.func.count()).select_from(OutboxMail).where(OutboxMail.seat == 1)
        )
        assert to_bot == 0


def test_seating_bots_by_id_is_for_their_owner_unless_public(client, app):
    ann = sign_in(client, app, "ann@example.org", "Ann")
    bob = sign_in(client, app, "bob@example.org", "Bob")
    private = make_bot(client, ann, "Quiet")
    public = make_bot(client, ann, "Open", public=True)

    def seat(token, account, email=None):
        body = {"name": "Bot", "account": account}
        if email:
            body["email"] = email
        return client.post(
            "/v1/games",
            headers=auth(token) if token else {},
            json={"engine": "space-worm", "players": [{"name": "X"}, body]},
        )

    assert seat(bob, private["id"]).json["code"] == "bot-not-yours"
    assert seat(None, private["id"]).json["code"] == "bot-not-yours"
    assert seat(bob, public["id"]).status_code == 201
    assert seat(None, public["id"]).status_code == 201
    ann_id = client.get("/v1/me", headers=auth(ann)).json["id"]
    people = seat(bob, ann_id)  # a person is named by address, never by id
    assert people.status_code == 422 and people.json["code"] == "unknown-bot"
    assert seat(bob, "nope").json["code"] == "unknown-bot"
    both = seat(ann, private["id"], email="x@example.org")
    assert both.status_code == 422
    twice = client.post(
        "/v1/games",
        headers=auth(ann),
        json={
            "engine": "space-worm",
            "players": [
                {"name": "A", "account": public["id"]},
                {"name": "B", "account": public["id"]},
            ],
        },
    )
    assert twice.status_code == 422 and twice.json["code"] == "bot-twice"


def test_a_new_bot_token_revokes_the_old_and_deleting_a_bot_or_its_owner_ends_it(client, app):
    ann = sign_in(client, app, "ann@example.org", "Ann")
    bot = make_bot(client, ann)
    old = bot["token"]["token"]
    again = client.post(f"/v1/me/bots/{bot['id']}/token", headers=auth(ann))
    assert again.status_code == 201
    new = again.json["token"]["token"]
    assert client.get("/v1/me", headers=auth(old)).json["code"] == "token-revoked"
    assert client.get("/v1/me", headers=auth(new)).status_code == 200
    bob = sign_in(client, app, "bob@example.org", "Bob")
    assert client.delete(f"/v1/me/bots/{bot['id']}", headers=auth(bob)).status_code == 404
    assert client.delete(f"/v1/me/bots/{bot['id']}", headers=auth(ann)).status_code == 204
    assert client.get("/v1/me", headers=auth(new)).status_code == 401
    assert client.get("/v1/me/bots", headers=auth(ann)).json == []
    other = make_bot(client, ann, "Other")
    assert client.delete("/v1/me", headers=auth(ann)).status_code == 204
    assert client.get("/v1/me", headers=auth(other["token"]["token"])).status_code == 401


def test_a_person_holds_at_most_bots_per_account(client, app):
    arbiter_settings.override(app, BOTS_PER_ACCOUNT=2)
    ann = sign_in(client, app, "ann@example.org", "Ann")
    make_bot(client, ann, "One")
    make_bot(client, ann, "Two")
    third = client.post("/v1/me/bots", headers=auth(ann), json={"name": "Three"})
    assert third.status_code == 409 and third.json["code"] == "too-many-bots"
    assert third.json["limit"] == 2


def test_the_owner_keeps_a_bots_web_hooks(client, app):
    ann = sign_in(client, app, "ann@example.org", "Ann")
    bot = make_bot(client, ann)
    path = f"/v1/me/bots/{bot['id']}/webhooks"
    made = client.post(
        path, headers=auth(ann), json={"url": "https://93.184.215.14/bot", "events": ["turn"]}
    )
    assert made.status_code == 201, made.json
    assert made.json["secret"].startswith("whsec_")
    assert [h["id"] for h in client.get(path, headers=auth(ann)).json] == [made.json["id"]]
    assert client.get("/v1/me/webhooks", headers=auth(ann)).json == []  # the bot's, not Ann's
    bob = sign_in(client, app, "bob@example.org", "Bob")
    assert client.get(path, headers=auth(bob)).status_code == 404
    gone = client.delete(f"{path}/{made.json['id']}", headers=auth(ann))
    assert gone.status_code == 204 and client.get(path, headers=auth(ann)).json == []
