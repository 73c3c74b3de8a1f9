"""Accounts: sign-up and sign-in by a one-time mailed link, /v1/me, personal API tokens
with scopes, and account tokens acting for every seat their account holds
(issue 10, "Accounts" and "Personal API tokens"; each "Bad input" line is a test)."""

from __future__ import annotations

import io
from datetime import timedelta

import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.models import Account, ApiToken, Event, Seat
from arbiter.models.timestamps import utcnow
from tests.helpers import (
    auth,
    event_count,
    mailed_link,
    new_game,
    scoped_token,
    sign_in,
    until_decision,
)


def test_sign_up_by_mailed_link_makes_a_verified_account(client, app):
    token = sign_in(client, app, "Ann@Example.org", "Ann")
    assert token.startswith("arb_")
    me = client.get("/v1/me", headers=auth(token))
    assert me.status_code == 200
    assert me.json["email"] == "ann@example.org"
    assert me.json["display_name"] == "Ann" and me.json["tz"] == "UTC"
    with app.app_context():
        row = db.session.scalar(sa.select(ApiToken))
        assert row.token_hash != token and token not in str(row.scopes)  # stored hashed
        assert set(row.scopes) >= {"games:play", "games:create", "account:write"}


def test_signing_in_again_reaches_the_same_account(client, app):
    first = sign_in(client, app, "ann@example.org")
    second = sign_in(client, app, "ann@example.org")
    a = client.get("/v1/me", headers=auth(first)).json
    b = client.get("/v1/me", headers=auth(second)).json
    assert a["id"] == b["id"]
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Account)) == 1


def test_a_sign_in_link_used_twice_is_refused(client, app):
    client.post("/v1/auth/links", json={"email": "ann@example.org"})
    link = mailed_link(app, "ann@example.org")
    assert client.post("/v1/auth/sessions", json=link).status_code == 201
    again = client.post("/v1/auth/sessions", json=link)
    assert again.status_code == 409 and again.json["code"] == "link-used"
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(ApiToken)) == 1


def test_an_expired_sign_in_link_is_refused(client, app):
    client.post("/v1/auth/links", json={"email": "ann@example.org"})
    link = mailed_link(app, "ann@example.org")
    with time_machine.travel(utcnow() + timedelta(seconds=901), tick=False):
        late = client.post("/v1/auth/sessions", json=link)
    assert late.status_code == 410 and late.json["code"] == "link-expired"
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Account)) == 0


def test_a_link_for_another_address_is_refused_and_stays_usable(client, app):
    client.post("/v1/auth/links", json={"email": "ann@example.org"})
    link = mailed_link(app, "ann@example.org")
    other = client.post("/v1/auth/sessions", json={**link, "email": "eve@example.org"})
    assert other.status_code == 400 and other.json["code"] == "link-wrong-address"
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Account)) == 0
    assert client.post("/v1/auth/sessions", json=link).status_code == 201


def test_a_forged_link_is_refused(client, app):
    answer = client.post(
        "/v1/auth/sessions", json={"email": "ann@example.org", "token": "forged-nonce"}
    )
    assert answer.status_code == 400 and answer.json["code"] == "bad-link"


def test_the_link_page_does_not_spend_the_link(client, app):
    client.post("/v1/auth/links", json={"email": "ann@example.org"})
    link = mailed_link(app, "ann@example.org")
    page = client.get("/v1/auth/confirm", query_string=link)
    assert page.status_code == 200 and b"Sign in" in page.data
    assert client.post("/v1/auth/sessions", json=link).status_code == 201


def test_the_link_request_answers_alike_for_known_and_unknown_addresses(client, app):
    sign_in(client, app, "ann@example.org")
    known = client.post("/v1/auth/links", json={"email": "ann@example.org"})
    unknown = client.post("/v1/auth/links", json={"email": "bob@example.org"})
    assert known.status_code == unknown.status_code == 202
    assert known.json == unknown.json


def test_tokens_are_made_listed_and_revoked(client, app):
    master = sign_in(client, app, "ann@example.org")
    made = client.post(
        "/v1/me/tokens", headers=auth(master), json={"name": "my bot", "scopes": ["games:play"]}
    )
    assert made.status_code == 201 and made.json["token"].startswith("arb_")
    listed = client.get("/v1/me/tokens", headers=auth(master)).json
    assert {t["name"] for t in listed} == {"sign-in", "my bot"}
    assert all("token" not in t for t in listed)
    bot = made.json["token"]
    assert client.get("/v1/me", headers=auth(bot)).status_code == 200
    used = [
        t for t in client.get("/v1/me/tokens", headers=auth(master)).json if t["name"] == "my bot"
    ][0]
    assert used["last_used_at"] is not None
    gone = client.delete(f"/v1/me/tokens/{made.json['id']}", headers=auth(master))
    assert gone.status_code == 204
    assert [t["name"] for t in client.get("/v1/me/tokens", headers=auth(master)).json] == [
        "sign-in"
    ]


def test_a_revoked_token_opens_nothing(client, app):
    master = sign_in(client, app, "ann@example.org")
    bot = client.post(
        "/v1/me/tokens", headers=auth(master), json={"name": "bot", "scopes": ["games:play"]}
    ).json
    client.delete(f"/v1/me/tokens/{bot['id']}", headers=auth(master))
    refused = client.get("/v1/me", headers=auth(bot["token"]))
    assert refused.status_code == 401 and refused.json["code"] == "token-revoked"
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")


def test_revoking_a_token_of_someone_else_is_not_found(client, app):
    ann = sign_in(client, app, "ann@example.org")
    bob = sign_in(client, app, "bob@example.org")
    bob_id = client.get("/v1/me/tokens", headers=auth(bob)).json[0]["id"]
    answer = client.delete(f"/v1/me/tokens/{bob_id}", headers=auth(ann))
    assert answer.status_code == 404 and answer.json["code"] == "token-not-found"
    assert client.get("/v1/me", headers=auth(bob)).status_code == 200


def test_a_token_without_the_scope_is_refused(client, app):
    master = sign_in(client, app, "ann@example.org")
    reader = scoped_token(client, master, "games:read")
    made = client.post(
        "/v1/me/tokens", headers=auth(reader), json={"name": "x", "scopes": ["games:play"]}
    )
    assert made.status_code == 403 and made.json["code"] == "missing-scope"
    game_id, _ = _game_with(client, master, ["ann@example.org", None])
    until_decision(client, app, game_id)
    move = client.post(
        f"/v1/games/{game_id}/moves", headers=auth(reader), json={"move": {"die": 0, "heart": True}}
    )
    assert move.status_code == 403 and move.json["code"] == "missing-scope"
    assert client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(reader)).status_code == 200


def test_unknown_scopes_and_a_game_token_on_me_are_refused(client, app):
    master = sign_in(client, app, "ann@example.org")
    bad = client.post(
        "/v1/me/tokens", headers=auth(master), json={"name": "x", "scopes": ["games:everything"]}
    )
    assert bad.status_code == 422
    _, tokens = new_game(client)
    seat = client.get("/v1/me", headers=auth(tokens[0]))
    assert seat.status_code == 401 and seat.json["code"] == "not-an-account-token"
    assert client.get("/v1/me").json["code"] == "missing-token"
    fake = client.get("/v1/me", headers=auth("arb_not-a-token"))
    assert fake.status_code == 401 and fake.json["code"] == "bad-token"


def _game_with(client, token, emails, engine="space-worm"):
    """Create a game with the account token; return its id and the seat tokens."""
    answer = client.post(
        "/v1/games",
        headers=auth(token),
        json={
            "engine": engine,
            "players": [{"name": f"P{i}", "email": e} for i, e in enumerate(emails)],
        },
    )
    assert answer.status_code == 201, answer.json
    return answer.json["id"], [s["token"] for s in answer.json["seats"]]


def _play_as(client, app, game_id, token):
    """Play the first legal move of the token's seat; return the answer."""
    until_decision(client, app, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token))
    assert legal.status_code == 200, legal.json
    return client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(token),
        json={"move": legal.json["moves"][0], "expected_version": legal.json["version"]},
    )


def test_one_account_token_acts_for_every_seat_the_account_holds(client, app):
    master = sign_in(client, app, "ann@example.org")
    bot = scoped_token(client, master, "games:play")
    first, _ = _game_with(client, master, ["ann@example.org", None])
    second, _ = _game_with(client, master, [None, "ann@example.org"])
    for game_id, seat in ((first, 0), (second, 1)):
        view = client.get(f"/v1/games/{game_id}/view", headers=auth(bot)).json
        assert view["seat"] == seat
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(bot)).json
        assert legal["seat"] == seat
    until_decision(client, app, first)
    assert client.get(f"/v1/games/{first}").json["to_act"] == [0]
    played = _play_as(client, app, first, bot)
    assert played.status_code == 201, played.json
    with app.app_context():
        event = db.session.get(Event, (first, played.json["seq"]))
        assert event.kind == "move" and event.seat == 0


def test_seat_tokens_keep_working_for_games_without_accounts(client, app):
    game_id, tokens = new_game(client, emails=True)
    until_decision(client, app, game_id)
    assert _play_as(client, app, game_id, tokens[0]).status_code == 201


def test_an_account_token_on_a_game_where_it_holds_no_seat_is_refused(client, app):
    ann = sign_in(client, app, "ann@example.org")
    game_id, _ = new_game(client, emails=True)
    until_decision(client, app, game_id)
    before = event_count(app, game_id)
    for answer in (
        client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(ann)),
        client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(ann),
            json={"move": {"die": 0, "heart": True}},
        ),
        client.post(f"/v1/games/{game_id}/resign", headers=auth(ann)),
    ):
        assert answer.status_code == 403 and answer.json["code"] == "no-seat"
    assert event_count(app, game_id) == before
    spectator = client.get(f"/v1/games/{game_id}/view", headers=auth(ann)).json
    assert spectator["seat"] is None


def test_signing_up_links_the_seats_that_named_the_address(client, app):
    game_id, _ = new_game(client, emails=True)  # seats p0@, p1@example.org
    token = sign_in(client, app, "p1@example.org")
    assert client.get(f"/v1/games/{game_id}/view", headers=auth(token)).json["seat"] == 1


def test_creation_is_closed_without_open_creation(tmp_path):
    from tests.conftest import make_app

    app = make_app(f"sqlite:///{tmp_path / 'closed.sqlite3'}", OPEN_CREATION=False)
    client = app.test_client()
    body = {"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]}
    anonymous = client.post("/v1/games", json=body)
    assert anonymous.status_code == 401 and anonymous.json["code"] == "missing-token"
    master = sign_in(client, app, "ann@example.org")
    player = scoped_token(client, master, "games:play")
    refused = client.post("/v1/games", json=body, headers=auth(player))
    assert refused.status_code == 403 and refused.json["code"] == "missing-scope"
    creator = scoped_token(client, master, "games:create")
    made = client.post("/v1/games", json=body, headers=auth(creator))
    assert made.status_code == 201
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Event)) > 0
        game_rows = db.session.execute(sa.text("SELECT creator_account_id FROM games")).all()
        assert len(game_rows) == 1 and game_rows[0][0] is not None


def test_the_creating_account_may_pause_with_its_token(client, app):
    master = sign_in(client, app, "ann@example.org")
    answer = client.post(
        "/v1/games",
        headers=auth(master),
        json={
            "engine": "space-worm",
            "players": [{"name": "A"}, {"name": "B"}],
            "clock": {"type": "per-move", "seconds": 86400},
        },
    )
    game_id = answer.json["id"]
    other = sign_in(client, app, "eve@example.org")
    refused = client.post(f"/v1/games/{game_id}/pause", headers=auth(other))
    assert refused.status_code == 401 and refused.json["code"] == "not-creator"
    assert client.post(f"/v1/games/{game_id}/pause", headers=auth(master)).status_code == 201


def test_creation_idempotency_is_scoped_to_the_creating_token(client, app):
    ann = sign_in(client, app, "ann@example.org")
    eve = sign_in(client, app, "eve@example.org")
    body = {"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]}
    key = {"Idempotency-Key": "0123456789abcdef-replayed"}
    first = client.post("/v1/games", json=body, headers={**auth(ann), **key})
    again = client.post("/v1/games", json=body, headers={**auth(ann), **key})
    assert first.status_code == again.status_code == 201
    assert again.json["id"] == first.json["id"]
    replay = client.post("/v1/games", json=body, headers={**auth(eve), **key})
    assert replay.status_code == 201 and replay.json["id"] != first.json["id"]
    first_tokens = {s["token"] for s in first.json["seats"]}
    assert not first_tokens & {s["token"] for s in replay.json["seats"]}
    anonymous = client.post("/v1/games", json=body, headers=key)
    assert anonymous.json["id"] != first.json["id"]


def test_patch_me_changes_name_zone_and_digest(client, app):
    token = sign_in(client, app, "ann@example.org")
    game_id, _ = _game_with(client, token, ["ann@example.org", None])
    changed = client.patch(
        "/v1/me",
        headers=auth(token),
        json={"display_name": "Annie", "tz": "Europe/Paris", "digest": True},
    )
    assert changed.status_code == 200
    assert (changed.json["display_name"], changed.json["tz"], changed.json["digest"]) == (
        "Annie",
        "Europe/Paris",
        True,
    )
    assert client.get(f"/v1/games/{game_id}").json["players"][0]["name"] == "Annie"
    bad = client.patch("/v1/me", headers=auth(token), json={"tz": "Mars/Olympus"})
    assert bad.status_code == 422
    assert client.get("/v1/me", headers=auth(token)).json["tz"] == "Europe/Paris"


def test_delete_me_erases_address_and_name_and_keeps_the_log(client, app):
    token = sign_in(client, app, "ann@example.org", "Ann")
    game_id, _ = _game_with(client, token, ["ann@example.org", None])
    with app.app_context():
        log_before = [
            (e.seq, e.kind, e.payload)
            for e in db.session.scalars(
                sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq)
            )
        ]
    assert client.delete("/v1/me", headers=auth(token)).status_code == 204
    assert client.get("/v1/me", headers=auth(token)).status_code == 401
    players = client.get(f"/v1/games/{game_id}").json["players"]
    assert players[0]["name"] == "(deleted player)"
    with app.app_context():
        account = db.session.scalar(sa.select(Account))
        assert account.email is None and account.display_name == "(deleted player)"
        seat = db.session.get(Seat, (game_id, 0))
        assert seat.email is None
        log_after = [
            (e.seq, e.kind, e.payload)
            for e in db.session.scalars(
                sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq)
            )
        ]
    assert log_after == log_before
    again = sign_in(client, app, "ann@example.org")  # the address may sign up anew
    assert client.get("/v1/me", headers=auth(again)).json["id"] != account.id


def test_my_games_to_act_lists_every_game_where_it_is_my_turn(client, app):
    token = sign_in(client, app, "ann@example.org")
    mine_first, _ = _game_with(client, token, ["ann@example.org", None])
    mine_second, _ = _game_with(client, token, [None, "ann@example.org"])
    for game_id in (mine_first, mine_second):
        until_decision(client, app, game_id)
    listed = client.get("/v1/me/games", headers=auth(token)).json["games"]
    assert {g["id"] for g in listed} == {mine_first, mine_second}
    due = client.get("/v1/me/games?to_act=true", headers=auth(token)).json["games"]
    assert [g["id"] for g in due] == [mine_first] and due[0]["to_act"] == [0]


class UnreadableBody(io.RawIOBase):
    """A 10 MB request body (of spaces) that records whether anybody read it."""

    size = 10 * 1024 * 1024

    def __init__(self):
        self.read_at_all = False
        self.position = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=0):
        self.position = {0: offset, 1: self.position + offset, 2: self.size + offset}[whence]
        return self.position

    def tell(self):
        return self.position

    def readinto(self, buffer):
        self.read_at_all = True
        count = min(len(buffer), self.size - self.position)
        buffer[:count] = b" " * count
        self.position += count
        return count


def _big_post(client, path, token):
    body = UnreadableBody()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(
        path, input_stream=body, content_type="application/json", headers=headers
    ), body


def test_a_10_mb_body_with_a_bad_token_is_401_before_the_body_is_read(client, app):
    game_id, _ = new_game(client)
    for path, token in (
        (f"/v1/games/{game_id}/moves", "wrong"),
        (f"/v1/games/{game_id}/moves", None),
        (f"/v1/games/{game_id}/moves", "arb_unknown"),
        ("/v1/me/tokens", "wrong"),
        (f"/v1/games/{game_id}/extend", "wrong"),
        (f"/v1/games/{game_id}/vacation", "wrong"),
    ):
        answer, body = _big_post(client, path, token)
        assert answer.status_code == 401, (path, answer.json)
        assert answer.mimetype == "application/problem+json"
        assert not body.read_at_all, path
    missing, body = _big_post(client, "/v1/games/no-such-game/moves", "wrong")
    assert missing.status_code == 404 and not body.read_at_all


def test_a_non_json_body_with_a_bad_token_is_401_not_415(client, app):
    game_id, _ = new_game(client)
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        data="move=1",
        headers={
            "Authorization": "Bearer wrong",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert answer.status_code == 401


def test_a_bad_token_is_401_before_a_bad_if_match_or_body(client, app):
    game_id, _ = new_game(client)
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        json={"nonsense": True},
        headers={"Authorization": "Bearer wrong", "If-Match": "garbage"},
    )
    assert answer.status_code == 401 and answer.json["code"] == "bad-token"


def test_a_100_kb_header_with_a_bad_token_is_a_plain_401(client, app):
    game_id, _ = new_game(client)
    huge = "x" * 100 * 1024
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        json={"move": 1},
        headers={"Authorization": f"Bearer {huge}", "X-Filler": huge},
    )
    assert answer.status_code == 401 and answer.json["code"] == "bad-token"
    assert huge not in answer.get_data(as_text=True)
