"""Web hooks: an account registers URLs for events; an event writes its deliveries to
the web hook outbox in the transaction that records it (:func:`notify`).

Events (``EVENTS``): ``turn`` (a new prompt waits for a seat of the account),
``game_over``, ``round_paired`` and ``tournament_over`` (tournaments). A delivery's
body follows the Standard Webhooks payload shape, ``{"type", "timestamp", "data"}``,
and is sent by :mod:`arbiter.hooks.webhook_delivery` with the ``webhook-id``,
``webhook-timestamp`` and ``webhook-signature`` headers (the ``standardwebhooks``
library). An event reaches each URL once, however many hooks of the accounts
concerned name it; the delivery is signed with each of those hooks' secrets.

An account's hooks are made, changed and deleted through a
:class:`~arbiter.uow.UnitOfWork` (:func:`create`, :func:`update`, :func:`delete`);
their signing secrets are sealed at rest (:mod:`arbiter.sealing`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import Session

from arbiter import sealing
from arbiter.errors import NotFound, Unprocessable
from arbiter.hooks import webhook_urls
from arbiter.models import Account, Webhook, WebhookDelivery, WebhookRecipient
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import UnitOfWork

EVENTS = ("turn", "game_over", "round_paired", "tournament_over")
"""The events a hook may ask for."""

DELIVER = "workers.tasks.deliver_webhook"
"""The delivery task (on the ``webhooks`` queue, served by the Procfile's ``hooks``)."""

SEAL_SCOPE = "webhook-secret"

CACHE_KEY = "arbiter_webhook_hooks"
"""Where a unit of work keeps, for its transaction, the hooks of the accounts it asked for."""


# --------------------------------------------------------------------------- events


def notify(uow: UnitOfWork, event: str, payload: dict, account_ids: Iterable[str]) -> None:
    """Write the deliveries of one event to the web hook outbox, in ``uow``'s
    transaction (the caller commits ``uow``; once it has, the deliveries are enqueued).

    :param event: one of ``EVENTS``.
    :param payload: the event's JSON data (the body's ``data``); an event is known by
        ``event`` and ``payload``, so notifying the same one twice writes nothing new.
    :param account_ids: the accounts concerned (``accounts.id``); each of their hooks
        that wants ``event`` and is not disabled gets it, one delivery per URL.
    :raises ValueError: ``event`` is not one of ``EVENTS``.
    """
    if event not in EVENTS:
        raise ValueError(f"unknown web hook event {event!r}")
    accounts = sorted({str(a) for a in account_ids if a is not None})
    if not accounts:
        return
    session = uow.session
    hooks = _wanting(uow, event, tuple(accounts))
    if not hooks:
        return
    message_id = message_id_of(event, payload)
    body = json.dumps(
        {"type": event, "timestamp": iso(utcnow()), "data": payload},
        separators=(",", ":"),
        sort_keys=True,
    )
    by_url: dict[str, list[str]] = {}
    for hook_id, url in hooks:
        by_url.setdefault(url, []).append(hook_id)
    sent = set(
        session.scalars(
            sa.select(WebhookDelivery.url_hash).where(WebhookDelivery.message_id == message_id)
        )
    )
    new = []
    for url, url_hooks in by_url.items():
        if url_hash(url) in sent:
            continue
        delivery = WebhookDelivery(
            message_id=message_id,
            event=event,
            url=url,
            url_hash=url_hash(url),
            body=body,
            attempts=0,
            created_at=utcnow(),
        )
        session.add(delivery)
        new.append((delivery, url_hooks))
    if not new:
        return
    session.flush()
    session.add_all(
        [
            WebhookRecipient(webhook_id=hook_id, delivery_id=d.id)
            for d, url_hooks in new
            for hook_id in url_hooks
        ]
    )
    session.flush()
    for delivery, _ in new:
        uow.enqueue_row(DELIVER, delivery)


def _wanting(uow: UnitOfWork, event: str, accounts: tuple[str, ...]) -> list[tuple[str, str]]:
    """Return ``(hook id, url)`` of the accounts' enabled hooks that want ``event``,
    read once per transaction for the same accounts (a batch of games by one creator
    asks once)."""
    cache = uow.memo.setdefault(CACHE_KEY, {})
    if accounts not in cache:
        cache[accounts] = [
            (h.id, h.url, list(h.events))
            for h in uow.session.scalars(
                sa.select(Webhook)
                .where(Webhook.account_id.in_(accounts), Webhook.disabled_at.is_(None))
                .order_by(Webhook.id)
            )
        ]
    return [(hook_id, url) for hook_id, url, events in cache[accounts] if event in events]


def message_id_of(event: str, payload: dict) -> str:
    """Return the ``webhook-id`` of an event: ``msg_`` and 32 hex digits of the SHA-256
    of the event name and its payload in canonical JSON."""
    text = json.dumps([event, payload], sort_keys=True, separators=(",", ":"), default=str)
    return "msg_" + hashlib.sha256(text.encode()).hexdigest()[:32]


def url_hash(url: str) -> str:
    """Return the SHA-256 hex of a normalised URL (the deliveries' unique key)."""
    return hashlib.sha256(url.encode()).hexdigest()


# --------------------------------------------------------------------------- the hooks


@dataclass(frozen=True)
class HookCreated:
    """The result of :func:`create`: the hook and its signing secret in clear
    (``whsec_`` + base64 of 32 random bytes), shown this once."""

    hook: Webhook
    secret: str


def create(uow: UnitOfWork, account: Account, url: str, events: list[str]) -> HookCreated:
    """Register a hook of ``account`` for ``events`` at ``url`` (checked by
    :func:`arbiter.hooks.webhook_urls.check`); return it and its signing secret, which
    is shown this once. Commits ``uow``.

    :raises Unprocessable: a refused URL (see ``check``), ``webhook-events-invalid``,
        or ``too-many-webhooks`` past ``WEBHOOKS_PER_ACCOUNT``.
    """
    clean = webhook_urls.check(url)
    wanted = _events(events)
    limit = int(current_app.config["WEBHOOKS_PER_ACCOUNT"])
    count = uow.session.scalar(
        sa.select(sa.func.count()).select_from(Webhook).where(Webhook.account_id == account.id)
    )
    if count >= limit:
        raise Unprocessable(
            f"An account may have at most {limit} web hooks; delete one first.",
            code="too-many-webhooks",
        )
    hook_id = "wh_" + secrets.token_hex(8)
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    hook = Webhook(
        id=hook_id,
        account_id=account.id,
        url=clean,
        events=wanted,
        secret=sealing.seal(SEAL_SCOPE, hook_id, {"secret": secret}),
        created_at=utcnow(),
        failures=0,
    )
    uow.session.add(hook)
    uow.commit()
    return HookCreated(hook, secret)


def secret_of(hook: Webhook) -> str:
    """Return a hook's signing secret (unsealed).

    :raises arbiter.sealing.Unsealable: ``SECRET_KEY`` changed since it was sealed.
    """
    return sealing.unseal(SEAL_SCOPE, hook.id, hook.secret)["secret"]


def hooks_of(session: Session, account: Account) -> list[Webhook]:
    """Return the account's hooks, oldest first."""
    return list(
        session.scalars(
            sa.select(Webhook)
            .where(Webhook.account_id == account.id)
            .order_by(Webhook.created_at, Webhook.id)
        )
    )


def hook_of(session: Session, account: Account, hook_id: str) -> Webhook:
    """Return one of the account's hooks.

    :raises NotFound: ``no-such-webhook`` (also for another account's hook).
    """
    hook = session.get(Webhook, hook_id)
    if hook is None or hook.account_id != account.id:
        raise NotFound("You have no web hook with this id.", code="no-such-webhook")
    return hook


def delete(uow: UnitOfWork, account: Account, hook_id: str) -> None:
    """Delete one of the account's hooks and its delivery log; deliveries still waiting
    are no longer signed for it (one left with no hook is given up). Commits ``uow``.

    :raises NotFound: see :func:`hook_of`.
    """
    hook = hook_of(uow.session, account, hook_id)
    uow.session.execute(sa.delete(WebhookRecipient).where(WebhookRecipient.webhook_id == hook.id))
    uow.session.delete(hook)
    uow.commit()


def update(
    uow: UnitOfWork,
    account: Account,
    hook_id: str,
    events: list[str] | None = None,
    enabled: bool | None = None,
) -> Webhook:
    """Change one of the account's hooks: its ``events``, or ``enabled`` (True clears
    a disabling and the failure count, False disables it by its owner). Commits
    ``uow``; returns the hook.

    :raises NotFound: see :func:`hook_of`; :raises Unprocessable:
        ``webhook-events-invalid``.
    """
    hook = hook_of(uow.session, account, hook_id)
    if events is not None:
        hook.events = _events(events)
    if enabled is True:
        hook.disabled_at, hook.disabled_reason, hook.failures = None, None, 0
    elif enabled is False and hook.disabled_at is None:
        hook.disabled_at, hook.disabled_reason = utcnow(), "Disabled by its owner."
    uow.commit()
    return hook


def delete_all(session: Session, account: Account) -> None:
    """Delete every hook of the account and its delivery log (account deletion; the
    caller commits)."""
    ids = [h.id for h in hooks_of(session, account)]
    if ids:
        session.execute(sa.delete(WebhookRecipient).where(WebhookRecipient.webhook_id.in_(ids)))
        session.execute(sa.delete(Webhook).where(Webhook.id.in_(ids)))


def _events(events: list[str]) -> list[str]:
    """Return the events sorted, without repeats.

    :raises Unprocessable: ``webhook-events-invalid`` (none, or an unknown one).
    """
    wanted = sorted(set(events))
    if not wanted or any(e not in EVENTS for e in wanted):
        raise Unprocessable(
            "Choose at least one event of " + ", ".join(EVENTS) + ".", code="webhook-events-invalid"
        )
    return wanted


def hook_json(hook: Webhook, secret: str | None = None) -> dict:
    """Return a hook as the API shows it (``secret`` only when just created)."""
    out = {
        "id": hook.id,
        "url": hook.url,
        "events": list(hook.events),
        "created_at": iso(hook.created_at),
        "failures": hook.failures,
        "last_success_at": iso(hook.last_success_at),
        "disabled_at": iso(hook.disabled_at),
        "disabled_reason": hook.disabled_reason,
    }
    if secret is not None:
        out["secret"] = secret
    return out


def deliveries_of(session: Session, account: Account, hook_id: str, limit: int = 100) -> list[dict]:
    """Return the delivery log of one of the account's hooks, newest first (at most
    ``limit``): each delivery's event, ``webhook-id``, state (``pending``,
    ``delivered``, ``failed``), tries, last HTTP status and error, next try.

    :raises NotFound: see :func:`hook_of`.
    """
    hook = hook_of(session, account, hook_id)
    rows = session.scalars(
        sa.select(WebhookDelivery)
        .join(WebhookRecipient, WebhookRecipient.delivery_id == WebhookDelivery.id)
        .where(WebhookRecipient.webhook_id == hook.id)
        .order_by(WebhookDelivery.id.desc())
        .limit(limit)
    )
    return [delivery_json(d) for d in rows]


def delivery_json(d: WebhookDelivery) -> dict:
    """Return a delivery as the log shows it."""
    state = "delivered" if d.delivered_at else "failed" if d.given_up_at else "pending"
    return {
        "id": d.id,
        "message_id": d.message_id,
        "event": d.event,
        "url": d.url,
        "state": state,
        "created_at": iso(d.created_at),
        "attempts": d.attempts,
        "delivered_at": iso(d.delivered_at),
        "given_up_at": iso(d.given_up_at),
        "next_try_at": iso(d.retry_at) if state == "pending" else None,
        "last_status": d.last_status,
        "last_error": d.last_error,
        "payload": json.loads(d.body)["data"],
    }
