"""Web hook receivers cannot hold the service up (issue 22, item 2): a delivery attempt
ends at ``WEBHOOK_DEADLINE_SECONDS`` however slowly its receiver answers (a byte every
so often never trips the per-read timeout), and an account has at most
``WEBHOOKS_IN_FLIGHT_PER_ACCOUNT`` deliveries in flight, while other accounts' go on.
Real receivers on loopback (:class:`tests.webhook_receiver.SlowReceiver`), real
threads trying deliveries at once as the ``hooks`` process's do."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.hooks import webhook_delivery, webhooks
from arbiter.models import Account, WebhookDelivery
from arbiter.uow import UnitOfWork
from tests.arbiter.hooks.test_webhooks import hook_app, register
from tests.helpers import sign_in
from tests.webhook_receiver import SlowReceiver

DEADLINE = 1.5
"""The tests' ``WEBHOOK_DEADLINE_SECONDS``: well under the per-read timeout (5 s) and
the receivers' drip (a byte every 0.5 s, so no read ever waits 5 s)."""


def account_with_hooks(client, app, urls: list[str]) -> str:
    """Sign up a new account, register a ``turn`` hook per URL; return its id."""
    email = f"hooks-{uuid.uuid4().hex[:10]}@example.org"
    token = sign_in(client, app, email)
    for url in urls:
        register(client, token, url, ["turn"])
    with app.app_context():
        return db.session.scalar(sa.select(Account.id).where(Account.email == email))


def turn_for(app, account_id: str) -> list[int]:
    """Notify one ``turn`` event to the account's hooks; return the deliveries written."""
    with app.app_context():
        uow = UnitOfWork()
        webhooks.notify(uow, "turn", {"game": uuid.uuid4().hex}, [account_id])
        ids = [row.id for task, row in uow._rows if task == webhooks.DELIVER]
        uow.commit()
        return ids


def attempt_in_thread(app, delivery_id: int, done: dict) -> threading.Thread:
    """Try a delivery in a thread of its own, as a ``hooks`` thread would; ``done``
    gets its id -> seconds taken."""

    def run() -> None:
        start = time.monotonic()
        with app.app_context():
            webhook_delivery.attempt(delivery_id)
        done[delivery_id] = time.monotonic() - start

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize(
    "kind",
    # each waits out the deadline: make check keeps the two a per-read timeout would not
    # end (a drip, a dripping TLS handshake); make test also runs the silent receiver
    ["drip", pytest.param("hang", marks=pytest.mark.slow), "tls"],
)
def test_an_attempt_ends_at_the_deadline_however_slowly_the_receiver_answers(sqlite_url, kind):
    """Given a receiver that answers one byte every 0.5 s and never ends (the status
    line, then an endless header), one that never answers, and one whose TLS handshake
    drips, with a per-read timeout of 5 s and WEBHOOK_DEADLINE_SECONDS=1.5: the attempt
    ends (the receiver sees its connection closed) at about 1.5 s, as a failed try
    whose error names the deadline, retried after its back-off."""
    app = hook_app(sqlite_url, WEBHOOK_DEADLINE_SECONDS=DEADLINE, WEBHOOK_TIMEOUT_SECONDS=5.0)
    client = app.test_client()
    with SlowReceiver(drip_seconds=0.5, tls=kind == "tls") as receiver:
        path = "tls/x" if kind == "tls" else f"{kind}/x/1"
        account = account_with_hooks(client, app, [receiver.url + path])
        [delivery_id] = turn_for(app, account)
        done: dict[int, float] = {}
        attempt_in_thread(app, delivery_id, done).join(timeout=DEADLINE + 6)
        assert delivery_id in done, "the attempt was still running 6 s after its deadline"
        assert DEADLINE - 0.1 <= done[delivery_id] <= DEADLINE + 2.0, done
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and receiver.of("/")[0].closed is None:
            time.sleep(0.05)
        [visit] = receiver.of("/")
        assert visit.closed is not None and visit.closed - visit.opened <= DEADLINE + 1.0
    with app.app_context():
        row = db.session.get(WebhookDelivery, delivery_id)
        assert row.delivered_at is None and row.attempts == 1 and row.given_up_at is None
        assert "within 1.5 s (the deadline)" in row.last_error
        assert row.retry_at is not None and row.lease_until is None


def test_an_accounts_deliveries_in_flight_never_exceed_the_bound(db_url):
    """Given WEBHOOKS_IN_FLIGHT_PER_ACCOUNT=2, an account with 6 hooks on a receiver
    that never answers and another account with one that answers at once, and 8
    threads trying all 7 deliveries at once: the receiver never holds more than 2 of
    the first account's connections at a time (it does hold 2), the other account's
    delivery arrives while they hang, the 4 that found no room are untouched (still
    due, no try counted), and the sweep hands out only as many as the account has room
    for."""
    app = hook_app(
        db_url,
        WEBHOOKS_IN_FLIGHT_PER_ACCOUNT=2,
        WEBHOOK_DEADLINE_SECONDS=DEADLINE,
        WEBHOOK_TIMEOUT_SECONDS=5.0,
    )
    client = app.test_client()
    with SlowReceiver() as receiver:
        noisy = account_with_hooks(client, app, [f"{receiver.url}hang/a/{i}" for i in range(6)])
        quiet = account_with_hooks(client, app, [f"{receiver.url}ok/b/1"])
        hanging = turn_for(app, noisy)
        [other] = turn_for(app, quiet)
        done: dict[int, float] = {}
        threads = [attempt_in_thread(app, d, done) for d in [*hanging, other]]
        for thread in threads:
            thread.join(timeout=DEADLINE + 10)
        assert len(done) == 7
        assert receiver.most_open["a"] == 2, receiver.most_open
        assert len(receiver.of("/hang/a/")) == 2
        [ok] = receiver.of("/ok/b/")
        assert ok.opened - min(v.opened for v in receiver.of("/hang/a/")) < DEADLINE
    with app.app_context():
        rows = {d: db.session.get(WebhookDelivery, d) for d in hanging}
        tried = [d for d, r in rows.items() if r.attempts == 1]
        waiting = [d for d, r in rows.items() if r.attempts == 0]
        assert len(tried) == 2 and len(waiting) == 4
        assert all(rows[d].retry_at is None and rows[d].lease_until is None for d in waiting)
        assert db.session.get(WebhookDelivery, other).delivered_at is not None
        swept = webhook_delivery.due(older_than_seconds=-1)
        assert len([d for d in swept if d in waiting]) == 2  # the account's room
        assert not [d for d in swept if d in tried]  # backing off


def test_no_transaction_is_held_while_a_receiver_answers(sqlite_url):
    """Given a delivery attempt waiting on a receiver that never answers (per-read
    timeout 5 s, deadline 3 s), on SQLite (one writer at a time): another write (a new
    account) commits at once meanwhile, not after the attempt."""
    app = hook_app(sqlite_url, WEBHOOK_DEADLINE_SECONDS=3.0, WEBHOOK_TIMEOUT_SECONDS=5.0)
    client = app.test_client()
    with SlowReceiver() as receiver:
        account = account_with_hooks(client, app, [receiver.url + "hang/x/1"])
        [delivery_id] = turn_for(app, account)
        done: dict[int, float] = {}
        thread = attempt_in_thread(app, delivery_id, done)
        until = time.monotonic() + 5
        while not receiver.of("/hang/") and time.monotonic() < until:
            time.sleep(0.02)
        assert receiver.of("/hang/"), "the attempt never reached the receiver"
        start = time.monotonic()
        sign_in(client, app, f"meanwhile-{uuid.uuid4().hex[:8]}@example.org")
        took = time.monotonic() - start
        assert delivery_id not in done  # the attempt was still waiting
        thread.join(timeout=10)
    assert took < 1.0, f"a write waited {took:.1f} s for the attempt"


def test_a_host_name_is_resolved_within_the_deadline_and_delivered_to(sqlite_url):
    """Given a hook naming a host, ``localhost`` (127.0.0.1, and ::1 where the hosts
    file says so: both allowed), on a receiver listening on 127.0.0.1: the delivery
    resolves the name (in a thread of its own, waited for within the deadline), tries
    its addresses in turn (one refusing the connection is passed over) and is
    delivered."""
    app = hook_app(sqlite_url, WEBHOOK_DEADLINE_SECONDS=DEADLINE)
    client = app.test_client()
    with SlowReceiver() as receiver:
        url = receiver.url.replace("127.0.0.1", "localhost") + "ok/n/1"
        account = account_with_hooks(client, app, [url])
        [delivery_id] = turn_for(app, account)
        with app.app_context():
            assert webhook_delivery.attempt(delivery_id) is None
        assert len(receiver.of("/ok/n/")) == 1
    with app.app_context():
        row = db.session.get(WebhookDelivery, delivery_id)
        assert row.delivered_at is not None and row.lease_until is None, row.last_error
