"""Stored first answers to POSTs that carried an ``Idempotency-Key``."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class IdempotentResponse(db.Model):
    """The first answer to a POST, keyed by ``(scope, key)``.

    ``scope`` names the route and the caller (for example
    ``moves:<game>:<token hash>``), so two callers can use the same key.
    ``request_hash`` is the SHA-256 of the request body: a retry with another body is
    refused. Written in the same transaction as the events the POST appended.
    """

    __tablename__ = "idempotency"

    scope: Mapped[str] = mapped_column(sa.String(200), primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(200), primary_key=True)
    request_hash: Mapped[str] = mapped_column(sa.String(64))
    status: Mapped[int] = mapped_column(sa.Integer)
    body: Mapped[dict] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
