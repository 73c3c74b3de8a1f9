"""Outgoing mail, written in the same transaction as the event that caused it."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class OutboxMail(db.Model):
    """One mail to send. ``dedupe_key`` is unique, so a mail is queued at most once
    (``turn:<game>:<prompt seq>:<seat>``, ``over:<game>:<seat>``, ``answer:<inbound id>``);
    ``sent_at`` is set once the SMTP server accepted its data; ``claimed_at`` is the last
    try's start; ``retry_at`` is when it may be tried (again): the end of a send's
    lease, or of the back-off after a failure; ``given_up_at`` is set when it will never
    be tried again (a permanent refusal, or too old)."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    dedupe_key: Mapped[str] = mapped_column(sa.String(200), unique=True)
    game_id: Mapped[str | None] = mapped_column(sa.String(32), index=True, nullable=True)
    seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    to_addr: Mapped[str] = mapped_column(sa.String(254), index=True)
    subject: Mapped[str] = mapped_column(sa.String(300))
    body: Mapped[str] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    attempts: Mapped[int] = mapped_column(sa.Integer, default=0)
    retry_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    given_up_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_error: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    headers: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    """Extra headers (``Reply-To``, ``In-Reply-To``, ``References``, ``Auto-Submitted``)."""
    board_svg: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    """The board picture to attach, as SVG (rendered to PNG when the mail is sent)."""
    board_png: Mapped[bytes | None] = mapped_column(sa.LargeBinary, nullable=True)
    """The PNG rendered from ``board_svg`` by a try that failed, kept for the next try
    (a backlog after an SMTP outage is sent without rendering again); cleared once the
    mail is sent."""
