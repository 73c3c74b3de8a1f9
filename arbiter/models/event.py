"""The append-only game log."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class Event(db.Model):
    """One entry of a game's log; ``(game_id, seq)`` is the primary key.

    ``seq`` counts from 1 without gaps. Rows are never updated or deleted: database
    triggers refuse UPDATE and DELETE (see the initial migration). ``visible_to`` is
    ``None`` when every reader may see the payload, else the list of seats that may
    (until the game is over, when the whole log is public).
    """

    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(sa.String(32))
    seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    payload: Mapped[dict] = mapped_column(sa.JSON)
    visible_to: Mapped[list | None] = mapped_column(sa.JSON, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
