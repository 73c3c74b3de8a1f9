"""Who has a game open now: one row per seat with a live stream, until a short time
ahead (``until``), renewed while the stream stays open (:mod:`arbiter.games.presence`)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime


class Presence(db.Model):
    """Seat ``seat`` of ``game_id`` is connected (a game stream open) until ``until``."""

    __tablename__ = "presence"

    game_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    until: Mapped[datetime] = mapped_column(UTCDateTime)
