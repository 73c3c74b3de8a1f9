"""Web hooks: an account's registered URLs, and the outbox of their deliveries.

A delivery is one HTTP POST of one event to one URL. Several accounts (or one account
twice) may register the same URL; an event that concerns several of them is still one
delivery to that URL, linked to every hook it serves (``webhook_recipients``) and signed
with each of their secrets (Standard Webhooks allows several signatures in one
``webhook-signature`` header).
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class Webhook(db.Model):
    """A URL an account wants events POSTed to.

    ``url`` is normalised (scheme and host lower-case, no default port, no fragment);
    ``events`` a list of ``turn``, ``game_over``, ``round_paired``, ``tournament_over``;
    ``secret`` the Standard Webhooks signing secret (``whsec_<base64>``) sealed with the
    service's ``SECRET_KEY`` (shown once, at creation); ``failures`` counts failed
    delivery attempts since the last success; ``disabled_at`` and ``disabled_reason``
    are set when a delivery it serves failed all its tries with no success since, or its
    receiver answered ``410 Gone`` (see ``arbiter.hooks.webhook_delivery``; a
    disabled hook gets nothing more).
    """

    __tablename__ = "webhooks"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(sa.ForeignKey("accounts.id"), index=True)
    url: Mapped[str] = mapped_column(sa.String(2000))
    events: Mapped[list] = mapped_column(sa.JSON)
    secret: Mapped[dict] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    failures: Mapped[int] = mapped_column(sa.Integer, default=0)
    last_success_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    disabled_reason: Mapped[str | None] = mapped_column(sa.Text, nullable=True)


class WebhookDelivery(db.Model):
    """One event to POST to one URL: the webhook outbox.

    ``message_id`` is the Standard Webhooks ``webhook-id`` (the same on every retry, so
    a receiver can drop copies); ``(message_id, url_hash)`` is unique, so an event
    reaches a URL at most once. ``body`` is the JSON text that is signed and sent.
    ``claimed_at`` is the last try's start and ``retry_at`` when it may be tried
    (again): the end of a try's lease, or of the back-off after a failure;
    ``lease_until`` is the end of the lease while a try is in flight, else NULL (what
    ``WEBHOOKS_IN_FLIGHT_PER_ACCOUNT`` counts, see ``arbiter.hooks.webhook_in_flight``);
    ``delivered_at`` is set on a 2xx answer; ``given_up_at`` when it will never be
    tried again (``last_error`` says why); ``last_status`` is the last HTTP status.
    """

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        sa.UniqueConstraint("message_id", "url_hash", name="uq_webhook_deliveries_message_url"),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[str] = mapped_column(sa.String(64))
    event: Mapped[str] = mapped_column(sa.String(32))
    url: Mapped[str] = mapped_column(sa.String(2000))
    url_hash: Mapped[str] = mapped_column(sa.String(64))
    body: Mapped[str] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    retry_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    attempts: Mapped[int] = mapped_column(sa.Integer, default=0)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    given_up_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_status: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    last_error: Mapped[str | None] = mapped_column(sa.Text, nullable=True)


class WebhookRecipient(db.Model):
    """A hook served by a delivery (its delivery log is these rows, newest first)."""

    __tablename__ = "webhook_recipients"

    webhook_id: Mapped[str] = mapped_column(
        sa.ForeignKey("webhooks.id", ondelete="CASCADE"), primary_key=True
    )
    delivery_id: Mapped[int] = mapped_column(
        sa.ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), primary_key=True, index=True
    )
