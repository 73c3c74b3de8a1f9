"""Sending the web hook outbox: each delivery claimed, POSTed, signed, and marked, once.

A delivery is claimed with a conditional UPDATE (not delivered, not given up, its
``retry_at`` unset or passed) that moves ``retry_at`` and ``lease_until`` a lease ahead
(``WEBHOOK_CLAIM_SECONDS``, default 60, and always longer than the deadline), so two
workers never POST it at once; the claim is undone when an account it serves would
have more than ``WEBHOOKS_IN_FLIGHT_PER_ACCOUNT`` deliveries in flight
(:mod:`arbiter.hooks.webhook_in_flight`): it stays due, and is enqueued again when a
try of that account ends. A try takes at most ``WEBHOOK_DEADLINE_SECONDS`` (default 10)
in all, however slowly the receiver answers (:mod:`arbiter.hooks.webhook_deadline`);
only the status line and headers are read, never the body. The
POST carries the Standard Webhooks headers (``webhook-id``: the delivery's message id,
the same on every try; ``webhook-timestamp``: this try's time; ``webhook-signature``:
one ``v1,<base64>`` per hook served, signed by the ``standardwebhooks`` library over
``id.timestamp.body``). It follows no redirect and connects only to allowed addresses
(:mod:`arbiter.hooks.webhook_urls`).

A 2xx answer marks it delivered and clears its hooks' failure counts. Anything else (a
status, a timeout, the deadline, a refused address) is a failure: ``retry_at`` moves by a back-off
that starts at ``WEBHOOK_RETRY_FIRST_SECONDS`` (default 5) and doubles up to
``WEBHOOK_RETRY_MAX_SECONDS`` (default 3600); the delivery is given up after
``WEBHOOK_MAX_ATTEMPTS`` tries (default 10, the last about 43 min after the first).
Each failure counts against every hook it served (``failures``, shown; cleared by a
success). A hook is disabled, with the reason kept and shown, when its receiver
answers ``410 Gone``, or when a delivery it serves is given up after its last try and
no delivery to the hook has succeeded since that delivery was written: so only once
the whole retry schedule of one delivery failed, however many were in flight at once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import requests
import sqlalchemy as sa
from standardwebhooks import Webhook as Signer

from arbiter import queue, settings
from arbiter.extensions import db
from arbiter.hooks import webhook_deadline, webhook_in_flight, webhook_urls, webhooks
from arbiter.models import Webhook, WebhookDelivery, WebhookRecipient
from arbiter.models.timestamps import utcnow

log = logging.getLogger(__name__)

USER_AGENT = "Arbiter-Webhooks/1"

EARLY = timedelta(seconds=1)
"""A claim may start a retry this much before its ``retry_at``: a task's countdown
may fire a little early, and a retry it then skipped would wait for the sweep."""


def backoff(attempts: int) -> float:
    """Return the seconds to wait after the ``attempts``-th failed try (1, 2, ...):
    ``WEBHOOK_RETRY_FIRST_SECONDS`` doubled per try, at most ``WEBHOOK_RETRY_MAX_SECONDS``."""
    first, cap = (
        settings.current().hooks.retry_first_seconds,
        settings.current().hooks.retry_max_seconds,
    )
    return min(cap, first * 2 ** max(0, min(attempts, 32) - 1))


def _may_try(now: datetime):
    return sa.and_(
        WebhookDelivery.delivered_at.is_(None),
        WebhookDelivery.given_up_at.is_(None),
        sa.or_(WebhookDelivery.retry_at.is_(None), WebhookDelivery.retry_at <= now),
    )


def lease_seconds() -> float:
    """Return how long a claim holds a delivery: ``WEBHOOK_CLAIM_SECONDS``, and at
    least 30 s more than ``WEBHOOK_DEADLINE_SECONDS`` (a try ends before its lease)."""
    return max(
        settings.current().hooks.claim_seconds, settings.current().hooks.deadline_seconds + 30
    )


def claim(delivery_id: int, accounts: list[str] | None = None):
    """Claim a delivery for one try; return its row (``id``, ``message_id``, ``url``,
    ``body``, ``attempts``, ``created_at``), or None if delivered, given up, in flight,
    backing off (for more than ``EARLY``), or an account it serves already has
    ``WEBHOOKS_IN_FLIGHT_PER_ACCOUNT`` deliveries in flight (then nothing is changed:
    it stays due). ``accounts``: the accounts it serves, if already looked up."""
    if accounts is None:
        accounts = webhook_in_flight.accounts_of(delivery_id)
    webhook_in_flight.lock(accounts)
    now = utcnow()
    lease = now + timedelta(seconds=lease_seconds())
    row = db.session.execute(
        sa.update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id, _may_try(now + EARLY))
        .values(
            claimed_at=now,
            retry_at=lease,
            lease_until=lease,
            attempts=WebhookDelivery.attempts + 1,
        )
        .returning(
            WebhookDelivery.id,
            WebhookDelivery.message_id,
            WebhookDelivery.url,
            WebhookDelivery.body,
            WebhookDelivery.attempts,
            WebhookDelivery.created_at,
        )
        .execution_options(synchronize_session=False)
    ).first()
    if row is not None and webhook_in_flight.over(accounts, now):
        db.session.rollback()  # its turn comes when one of theirs ends
        log.debug("web hook delivery %s waits: its account has its deliveries in flight", row.id)
        return None
    db.session.commit()
    return row


def hooks_served(delivery_id: int) -> list[Webhook]:
    """Return the hooks a delivery serves that are not disabled (deleted ones are gone)."""
    return list(
        db.session.scalars(
            sa.select(Webhook)
            .join(WebhookRecipient, WebhookRecipient.webhook_id == Webhook.id)
            .where(WebhookRecipient.delivery_id == delivery_id, Webhook.disabled_at.is_(None))
            .order_by(Webhook.id)
        )
    )


def signed_headers(message_id: str, body: str, secrets: list[str], at: datetime) -> dict[str, str]:
    """Return the Standard Webhooks headers of a try at ``at`` (UTC): one signature per
    secret, space-separated, as the specification allows."""
    signatures = " ".join(Signer(s).sign(message_id, at, body) for s in secrets)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signatures,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }


def attempt(delivery_id: int) -> float | None:
    """Try delivery ``delivery_id`` once if it may be tried now; return the seconds
    until its next try when this one failed and it will be retried, else None
    (delivered, given up, or not ours to try now). When a try ends, the deliveries of
    its accounts that were waiting for room are enqueued (:func:`wake_waiting`)."""
    accounts = webhook_in_flight.accounts_of(delivery_id)
    row = claim(delivery_id, accounts)
    if row is None:
        return None
    try:
        return _try(delivery_id, row)
    finally:
        wake_waiting(accounts)


def _try(delivery_id: int, row) -> float | None:
    hooks = hooks_served(delivery_id)
    if not hooks:
        _update(
            delivery_id,
            {
                "given_up_at": utcnow(),
                "lease_until": None,
                "last_error": "no web hook left to serve (deleted or disabled)",
            },
        )
        return None
    now = utcnow()
    headers = signed_headers(row.message_id, row.body, [webhooks.secret_of(h) for h in hooks], now)
    for hook in hooks:  # kept as read: no transaction (nor SQLite's write lock) is held
        db.session.expunge(hook)  # while the receiver answers
    db.session.commit()
    status, error = post(row.url, row.body, headers)
    if status is not None and 200 <= status < 300:
        _delivered(delivery_id, hooks, status)
        return None
    return _failed(delivery_id, row.url, hooks, row.attempts, row.created_at, status, error)


def wake_waiting(accounts: list[str]) -> int:
    """Enqueue the deliveries of ``accounts`` that may be tried now and have room in
    their accounts' bound; return how many (a delivery already queued is claimed once)."""
    try:
        ids = webhook_in_flight.next_due(accounts, _may_try(utcnow()), utcnow())
        db.session.commit()
    except Exception:  # noqa: BLE001 - the sweep enqueues them in any case
        db.session.rollback()
        log.warning("could not look up waiting web hook deliveries", exc_info=True)
        return 0
    for waiting in ids:
        queue.enqueue(webhooks.DELIVER, waiting)
    return len(ids)


def post(url: str, body: str, headers: dict[str, str]) -> tuple[int | None, str | None]:
    """POST ``body`` to ``url`` within ``WEBHOOK_DEADLINE_SECONDS``; return ``(HTTP
    status or None, error text or None)``. Only the status line and headers are read;
    redirects are not followed; a URL no longer allowed is not called."""
    seconds = settings.current().hooks.deadline_seconds
    per_step = min(settings.current().hooks.timeout_seconds, seconds)
    try:
        webhook_urls.normalise(url)  # https only, unless the operator allows http
        with webhook_urls.session() as http, webhook_deadline.Deadline(seconds) as deadline:
            try:
                answer = http.post(
                    url,
                    data=body.encode(),
                    headers=headers,
                    allow_redirects=False,
                    timeout=per_step,
                    stream=True,  # the status is the answer: its body is not read
                )
                answer.close()
            except requests.RequestException as err:
                if deadline.ran_out():
                    return None, f"no complete answer within {seconds:g} s (the deadline)"
                return None, _reason(err)
    except requests.RequestException as err:
        return None, _reason(err)
    except Exception as err:  # noqa: BLE001 - Unprocessable (URL no longer allowed)
        return None, f"{type(err).__name__}: {getattr(err, 'detail', err)}"[:500]
    if 200 <= answer.status_code < 300:
        return answer.status_code, None
    return answer.status_code, f"HTTP {answer.status_code} {answer.reason or ''}".strip()[:500]


def _reason(err: Exception) -> str:
    """Return the innermost cause of a requests error, as one short line."""
    cause: BaseException = err
    while cause.__context__ is not None and not isinstance(cause, webhook_urls.RefusedAddress):
        cause = cause.__context__
    return f"{type(cause).__name__}: {cause}"[:500]


def _delivered(delivery_id: int, hooks: list[Webhook], status: int) -> None:
    now = utcnow()
    db.session.execute(
        sa.update(Webhook)
        .where(Webhook.id.in_([h.id for h in hooks]))
        .values(failures=0, last_success_at=now)
        .execution_options(synchronize_session=False)
    )
    _update(
        delivery_id,
        {
            "delivered_at": now,
            "last_status": status,
            "last_error": None,
            "retry_at": None,
            "lease_until": None,
        },
    )


def _failed(
    delivery_id: int,
    url: str,
    hooks: list[Webhook],
    attempts: int,
    created_at: datetime,
    status: int | None,
    error: str | None,
) -> float | None:
    """Record a failed try against the delivery and its hooks; return the wait before
    the next try, or None when the delivery is given up (its last try, or every hook
    it served disabled). A given-up delivery disables each hook it served that has
    had no success since ``created_at`` (when the delivery was written)."""
    now = utcnow()
    wait = backoff(attempts)
    values = {
        "last_status": status,
        "last_error": error,
        "retry_at": now + timedelta(seconds=wait),
        "lease_until": None,
    }
    exhausted = attempts >= settings.current().hooks.max_attempts
    if exhausted:
        values["given_up_at"] = now
    disabled = 0
    for hook in hooks:
        change = {"failures": Webhook.failures + 1}
        failing = hook.last_success_at is None or hook.last_success_at < created_at
        if status == 410 or (exhausted and failing):
            why = (
                "the receiver answered 410 Gone"
                if status == 410
                else f"a delivery failed all its {attempts} tries and nothing was "
                "delivered since it was written"
            )
            change.update(disabled_at=now, disabled_reason=f"Disabled: {why}; last: {error}")
            disabled += 1
        db.session.execute(
            sa.update(Webhook)
            .where(Webhook.id == hook.id)
            .values(**change)
            .execution_options(synchronize_session=False)
        )
    if disabled == len(hooks):  # nobody left to serve
        values["given_up_at"] = now
    _update(delivery_id, values)
    log.warning(
        "web hook delivery %s to %s failed (try %s): %s%s",
        delivery_id,
        url,
        attempts,
        error,
        "; given up" if "given_up_at" in values else "",
    )
    return None if "given_up_at" in values else wait


def _update(delivery_id: int, values: dict) -> None:
    """Set columns of one delivery and commit (with whatever else is pending)."""
    db.session.execute(
        sa.update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()


def due(older_than_seconds: float = 10.0, limit: int = 500) -> list[int]:
    """Return ids of deliveries that may be tried now and were written (or became due)
    more than ``older_than_seconds`` ago: missed enqueues, lost workers, retries whose
    wait was too long for a task countdown, deliveries that waited for room in their
    account's bound. Oldest first, per account no more than it has room for
    (:func:`arbiter.hooks.webhook_in_flight.fair_due`: one account's backlog never
    hides another's)."""
    now = utcnow()
    cutoff = now - timedelta(seconds=older_than_seconds)
    old_enough = (
        WebhookDelivery.created_at < cutoff,
        sa.or_(WebhookDelivery.retry_at.is_(None), WebhookDelivery.retry_at < cutoff),
    )
    return webhook_in_flight.fair_due(_may_try(now), old_enough, now, limit)
