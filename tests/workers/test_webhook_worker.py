"""Web hooks delivered by a real Celery worker (issue 11, item 4): enqueued once the
event's transaction commits, retried by the task after its back-off, each event at
each URL exactly once, on SQLite with an in-memory broker and on PostgreSQL + Redis."""

from __future__ import annotations

import json
import time

import pytest
from standardwebhooks import Webhook as Verifier

from arbiter import queue
from tests.arbiter.hooks.test_webhooks import LOOPBACK, deliveries, register, two_players
from tests.conftest import REDIS_URL, make_app, need
from tests.helpers import auth
from tests.webhook_receiver import ReceiverServer


def broker_for(db_url: str) -> str:
    """The in-memory broker beside SQLite; Redis (``ARBITER_TEST_REDIS_URL``) beside
    PostgreSQL."""
    if db_url.startswith("sqlite"):
        return "memory://"
    return need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")


def worker_app(db_url: str, **config):
    celery_conf = {
        "broker_url": broker_for(db_url),
        "task_ignore_result": True,
        "imports": ("workers.tasks",),
        "broker_connection_retry_on_startup": True,
    }
    app = make_app(db_url, ENQUEUE=True, CELERY=celery_conf, **{**LOOPBACK, **config})
    app.extensions["celery"].conf.update(celery_conf)
    return app


@pytest.mark.parametrize("db_url", ["sqlite", "postgres"], indirect=True)
def test_a_real_worker_delivers_every_event_once_and_retries_a_failure(db_url):
    """Given a receiver that fails its first POST, and a worker serving the
    ``webhooks`` queue (as the Procfile's ``hooks`` does), a game between two accounts
    sharing one URL is played to the end with no test calling a task: the first event
    arrives on the task's retry, and every event arrives exactly once, signed for its
    accounts."""
    from celery.contrib.testing.worker import start_worker

    app = worker_app(db_url, WEBHOOK_RETRY_FIRST_SECONDS=0.5)
    client = app.test_client()
    celery_app = app.extensions["celery"]
    with (
        ReceiverServer() as receiver,
        start_worker(
            celery_app,
            pool="solo",
            perform_ping_check=False,
            shutdown_timeout=10,
            queues=[*queue.GAME_QUEUES, *queue.MAIL_QUEUES, *queue.HOOK_QUEUES],
        ),
    ):
        receiver.plan = [500]
        # the PostgreSQL schema is shared by the suite: count only this test's deliveries
        before = len(deliveries(app))
        ann, bob, game_id = two_players(client, app)
        ann_secret = register(client, ann, receiver.url)["secret"]
        bob_secret = register(client, bob, receiver.url)["secret"]
        tokens = {0: ann, 1: bob}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            s = client.get(f"/v1/games/{game_id}").json
            if s["status"] == "over":
                break
            if not s["to_act"]:
                time.sleep(0.05)
                continue
            seat = s["to_act"][0]
            legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
            moved = client.post(
                f"/v1/games/{game_id}/moves",
                headers=auth(tokens[seat]),
                json={"move": legal["moves"][0], "expected_version": legal["version"]},
            )
            assert moved.status_code in (201, 409), moved.json
        assert s["status"] == "over"
        # (accounts of the shared schema may hold earlier tests' hooks: count this URL's)
        written = len(mine(app, before, receiver.url))
        got = receiver.wait_for(written, seconds=60)
        time.sleep(1.0)  # nothing more may come
        got = receiver.ok()
    ids = [r.headers["webhook-id"] for r in got]
    assert len(ids) == len(set(ids)) == written
    first = receiver.received[0]
    assert first.status == 500
    again = [
        r for r in receiver.received[1:] if r.headers["webhook-id"] == first.headers["webhook-id"]
    ]
    assert [r.status for r in again] == [204] and again[0].at - first.at >= 0.5
    kinds = [json.loads(r.body)["type"] for r in got]
    assert kinds.count("game_over") == 1 and kinds.count("turn") == written - 1
    for r in got:
        Verifier(ann_secret).verify(r.body, r.headers)  # Ann made the game: told of all
        if json.loads(r.body)["type"] == "game_over":
            Verifier(bob_secret).verify(r.body, r.headers)
    assert all(d.delivered_at is not None for d in mine(app, before, receiver.url))


def mine(app, before: int, url: str) -> list:
    """The deliveries written after the first ``before`` rows to ``url`` (normalised)."""
    bare = url.lower().rstrip("/")
    return [d for d in deliveries(app)[before:] if d.url.lower().rstrip("/") == bare]


@pytest.mark.parametrize("db_url", ["sqlite", "postgres"], indirect=True)
def test_the_task_retries_past_celerys_default_of_3_until_the_delivery_is_given_up(db_url):
    """Given a receiver failing 6 POSTs then answering 204, WEBHOOK_MAX_ATTEMPTS=8 and
    no sweep running, the task's own retries (more than Celery's default
    ``max_retries`` of 3: no MaxRetriesExceededError) deliver it on the 7th try, and
    the hook stays enabled (no delivery was given up)."""
    import sqlalchemy as sa
    from celery.contrib.testing.worker import start_worker

    from arbiter.extensions import db
    from arbiter.hooks import webhooks
    from arbiter.models import Account
    from arbiter.uow import UnitOfWork
    from tests.helpers import sign_in

    app = worker_app(
        db_url,
        WEBHOOK_RETRY_FIRST_SECONDS=0.05,
        WEBHOOK_RETRY_MAX_SECONDS=0.1,
        WEBHOOK_MAX_ATTEMPTS=8,
    )
    client = app.test_client()
    celery_app = app.extensions["celery"]
    email = f"retry-{time.time_ns()}@example.org"
    with (
        ReceiverServer() as receiver,
        start_worker(
            celery_app,
            pool="solo",
            perform_ping_check=False,
            shutdown_timeout=10,
            queues=[*queue.HOOK_QUEUES],
        ),
    ):
        receiver.plan = [500] * 6
        token = sign_in(client, app, email)
        hook = register(client, token, receiver.url, ["turn"])
        with app.app_context():
            account = db.session.scalar(sa.select(Account.id).where(Account.email == email))
            uow = UnitOfWork()
            webhooks.notify(uow, "turn", {"retry": email}, [account])
            uow.commit()
        got = receiver.wait_for(1, seconds=60)
    assert [r.status for r in receiver.received] == [500] * 6 + [204]
    assert len({r.headers["webhook-id"] for r in got}) == 1
    listed = client.get("/v1/me/webhooks", headers=auth(token)).json[0]
    assert listed["id"] == hook["id"] and listed["disabled_at"] is None
    assert listed["failures"] == 0
