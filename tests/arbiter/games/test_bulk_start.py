"""``POST /v1/bulk-games`` with a batch ``start_at`` (clocks start then) and seats that
name accounts or invite addresses, under the consent rules of single creation (issue
11, "Bulk creation"; issue 10, "Invitations with consent")."""

from __future__ import annotations

import json
from datetime import timedelta

import sqlalchemy as sa
import time_machine

from arbiter import settings as arbiter_settings
from arbiter.extensions import db
from arbiter.games import game_start
from arbiter.models import Event, Game, Invitation, OutboxMail, Seat, WebhookDelivery
from arbiter.models.timestamps import iso, utcnow
from tests.arbiter.games.test_bulk_games import counts
from tests.arbiter.hooks.test_webhooks import hook_app, register
from tests.conftest import make_app
from tests.helpers import auth, inviter, roll, sign_in


def _batch(*seat_lists, **extra) -> dict:
    return {
        "games": [
            {
                "engine": "space-worm",
                "players": [{"name": f"G{g}P{i}", "email": e} for i, e in enumerate(seats)],
            }
            for g, seats in enumerate(seat_lists)
        ],
        **extra,
    }


def _kinds(app, game_id):
    with app.app_context():
        return [
            e.kind
            for e in db.session.scalars(
                sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq)
            )
        ]


def test_a_batch_start_at_holds_every_game_until_then_and_starts_them_together(sqlite_url):
    """Given a batch of three games (accounts' seats and anonymous ones, one with a
    clock) and a start_at an hour ahead, every game waits with its clock stopped, no
    dice rolled and no turn mail or web hook; at start_at the clock sweep's start
    starts them all, and the turns that follow reach the accounts' web hooks."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    sign_in(client, app, "bob@example.org")
    register(client, ann, "http://127.0.0.1:9/hook", ["turn"])
    start = utcnow() + timedelta(hours=1)
    body = _batch(
        ["ann@example.org", "bob@example.org"],
        [None, None],
        ["bob@example.org", "ann@example.org"],
        start_at=iso(start),
    )
    body["games"][1]["clock"] = {"type": "per-move", "seconds": 3600}
    made = client.post("/v1/bulk-games", headers=auth(ann), json=body)
    assert made.status_code == 201, made.json
    ids = [g["id"] for g in made.json["games"]]
    for game_id in ids:
        s = client.get(f"/v1/games/{game_id}").json
        assert s["status"] == "waiting" and s["start_at"] == iso(start)
        assert "chance" not in _kinds(app, game_id)
    assert client.get(f"/v1/games/{ids[1]}").json["deadline"] is None
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(WebhookDelivery)) == 0
        assert not db.session.scalar(
            sa.select(sa.func.count())
            .select_from(OutboxMail)
            .where(OutboxMail.dedupe_key.like("turn:%"))
        )
    with time_machine.travel(start - timedelta(seconds=5), tick=False):
        with app.app_context():
            assert game_start.start_due() == 0
    with time_machine.travel(start + timedelta(seconds=1), tick=False):
        with app.app_context():
            assert game_start.start_due() == 3
        for game_id in ids:
            assert client.get(f"/v1/games/{game_id}").json["status"] == "active"
            assert "game-started" in _kinds(app, game_id)
            roll(app, game_id)
        clocked = client.get(f"/v1/games/{ids[1]}").json
    assert clocked["deadline"] is not None
    with app.app_context():
        told = [
            json.loads(d.body)["data"]["game"]
            for d in db.session.scalars(sa.select(WebhookDelivery))
        ]
    assert sorted(told) == sorted([ids[0], ids[1], ids[2]])  # Ann made all three


def test_a_batch_start_at_in_the_past_is_refused_and_creates_nothing(sqlite_url):
    """Given a batch whose start_at has passed, the answer is 422 ``bad-start`` and no
    game is written."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    before = counts(app)
    answer = client.post(
        "/v1/bulk-games", json=_batch([None, None], start_at=iso(utcnow() - timedelta(minutes=1)))
    )
    assert answer.status_code == 422 and answer.json["code"] == "bad-start"
    assert answer.mimetype == "application/problem+json" and counts(app) == before


def test_seats_name_accounts_or_invite_addresses_with_consent(sqlite_url):
    """Given two games naming an account and the same unknown address, the account's
    seats are linked to it, the address gets one invitation mail for both (never a
    second), and both games wait for it; once it accepts one, that game starts."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    made = client.post(
        "/v1/bulk-games",
        headers=auth(ann),
        json=_batch(
            ["ann@example.org", "carol@example.org"], ["carol@example.org", "ann@example.org"]
        ),
    )
    assert made.status_code == 201, made.json
    ids = [g["id"] for g in made.json["games"]]
    with app.app_context():
        seats = {(s.game_id, s.seat): s.account_id for s in db.session.scalars(sa.select(Seat))}
        assert seats[(ids[0], 0)] and seats[(ids[0], 0)] == seats[(ids[1], 1)]
        assert seats[(ids[0], 1)] is None
        invitations = list(db.session.scalars(sa.select(Invitation).order_by(Invitation.seat)))
        assert sorted(i.game_id for i in invitations) == sorted(ids)
        mails = list(
            db.session.scalars(
                sa.select(OutboxMail).where(OutboxMail.to_addr == "carol@example.org")
            )
        )
        assert len(mails) == 1 and mails[0].dedupe_key.startswith("invite:")
    assert [client.get(f"/v1/games/{i}").json["status"] for i in ids] == ["waiting"] * 2


def test_a_blocked_address_in_one_game_creates_no_game_of_the_batch(sqlite_url):
    """Given an address that blocked invitations in the second game of a batch (the
    default unfilled policy ``cancel``), the batch is 422 ``bad-game`` naming index 1
    with the problem ``invitation-refused``, and nothing is written."""
    from arbiter.mail import consent

    app = hook_app(sqlite_url)
    client = app.test_client()
    with app.app_context():
        consent.address("dave@example.org").blocked_at = utcnow()
        db.session.commit()
    host = auth(inviter(client, app))  # only an account may invite
    before = counts(app)
    answer = client.post(
        "/v1/bulk-games",
        json=_batch([None, "erin@example.org"], [None, "dave@example.org"]),
        headers=host,
    )
    assert answer.status_code == 422 and answer.json["code"] == "bad-game"
    assert answer.json["index"] == 1
    assert answer.json["problem"]["code"] == "invitation-refused"
    assert counts(app) == before
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Invitation)) == 0
        assert (
            db.session.scalar(
                sa.select(sa.func.count())
                .select_from(OutboxMail)
                .where(OutboxMail.to_addr == "erin@example.org")
            )
            == 0
        )
    started = client.post(
        "/v1/bulk-games",
        json=_batch([None, "dave@example.org"], unfilled="start"),
        headers=host,
    )
    assert started.status_code == 201, started.json
    game = client.get(f"/v1/games/{started.json['games'][0]['id']}").json
    assert game["unfilled"] == "start"


def test_a_single_game_with_start_at_and_no_invitation_waits_for_it(sqlite_url):
    """Given ``POST /v1/games`` with a start_at and no invited seat, the game waits
    until start_at and then starts (the batch rule, for one game)."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    start = utcnow() + timedelta(minutes=30)
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "start_at": iso(start),
            "players": [{"name": "A"}, {"name": "B"}],
        },
    )
    assert made.status_code == 201 and made.json["status"] == "waiting"
    with time_machine.travel(start + timedelta(seconds=1), tick=False):
        with app.app_context():
            game_start.start_due()
    assert client.get(f"/v1/games/{made.json['id']}").json["status"] == "active"
    with app.app_context():
        assert db.session.get(Game, made.json["id"]).status == "active"


def test_a_start_at_with_an_idempotency_key_is_created_once_and_replayed(sqlite_url):
    """A creation with a ``start_at`` and an ``Idempotency-Key`` (single and bulk) is
    created (it once answered 500: the loaded datetime broke the request fingerprint), a
    replay returns the same game, and the same key with another start_at is refused."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    start = iso(utcnow() + timedelta(hours=1))
    for route, body in (
        (
            "/v1/games",
            {"engine": "space-worm", "start_at": start, "players": [{"name": "A"}, {"name": "B"}]},
        ),
        ("/v1/bulk-games", _batch([None, None], start_at=start)),
    ):
        key = {"Idempotency-Key": f"start-at-key-{route.replace('/', '-')}"}
        first = client.post(route, headers={**auth(ann), **key}, json=body)
        again = client.post(route, headers={**auth(ann), **key}, json=body)
        assert first.status_code == 201, first.json
        assert again.status_code == 201 and again.json == first.json
        other = {**body, "start_at": iso(utcnow() + timedelta(hours=2))}
        refused = client.post(route, headers={**auth(ann), **key}, json=other)
        assert refused.status_code == 422
        assert refused.json["code"] == "idempotency-key-reused"


def test_a_start_at_beyond_max_start_ahead_is_refused_with_its_limit(sqlite_url):
    """Given MAX_START_AHEAD (default a year), a start_at in year 9999 is 422 bad-start
    saying the limit, single and bulk, and nothing is made; one within it is taken."""
    app = make_app(sqlite_url)
    client = app.test_client()
    far = {"engine": "space-worm", "players": [{"name": "Ann"}], "start_at": "9999-12-31T23:59:59Z"}
    for route, body in (
        ("/v1/games", far),
        ("/v1/bulk-games", _batch([None], start_at="9999-12-31T23:59:59Z")),
    ):
        answer = client.post(route, json=body)
        assert answer.status_code == 422 and answer.json["code"] == "bad-start", answer.json
        assert "365 days" in answer.json["detail"] and "MAX_START_AHEAD" in answer.json["detail"]
    assert client.get("/v1/games").json == []
    arbiter_settings.override(app, MAX_START_AHEAD=3600)
    soon = {**far, "start_at": iso(utcnow() + timedelta(hours=2))}
    assert client.post("/v1/games", json=soon).json["code"] == "bad-start"
    soon["start_at"] = iso(utcnow() + timedelta(minutes=30))
    assert client.post("/v1/games", json=soon).status_code == 201


def test_a_paused_game_waiting_for_its_start_time_says_so(sqlite_url):
    """Given a game with a start_at and no invited seat, a pause is 409
    game-not-started saying it starts at that time (not that it waits for players)."""
    app = make_app(sqlite_url)
    client = app.test_client()
    start = iso(utcnow() + timedelta(days=30))
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "Ann"}],
            "start_at": start,
            "clock": {"type": "per-move", "seconds": 3600},
        },
    )
    assert made.status_code == 201, made.json
    answer = client.post(
        f"/v1/games/{made.json['id']}/pause",
        headers={"Authorization": f"Bearer {made.json['creator_token']}"},
    )
    assert answer.status_code == 409 and answer.json["code"] == "game-not-started"
    assert answer.json["detail"] == f"The game has not started: it starts at {start}."
