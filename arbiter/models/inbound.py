"""Inbound mail, stored raw before anything reads it (``arbiter.mailin``)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class InboundMail(db.Model):
    """One message received by SMTP, the pipe command or IMAP.

    ``message_id`` is unique (the message's own Message-ID, or one derived from the
    SHA-256 of its bytes when it has none), so a message delivered twice is stored and
    acted on once. ``status`` goes ``pending`` -> ``done`` (``claimed_at`` marks a
    processing in progress); ``outcome`` is a stable code (``answered``, ``ignored-auto``,
    ``refused-capability``, ``refused-sender`` ...) and ``detail`` a sentence.
    """

    __tablename__ = "inbound"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[str] = mapped_column(sa.String(400), unique=True)
    raw: Mapped[bytes] = mapped_column(sa.LargeBinary)
    rcpt: Mapped[str | None] = mapped_column(sa.String(1000), nullable=True)
    mail_from: Mapped[str | None] = mapped_column(sa.String(320), nullable=True)
    source: Mapped[str] = mapped_column(sa.String(16))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[str] = mapped_column(sa.String(16), default="pending", index=True)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    attempts: Mapped[int] = mapped_column(sa.Integer, default=0)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    outcome: Mapped[str | None] = mapped_column(sa.String(40), nullable=True)
    detail: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    game_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True, index=True)
    seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
