"""Web hooks (issue 11, item 4): registered per account, written to an outbox in the
event's transaction, one delivery per URL per event, signed per Standard Webhooks,
retried with back-off, disabled after repeated failure, never sent to a loopback,
private or link-local address unless the operator allows it."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa
import time_machine
from standardwebhooks import Webhook as Verifier
from standardwebhooks import WebhookVerificationError

from arbiter import settings as arbiter_settings
from arbiter.extensions import db
from arbiter.hooks import webhook_delivery, webhooks
from arbiter.models import Webhook, WebhookDelivery
from arbiter.uow import UnitOfWork
from tests.conftest import make_app
from tests.helpers import auth, new_game, play_out, sampled, sign_in, until_decision
from tests.webhook_receiver import ReceiverServer

LOOPBACK = {"WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8,::1/128", "WEBHOOK_ALLOW_HTTP": True}
"""The tests' receivers listen on loopback, which the operator must allow."""


def hook_app(db_url, **config):
    """Return an app on ``db_url`` that may call loopback web hooks."""
    return make_app(db_url, **{**LOOPBACK, **config})


def register(client, token, url, events=("turn", "game_over")) -> dict:
    """Register a web hook over the API; return the creation answer."""
    answer = client.post(
        "/v1/me/webhooks", headers=auth(token), json={"url": url, "events": list(events)}
    )
    assert answer.status_code == 201, answer.json
    return answer.json


def deliver_due(app) -> int:
    """Try every delivery that may be tried now, as the worker would; return how many."""
    with app.app_context():
        ids = webhook_delivery.due(older_than_seconds=-1)
        for delivery_id in ids:
            webhook_delivery.attempt(delivery_id)
        return len(ids)


def deliveries(app) -> list[WebhookDelivery]:
    with app.app_context():
        rows = list(db.session.scalars(sa.select(WebhookDelivery).order_by(WebhookDelivery.id)))
        db.session.expunge_all()
        return rows


def two_players(client, app):
    """Sign up Ann and Bob; return their tokens and a game of theirs made by Ann."""
    ann = sign_in(client, app, "ann@example.org", "Ann")
    bob = sign_in(client, app, "bob@example.org", "Bob")
    answer = client.post(
        "/v1/games",
        headers=auth(ann),
        json={
            "engine": "space-worm",
            "players": [
                {"name": "Ann", "email": "ann@example.org"},
                {"name": "Bob", "email": "bob@example.org"},
            ],
        },
    )
    assert answer.status_code == 201, answer.json
    return ann, bob, answer.json["id"]


def verifies(secret: str, got) -> bool:
    """True when the ``standardwebhooks`` library accepts the POST with ``secret``."""
    try:
        Verifier(secret).verify(got.body, got.headers)
        return True
    except WebhookVerificationError:
        return False


# --------------------------------------------------------------------------- the API


def test_a_hook_is_made_listed_and_deleted_and_its_secret_shown_once(sqlite_url):
    """Given an account, POST makes a hook whose answer alone carries the whsec_
    secret; GET lists it without one; DELETE removes it; another account sees none."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    bob = sign_in(client, app, "bob@example.org")
    made = register(client, ann, "http://127.0.0.1:9/hook?x=1", ["game_over"])
    assert made["secret"].startswith("whsec_") and made["events"] == ["game_over"]
    assert made["url"] == "http://127.0.0.1:9/hook?x=1" and made["disabled_at"] is None
    listed = client.get("/v1/me/webhooks", headers=auth(ann)).json
    assert [h["id"] for h in listed] == [made["id"]] and "secret" not in listed[0]
    assert client.get("/v1/me/webhooks", headers=auth(bob)).json == []
    other = client.delete(f"/v1/me/webhooks/{made['id']}", headers=auth(bob))
    assert other.status_code == 404 and other.json["code"] == "no-such-webhook"
    assert (
        client.get(f"/v1/me/webhooks/{made['id']}/deliveries", headers=auth(bob)).status_code == 404
    )
    assert client.delete(f"/v1/me/webhooks/{made['id']}", headers=auth(ann)).status_code == 204
    assert client.get("/v1/me/webhooks", headers=auth(ann)).json == []
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Webhook)) == 0


@pytest.mark.parametrize(
    "body, code",
    sampled(
        [
            ({"url": "http://127.0.0.1:9/"}, "invalid-request"),
            ({"url": "http://127.0.0.1:9/", "events": ["move"]}, "invalid-request"),
            ({"url": "http://127.0.0.1:9/", "events": []}, "invalid-request"),
            ({"url": "ftp://example.org/x", "events": ["turn"]}, "webhook-url-invalid"),
            ({"url": "not-a-url", "events": ["turn"]}, "webhook-url-invalid"),
            ({"url": "https://.../", "events": ["turn"]}, "webhook-url-invalid"),  # no host left
            ({"url": "https://./x", "events": ["turn"]}, "webhook-url-invalid"),
            ({"url": "not a url", "events": ["turn"]}, "invalid-request"),
            ({"url": "http://user:pw@127.0.0.1:9/", "events": ["turn"]}, "webhook-url-invalid"),
            ({"url": "http://127.0.0.1:99999/", "events": ["turn"]}, "webhook-url-invalid"),
            ({"url": "https://93.184.215.14:0/x", "events": ["turn"]}, "webhook-url-invalid"),
            ({"url": "https://93.184.215.14/x\u0000y", "events": ["turn"]}, "invalid-request"),
            ({"url": "https://93.184.215.14/x y", "events": ["turn"]}, "invalid-request"),
            ({"url": " https://93.184.215.14/x", "events": ["turn"]}, "invalid-request"),
            ({"url": "https://93.184.215.14/x\ty", "events": ["turn"]}, "invalid-request"),
            ({"url": "https://93.184.215.14/x\u007f", "events": ["turn"]}, "invalid-request"),
            ({"url": "http://10.1.2.3/hook", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://192.168.0.10/hook", "events": ["turn"]}, "webhook-url-private"),
            (
                {"url": "http://169.254.169.254/latest/meta-data", "events": ["turn"]},
                "webhook-url-private",
            ),
            ({"url": "http://[fe80::1]/hook", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[::ffff:10.0.0.1]/hook", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[64:ff9b::a00:1]/", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[2002:a00:1::]/", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[::a00:1]/", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[64:ff9b:1::5db8:d70e]/", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[::ffff:0:7f00:1]/", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[5f00::1]/", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[1::]/", "events": ["turn"]}, "webhook-url-private"),
            ({"url": "http://[3fff::1]/", "events": ["turn"]}, "webhook-url-private"),
            (
                {"url": "http://no-such-host.invalid/hook", "events": ["turn"]},
                "webhook-url-unresolvable",
            ),
        ],
        kind=lambda row: row[1],
    ),
)
def test_bad_hooks_are_refused_with_problem_json_and_nothing_written(sqlite_url, body, code):
    """Given loopback allowed by the operator, a missing or unknown event, a URL that
    is not http(s), has credentials, a space or control character (NUL: PostgreSQL
    stores none) or a bad port (0 too), or names a private, link-local or
    unresolvable host is a 422 problem with a stable code, and no hook is made."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    answer = client.post("/v1/me/webhooks", headers=auth(ann), json=body)
    assert answer.status_code == 422, answer.json
    assert answer.mimetype == "application/problem+json" and answer.json["code"] == code
    assert client.get("/v1/me/webhooks", headers=auth(ann)).json == []


@pytest.mark.parametrize(
    "url",
    ["https://93.184.215.14/x\u0000y", "https://93.184.215.14/x y", "https://93.184.215.14:0/x"],
)
def test_a_nul_a_space_or_port_0_in_a_url_is_a_422_on_each_database(db_url, url):
    """Given either database (PostgreSQL stores no NUL in text), a URL with a NUL, a
    space or port 0 is a 422 problem, never 201 or 500, and no hook is stored."""
    app = make_app(db_url)
    client = app.test_client()
    token = sign_in(client, app, f"nul-{uuid.uuid4().hex[:8]}@example.org")
    answer = client.post(
        "/v1/me/webhooks", headers=auth(token), json={"url": url, "events": ["turn"]}
    )
    assert answer.status_code == 422, answer.json
    assert answer.json["code"] in ("invalid-request", "webhook-url-invalid")
    assert client.get("/v1/me/webhooks", headers=auth(token)).json == []
    with app.app_context():
        db.engine.dispose()


def test_loopback_and_names_resolving_to_it_are_refused_unless_allowed(sqlite_url):
    """Given no WEBHOOK_ALLOWED_NETWORKS, 127.0.0.1 and ``localhost`` (a DNS name that
    resolves to 127.0.0.1) are refused; with 127.0.0.0/8 allowed, 127.0.0.1 is taken."""
    app = make_app(sqlite_url, WEBHOOK_ALLOW_HTTP=True, WEBHOOK_ALLOWED_NETWORKS="")
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    for url in (
        "http://127.0.0.1:8080/hook",
        "http://localhost:8080/hook",
        "http://[::1]:8080/hook",
        "http://0.0.0.0:8080/",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/",
        "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    ):
        answer = client.post(
            "/v1/me/webhooks", headers=auth(ann), json={"url": url, "events": ["turn"]}
        )
        assert answer.status_code == 422 and answer.json["code"] == "webhook-url-private", url
    arbiter_settings.override(app, WEBHOOK_ALLOWED_NETWORKS="127.0.0.0/8")
    assert register(client, ann, "http://127.0.0.1:8080/hook")["url"]


def test_production_takes_only_https(sqlite_url):
    """Given WEBHOOK_ALLOW_HTTP off (the production default), an http:// URL is refused."""
    app = hook_app(sqlite_url, WEBHOOK_ALLOW_HTTP=False)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    answer = client.post(
        "/v1/me/webhooks",
        headers=auth(ann),
        json={"url": "http://127.0.0.1:9/", "events": ["turn"]},
    )
    assert answer.status_code == 422 and answer.json["code"] == "webhook-url-not-https"


@pytest.mark.parametrize(
    "allow_http, allowed", [(True, "https:// or http://"), (False, "https://")]
)
def test_a_url_of_another_scheme_is_told_what_this_server_allows(sqlite_url, allow_http, allowed):
    """Given ftp://, the refusal names the schemes allowed under the current config:
    https and http where WEBHOOK_ALLOW_HTTP is on, https alone where it is off."""
    app = hook_app(sqlite_url, WEBHOOK_ALLOW_HTTP=allow_http)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    answer = client.post(
        "/v1/me/webhooks",
        headers=auth(ann),
        json={"url": "ftp://example.org/x", "events": ["turn"]},
    )
    assert answer.status_code == 422 and answer.json["code"] == "webhook-url-invalid"
    assert f"must be an absolute {allowed} address" in answer.json["detail"]


def test_production_defaults_refuse_http(tmp_path):
    """Given a DATABASE_URL (production), http web hooks are off by default; on the
    embedded default they are on; no private network is allowed in either."""
    from arbiter.settings import Settings

    prod = Settings.from_env({"DATABASE_URL": "postgresql://x/y", "SECRET_KEY": "k"}, str(tmp_path))
    embedded = Settings.from_env({"SECRET_KEY": "k"}, str(tmp_path))
    assert prod.hooks.allow_http is False and embedded.hooks.allow_http is True
    assert prod.hooks.allowed_networks == embedded.hooks.allowed_networks == ""


def test_hooks_need_a_personal_token_with_account_write(sqlite_url):
    """Given a game's seat token, or a personal token without account:write, the
    routes answer 401 / 403 problems."""
    from tests.helpers import scoped_token

    app = hook_app(sqlite_url)
    client = app.test_client()
    _, tokens = new_game(client)
    seat = client.get("/v1/me/webhooks", headers=auth(tokens[0]))
    assert seat.status_code == 401 and seat.json["code"] == "not-an-account-token"
    ann = sign_in(client, app, "ann@example.org")
    reader = scoped_token(client, ann, "games:read")
    answer = client.post(
        "/v1/me/webhooks",
        headers=auth(reader),
        json={"url": "http://127.0.0.1:9/", "events": ["turn"]},
    )
    assert answer.status_code == 403 and answer.mimetype == "application/problem+json"


def test_an_account_has_at_most_webhooks_per_account(sqlite_url):
    """Given WEBHOOKS_PER_ACCOUNT=2, the third hook is a 422 ``too-many-webhooks``."""
    app = hook_app(sqlite_url, WEBHOOKS_PER_ACCOUNT=2)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    register(client, ann, "http://127.0.0.1:9/a")
    register(client, ann, "http://127.0.0.1:9/b")
    answer = client.post(
        "/v1/me/webhooks",
        headers=auth(ann),
        json={"url": "http://127.0.0.1:9/c", "events": ["turn"]},
    )
    assert answer.status_code == 422 and answer.json["code"] == "too-many-webhooks"


# --------------------------------------------------------------------------- delivery


def test_each_event_reaches_a_shared_url_once_signed_for_each_hook(db_url):
    """Given Ann and Bob both registered the same URL (Bob twice, spelled differently),
    a game between them played to the end: the receiver gets each event exactly once
    (one webhook-id each), every signature verifies with the library for the
    accounts concerned (a turn only with its player's secret, the end with both), a
    changed body fails, and each delivery log lists what its hook was sent."""
    app = hook_app(db_url)
    client = app.test_client()
    with ReceiverServer() as receiver:
        ann, bob, game_id = two_players(client, app)
        secrets = {
            "ann": register(client, ann, receiver.url + "hook")["secret"],
            "bob": register(client, bob, receiver.url + "hook")["secret"],
        }
        bob_again = register(
            client, bob, receiver.url.replace("http://", "HTTP://") + "hook#again", ["game_over"]
        )
        assert bob_again["url"] == receiver.url + "hook"
        tokens = {0: ann, 1: bob}
        turns = 0
        while True:
            deliver_due(app)
            s = until_decision(client, app, game_id)
            if s["status"] == "over":
                break
            turns += 1
            seat = s["to_act"][0]
            legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
            moved = client.post(
                f"/v1/games/{game_id}/moves",
                headers=auth(tokens[seat]),
                json={"move": legal["moves"][0], "expected_version": legal["version"]},
            )
            assert moved.status_code == 201, moved.json
        deliver_due(app)
        got = receiver.ok()
    ids = [r.headers["webhook-id"] for r in got]
    assert len(ids) == len(set(ids)) == turns + 1
    bodies = [json.loads(r.body) for r in got]
    assert [b["type"] for b in bodies] == ["turn"] * turns + ["game_over"]
    for r, b in zip(got, bodies):
        assert r.path == "/hook" and b["data"]["game"] == game_id
        if b["type"] == "turn":
            player = "ann" if b["data"]["to_act"] == [0] else "bob"
            other = "bob" if player == "ann" else "ann"
            assert verifies(secrets[player], r)
            # Ann made the game, so her hook is told of every turn
            assert verifies(secrets[other], r) is (other == "ann")
        else:
            assert len(r.headers["webhook-signature"].split(" ")) == 3
            assert verifies(secrets["ann"], r) and verifies(secrets["bob"], r)
            assert verifies(bob_again["secret"], r)
            assert b["data"]["result"]["ranking"]
    forged = got[-1]
    forged.body = forged.body.replace(b'"game_over"', b'"turn"')
    assert not verifies(secrets["ann"], forged)
    log = client.get(f"/v1/me/webhooks/{bob_again['id']}/deliveries", headers=auth(bob)).json
    assert [d["event"] for d in log["deliveries"]] == ["game_over"]
    assert log["deliveries"][0]["state"] == "delivered"
    assert log["deliveries"][0]["message_id"] == ids[-1]
    ann_log = client.get("/v1/me/webhooks", headers=auth(ann)).json[0]
    full = client.get(f"/v1/me/webhooks/{ann_log['id']}/deliveries", headers=auth(ann)).json
    assert len(full["deliveries"]) == turns + 1
    assert all(d["attempts"] == 1 and d["last_status"] == 204 for d in full["deliveries"])


def test_deliveries_are_written_in_the_events_transaction(sqlite_url):
    """Given a hook for ``turn``, the move's commit writes the turn's delivery (none
    before it); a transaction rolled back leaves no delivery and enqueues nothing; the
    same event notified twice writes one."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    ann, bob, game_id = two_players(client, app)
    register(client, bob, "http://127.0.0.1:9/hook", ["turn"])
    s = until_decision(client, app, game_id)
    assert s["to_act"] == [0] and deliveries(app) == []  # Ann's turn: Bob is not told
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(ann)).json
    client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(ann),
        json={"move": legal["moves"][0], "expected_version": legal["version"]},
    )
    s = until_decision(client, app, game_id)
    [row] = deliveries(app)
    assert row.event == "turn" and json.loads(row.body)["data"]["version"] == s["version"]
    with app.app_context():
        account = db.session.scalar(sa.select(Webhook.account_id))
        uow = UnitOfWork()
        webhooks.notify(uow, "turn", {"game": "x"}, [account])
        assert uow._rows
        uow.rollback()
        assert not uow._rows and not uow.tasks
        uow = UnitOfWork()
        webhooks.notify(uow, "turn", json.loads(row.body)["data"], [account])
        uow.commit()
    assert len(deliveries(app)) == 1


def test_a_failed_delivery_is_retried_after_a_growing_back_off_then_delivered(sqlite_url):
    """Given a receiver that fails twice (500, then 503) and then
    accepts, the delivery is tried again only after each back-off (5 s, then 10 s),
    with the same webhook-id, and ends delivered; the hook's failure count is reset."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    with ReceiverServer() as receiver:
        receiver.plan = [500, 503]
        ann, _, game_id = two_players(client, app)
        hook = register(client, ann, receiver.url, ["turn"])
        until_decision(client, app, game_id)
        assert deliver_due(app) == 1
        with app.app_context():
            assert webhook_delivery.backoff(1) == 5 and webhook_delivery.backoff(2) == 10
        for tries, wait in ((1, 5), (2, 10)):
            [row] = deliveries(app)  # the times come from the row: the machine may be slow
            assert (row.retry_at - row.claimed_at).total_seconds() == pytest.approx(wait, abs=1)
            with time_machine.travel(row.retry_at - timedelta(seconds=1), tick=False):
                deliver_due(app)
            assert len(receiver.received) == tries  # not before its back-off
            with time_machine.travel(row.retry_at + timedelta(seconds=0.5), tick=False):
                deliver_due(app)
            assert len(receiver.received) == tries + 1
        assert [r.status for r in receiver.received] == [500, 503, 204]
        assert len({r.headers["webhook-id"] for r in receiver.received}) == 1
    [done] = deliveries(app)
    assert done.delivered_at is not None and done.attempts == 3 and done.last_error is None
    listed = client.get("/v1/me/webhooks", headers=auth(ann)).json[0]
    assert listed["failures"] == 0 and listed["last_success_at"] and not listed["disabled_at"]
    log = client.get(f"/v1/me/webhooks/{hook['id']}/deliveries", headers=auth(ann)).json
    assert log["deliveries"][0]["state"] == "delivered"


def test_a_hook_is_disabled_only_once_a_delivery_failed_all_its_tries(sqlite_url):
    """Given WEBHOOK_MAX_ATTEMPTS=3, a receiver that always answers 500 and 20
    deliveries failing at once (60 failed tries in all), the hook stays enabled until
    one delivery has failed its third try; then it is disabled, the list says why,
    the other deliveries are given up and later events are not queued for it."""
    app = hook_app(
        sqlite_url,
        WEBHOOK_MAX_ATTEMPTS=3,
        WEBHOOK_RETRY_FIRST_SECONDS=0,
        WEBHOOK_RETRY_MAX_SECONDS=0,
        WEBHOOKS_IN_FLIGHT_PER_ACCOUNT=20,  # each round's sweep hands out all 20
    )
    client = app.test_client()
    with ReceiverServer() as receiver:
        receiver.default = 500
        ann = sign_in(client, app, "ann@example.org", "Ann")
        hook = register(client, ann, receiver.url, ["turn"])
        with app.app_context():
            account = db.session.scalar(sa.select(Webhook.account_id))
            uow = UnitOfWork()
            for n in range(20):
                webhooks.notify(uow, "turn", {"n": n}, [account])
            uow.commit()
        for round_ in range(2):
            deliver_due(app)
            listed = client.get("/v1/me/webhooks", headers=auth(ann)).json[0]
            assert listed["disabled_at"] is None and listed["failures"] == 20 * (round_ + 1)
        deliver_due(app)
        assert deliver_due(app) == 0
        assert len(receiver.received) == 2 * 20 + 1
    listed = client.get("/v1/me/webhooks", headers=auth(ann)).json[0]
    assert listed["disabled_at"] and listed["failures"] == 41
    assert "failed all its 3 tries" in listed["disabled_reason"]
    assert "HTTP 500" in listed["disabled_reason"]
    log = client.get(f"/v1/me/webhooks/{hook['id']}/deliveries", headers=auth(ann)).json
    assert [e["state"] for e in log["deliveries"]] == ["failed"] * 20
    assert log["deliveries"][-1]["attempts"] == 3 and log["deliveries"][-1]["last_status"] == 500
    with app.app_context():
        before = len(deliveries(app))
        uow = UnitOfWork()
        webhooks.notify(uow, "turn", {"later": True}, [account])
        uow.commit()
    assert len(deliveries(app)) == before


def test_a_delivery_given_up_after_a_later_one_succeeded_leaves_the_hook_enabled(sqlite_url):
    """Given WEBHOOK_MAX_ATTEMPTS=3 and two deliveries, the first always failing and
    the second delivered at its first try, the first is given up after three tries but
    the hook stays enabled: it worked since that delivery was written."""
    app = hook_app(
        sqlite_url,
        WEBHOOK_MAX_ATTEMPTS=3,
        WEBHOOK_RETRY_FIRST_SECONDS=0,
        WEBHOOK_RETRY_MAX_SECONDS=0,
    )
    client = app.test_client()
    with ReceiverServer() as receiver:
        receiver.plan, receiver.default = [500, 204], 500
        ann = sign_in(client, app, "ann@example.org", "Ann")
        register(client, ann, receiver.url, ["turn"])
        with app.app_context():
            account = db.session.scalar(sa.select(Webhook.account_id))
            for n in (1, 2):
                uow = UnitOfWork()
                webhooks.notify(uow, "turn", {"n": n}, [account])
                uow.commit()
        for _ in range(4):
            deliver_due(app)
        assert [r.status for r in receiver.received] == [500, 204, 500, 500]
    first, second = deliveries(app)
    assert first.given_up_at is not None and first.attempts == 3
    assert second.delivered_at is not None
    assert client.get("/v1/me/webhooks", headers=auth(ann)).json[0]["disabled_at"] is None


def test_a_delivery_is_given_up_after_its_last_try(sqlite_url):
    """Given WEBHOOK_MAX_ATTEMPTS=2 and a failing receiver, the delivery is given up
    after two tries, with the last error kept; the hook, which never worked since, is
    disabled."""
    app = hook_app(sqlite_url, WEBHOOK_MAX_ATTEMPTS=2, WEBHOOK_RETRY_FIRST_SECONDS=0)
    client = app.test_client()
    with ReceiverServer() as receiver:
        receiver.default = 502
        ann, _, game_id = two_players(client, app)
        register(client, ann, receiver.url, ["turn"])
        until_decision(client, app, game_id)
        for _ in range(4):
            deliver_due(app)
        assert len(receiver.received) == 2
    [row] = deliveries(app)
    assert row.given_up_at is not None and row.last_status == 502
    assert client.get("/v1/me/webhooks", headers=auth(ann)).json[0]["disabled_at"]


def test_410_gone_disables_the_hook_at_once_and_redirects_are_not_followed(sqlite_url):
    """Given a receiver answering 302, the delivery fails (no redirect followed: one
    POST); answering 410 Gone then disables the hook with that reason."""
    app = hook_app(sqlite_url, WEBHOOK_RETRY_FIRST_SECONDS=0)
    client = app.test_client()
    with ReceiverServer() as receiver:
        receiver.plan = [302, 410]
        ann, _, game_id = two_players(client, app)
        register(client, ann, receiver.url, ["turn"])
        until_decision(client, app, game_id)
        deliver_due(app)
        assert [r.path for r in receiver.received] == ["/"]
        assert deliveries(app)[0].last_status == 302
        deliver_due(app)
        assert len(receiver.received) == 2
    listed = client.get("/v1/me/webhooks", headers=auth(ann)).json[0]
    assert listed["disabled_at"] and "410 Gone" in listed["disabled_reason"]


def test_the_connection_refuses_an_address_no_longer_allowed(sqlite_url):
    """Given a hook registered while loopback was allowed, once the operator removes
    the allowance its deliveries connect to nothing: the receiver gets no POST and
    the log says the address was refused."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    with ReceiverServer() as receiver:
        ann, _, game_id = two_players(client, app)
        register(client, ann, receiver.url, ["turn"])
        until_decision(client, app, game_id)
        arbiter_settings.override(app, WEBHOOK_ALLOWED_NETWORKS="")
        deliver_due(app)
        assert receiver.received == []
    [row] = deliveries(app)
    assert row.delivered_at is None and "refused to connect to 127.0.0.1" in row.last_error


@pytest.mark.parametrize(
    "peer, allowed",
    sampled(
        [
            ("64:ff9b::7f00:1", False),
            ("2002:7f00:1::", False),
            ("64:ff9b::a00:1", False),
            ("::ffff:127.0.0.1", False),
            ("64:ff9b:1::5db8:d70e", False),
            ("::ffff:0:7f00:1", False),
            ("5f00::1", False),
            ("3fff::1", False),
            ("2606:4700::1111", True),
            ("64:ff9b::5db8:d70e", True),
            ("2002:5db8:d70e::", True),
            ("93.184.215.14", True),
        ],
        kind=lambda row: row[1],
    ),
)
def test_the_connection_check_applies_the_same_rule_to_embedded_ipv4(sqlite_url, peer, allowed):
    """Given no allowed networks, the check every delivery's connection makes on its
    peer (DNS rebinding) refuses an IPv6 peer that carries a loopback or private IPv4
    address through NAT64, 6to4 or mapping, and takes one that carries a public one."""
    from arbiter.hooks import webhook_urls

    class Peer:
        closed = False

        def getpeername(self):
            return (peer, 80)

        def close(self):
            self.closed = True

    app = make_app(sqlite_url, WEBHOOK_ALLOWED_NETWORKS="")
    sock = Peer()
    with app.app_context():
        if allowed:
            assert webhook_urls._checked(sock) is sock and not sock.closed
        else:
            with pytest.raises(webhook_urls.RefusedAddress):
                webhook_urls._checked(sock)
            assert sock.closed


def test_deleting_a_hook_stops_its_pending_deliveries(sqlite_url):
    """Given a delivery waiting for a hook that is then deleted, its next try gives it
    up without calling the URL."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    with ReceiverServer() as receiver:
        ann, _, game_id = two_players(client, app)
        hook = register(client, ann, receiver.url, ["turn"])
        until_decision(client, app, game_id)
        client.delete(f"/v1/me/webhooks/{hook['id']}", headers=auth(ann))
        deliver_due(app)
        assert receiver.received == []
    [row] = deliveries(app)
    assert row.given_up_at is not None


def test_anonymous_games_write_no_deliveries(sqlite_url):
    """Given games without accounts, playing one to the end queues no web hook."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    game_id, tokens = new_game(client)
    play_out(client, app, game_id, tokens)
    assert deliveries(app) == []


def test_a_disabled_hook_is_enabled_again_and_its_events_changed(sqlite_url):
    """Given a hook disabled after failures, PATCH enabled=true clears the disabling and
    the count, and it is told of events again; PATCH events changes what it gets;
    enabled=false disables it by its owner."""
    app = hook_app(sqlite_url, WEBHOOK_MAX_ATTEMPTS=1, WEBHOOK_RETRY_FIRST_SECONDS=0)
    client = app.test_client()
    with ReceiverServer() as receiver:
        receiver.plan = [500]
        ann, _, game_id = two_players(client, app)
        hook = register(client, ann, receiver.url, ["turn"])
        until_decision(client, app, game_id)
        deliver_due(app)
        path = f"/v1/me/webhooks/{hook['id']}"
        assert client.get("/v1/me/webhooks", headers=auth(ann)).json[0]["disabled_at"]
        again = client.patch(
            path, headers=auth(ann), json={"enabled": True, "events": ["game_over", "turn"]}
        )
        assert again.status_code == 200 and again.json["disabled_at"] is None
        assert again.json["failures"] == 0 and again.json["events"] == ["game_over", "turn"]
        with app.app_context():
            uow = UnitOfWork()
            webhooks.notify(
                uow,
                "turn",
                {"game": game_id, "again": True},
                [db.session.scalar(sa.select(Webhook.account_id))],
            )
            uow.commit()
        deliver_due(app)
        assert [r.status for r in receiver.received] == [500, 204]
    bad = client.patch(path, headers=auth(ann), json={"events": []})
    assert bad.status_code == 422 and bad.mimetype == "application/problem+json"
    off = client.patch(path, headers=auth(ann), json={"enabled": False}).json
    assert off["disabled_reason"] == "Disabled by its owner."


def test_deleting_the_account_deletes_its_hooks(sqlite_url):
    """Given an account with a hook, DELETE /v1/me removes the hook and its log."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    register(client, ann, "http://127.0.0.1:9/hook")
    assert client.delete("/v1/me", headers=auth(ann)).status_code == 204
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Webhook)) == 0
