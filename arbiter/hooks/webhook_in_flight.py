"""Each account's web hook deliveries in flight, bounded by ``WEBHOOKS_IN_FLIGHT_PER_ACCOUNT``.

A delivery is in flight from its claim until its try ends (``lease_until`` set, and in
the future: a worker lost mid-try frees its place when the lease ends). It counts
against every account whose hooks it serves (usually one; several when their hooks
name the same URL). A delivery whose account already has the bound in flight is not
claimed: it stays due, and is enqueued again when one of that account's tries ends
(:func:`next_due`) or by the sweep (:func:`fair_due`). So one account's slow or hanging
receivers hold at most that many of the ``hooks`` process's threads, and every other
account's deliveries keep flowing.

Claims of one account are serialised so that two workers never both take its last
place: on PostgreSQL by a transaction-level advisory lock per account
(:func:`lock`), on SQLite by the database's single writer (the claim is a write).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime

import sqlalchemy as sa

from arbiter import settings
from arbiter.extensions import db
from arbiter.models import Webhook, WebhookDelivery, WebhookRecipient


def bound() -> int:
    """Return ``WEBHOOKS_IN_FLIGHT_PER_ACCOUNT`` (at least 1)."""
    return max(1, int(settings.current().hooks.in_flight_per_account))


def in_flight_now(now: datetime):
    """The SQL condition of a delivery in flight at ``now``."""
    return WebhookDelivery.lease_until > now


def accounts_of(delivery_id: int) -> list[str]:
    """Return the ids of the accounts whose hooks delivery ``delivery_id`` serves, sorted."""
    return sorted(
        db.session.scalars(
            sa.select(Webhook.account_id)
            .join(WebhookRecipient, WebhookRecipient.webhook_id == Webhook.id)
            .where(WebhookRecipient.delivery_id == delivery_id)
            .distinct()
        )
    )


def lock(accounts: Iterable[str]) -> None:
    """Serialise the claims of ``accounts`` until the transaction ends: on PostgreSQL a
    ``pg_advisory_xact_lock`` per account, taken in one order (no deadlock); nothing on
    SQLite, where the claim's write already excludes every other writer."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    keys = sorted({_key(a) for a in accounts})
    for key in keys:
        db.session.execute(sa.select(sa.func.pg_advisory_xact_lock(key)))


def _key(account_id: str) -> int:
    """Return a signed 64-bit advisory lock key for an account's web hook claims."""
    digest = hashlib.sha256(f"webhook-in-flight:{account_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def counts(accounts: Iterable[str], now: datetime) -> dict[str, int]:
    """Return ``{account id: deliveries in flight}`` for ``accounts`` (0s left out)."""
    wanted = list(accounts)
    if not wanted:
        return {}
    rows = db.session.execute(
        sa.select(Webhook.account_id, sa.func.count(sa.distinct(WebhookDelivery.id)))
        .join(WebhookRecipient, WebhookRecipient.webhook_id == Webhook.id)
        .join(WebhookDelivery, WebhookDelivery.id == WebhookRecipient.delivery_id)
        .where(Webhook.account_id.in_(wanted), in_flight_now(now))
        .group_by(Webhook.account_id)
    )
    return {account: count for account, count in rows}


def over(accounts: Iterable[str], now: datetime) -> list[str]:
    """Return the accounts among ``accounts`` with more than the bound in flight."""
    limit = bound()
    return [a for a, n in counts(accounts, now).items() if n > limit]


def _due_ranked(may_try, extra=()) -> sa.Select:
    """Deliveries that may be tried, each with an account it serves and its rank among
    that account's (oldest first); a delivery serving no hook any more has no account."""
    rank = (
        sa.func.row_number()
        .over(partition_by=Webhook.account_id, order_by=WebhookDelivery.id)
        .label("rank")
    )
    return (
        sa.select(WebhookDelivery.id.label("id"), Webhook.account_id.label("account"), rank)
        .outerjoin(WebhookRecipient, WebhookRecipient.delivery_id == WebhookDelivery.id)
        .outerjoin(Webhook, Webhook.id == WebhookRecipient.webhook_id)
        .where(may_try, *extra)
    )


def fair_due(may_try, extra, now: datetime, limit: int) -> list[int]:
    """Return ids of deliveries matching ``may_try`` and ``extra`` that their accounts
    have room for now: per account at most the bound minus its deliveries in flight,
    oldest first (so one account's backlog never hides another's), at most ``limit``
    in all, by id."""
    ranked = _due_ranked(may_try, extra).subquery()
    rows = db.session.execute(
        sa.select(ranked.c.id, ranked.c.account, ranked.c.rank)
        .where(ranked.c.rank <= bound())
        .order_by(ranked.c.id)
    ).all()
    busy = counts({r.account for r in rows if r.account is not None}, now)
    room: dict[int, bool] = {}
    for delivery_id, account, rank in rows:
        fits = account is None or rank <= bound() - busy.get(account, 0)
        room[delivery_id] = room.get(delivery_id, True) and fits
    return [d for d, fits in room.items() if fits][:limit]


def next_due(accounts: list[str], may_try, now: datetime) -> list[int]:
    """Return ids of the deliveries of ``accounts`` that may be tried now and fit in
    their room (see :func:`fair_due`): enqueued when one of their tries ends."""
    if not accounts:
        return []
    served = sa.select(WebhookRecipient.delivery_id).join(
        Webhook, Webhook.id == WebhookRecipient.webhook_id
    )
    mine = WebhookDelivery.id.in_(served.where(Webhook.account_id.in_(accounts)))
    return fair_due(may_try, (mine,), now, limit=bound() * len(accounts))
