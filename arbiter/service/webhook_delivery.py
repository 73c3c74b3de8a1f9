"""Sending the web hook outbox: each delivery claimed, POSTed, signed, and marked, once.

A delivery is claimed with a conditional UPDATE (not delivered, not given up, its
``retry_at`` unset or passed) that moves ``retry_at`` a lease ahead
(``WEBHOOK_CLAIM_SECONDS``, default 60), so two workers never POST it at once. The
POST carries the Standard Webhooks headers (``webhook-id``: the delivery's message id,
the same on every try; ``webhook-timestamp``: this try's time; ``webhook-signature``:
one ``v1,<base64>`` per hook served, signed by the ``standardwebhooks`` library over
``id.timestamp.body``). It follows no redirect and connects only to allowed addresses
(:mod:`arbiter.service.webhook_urls`).

A 2xx answer marks it delivered and clears its hooks' failure counts. Anything else (a
status, a timeout, a refused address) is a failure: ``retry_at`` moves by a back-off
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
from flask import current_app
from standardwebhooks import Webhook as Signer

from arbiter.extensions import db
from arbiter.models import Webhook, WebhookDelivery, WebhookRecipient
from arbiter.models.timestamps import utcnow
from arbiter.service import webhook_urls, webhooks

log = logging.getLogger(__name__)

USER_AGENT = "Arbiter-Webhooks/1"

EARLY = timedelta(seconds=1)
"""A claim may start a retry this much before its ``retry_at``: a task's countdown
may fire a little early, and a retry it then skipped would wait for the sweep."""


def _setting(name: str) -> float:
    return float(current_app.config[name])


def backoff(attempts: int) -> float:
    """Return the seconds to wait after the ``attempts``-th failed try (1, 2, ...):
    ``WEBHOOK_RETRY_FIRST_SECONDS`` doubled per try, at most ``WEBHOOK_RETRY_MAX_SECONDS``."""
    first, cap = _setting("WEBHOOK_RETRY_FIRST_SECONDS"), _setting("WEBHOOK_RETRY_MAX_SECONDS")
    return min(cap, first * 2 ** max(0, min(attempts, 32) - 1))


def _may_try(now: datetime):
    return sa.and_(
        WebhookDelivery.delivered_at.is_(None),
        WebhookDelivery.given_up_at.is_(None),
        sa.or_(WebhookDelivery.retry_at.is_(None), WebhookDelivery.retry_at <= now),
    )


def claim(delivery_id: int):
    """Claim a delivery for one try; return its row (``id``, ``message_id``, ``url``,
    ``body``, ``attempts``, ``created_at``), or None if delivered, given up, in flight or backing
    off
    (for more than ``EARLY``)."""
    now = utcnow()
    lease = now + timedelta(seconds=_setting("WEBHOOK_CLAIM_SECONDS"))
    row = db.session.execute(
        sa.update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id, _may_try(now + EARLY))
        .values(claimed_at=now, retry_at=lease, attempts=WebhookDelivery.attempts + 1)
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
    (delivered, given up, or not ours to try)."""
    row = claim(delivery_id)
    if row is None:
        return None
    hooks = hooks_served(delivery_id)
    if not hooks:
        _update(
            delivery_id,
            {
                "given_up_at": utcnow(),
                "last_error": "no web hook left to serve (deleted or disabled)",
            },
        )
        return None
    now = utcnow()
    headers = signed_headers(row.message_id, row.body, [webhooks.secret_of(h) for h in hooks], now)
    status, error = post(row.url, row.body, headers)
    if status is not None and 200 <= status < 300:
        _delivered(delivery_id, hooks, status)
        return None
    return _failed(delivery_id, row.url, hooks, row.attempts, row.created_at, status, error)


def post(url: str, body: str, headers: dict[str, str]) -> tuple[int | None, str | None]:
    """POST ``body`` to ``url``; return ``(HTTP status or None, error text or None)``.
    Redirects are not followed; a URL no longer allowed is not called."""
    try:
        webhook_urls.normalise(url)  # https only, unless the operator allows http
        with webhook_urls.session() as http:
            answer = http.post(
                url,
                data=body.encode(),
                headers=headers,
                allow_redirects=False,
                timeout=_setting("WEBHOOK_TIMEOUT_SECONDS"),
            )
            answer.close()
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
        {"delivered_at": now, "last_status": status, "last_error": None, "retry_at": None},
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
    values = {"last_status": status, "last_error": error, "retry_at": now + timedelta(seconds=wait)}
    exhausted = attempts >= int(_setting("WEBHOOK_MAX_ATTEMPTS"))
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
    wait was too long for a task countdown. Oldest first."""
    now = utcnow()
    cutoff = now - timedelta(seconds=older_than_seconds)
    return list(
        db.session.scalars(
            sa.select(WebhookDelivery.id)
            .where(
                _may_try(now),
                WebhookDelivery.created_at < cutoff,
                sa.or_(WebhookDelivery.retry_at.is_(None), WebhookDelivery.retry_at < cutoff),
            )
            .order_by(WebhookDelivery.id)
            .limit(limit)
        )
    )
