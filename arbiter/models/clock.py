"""The clock's own bookkeeping: reminders sent, the sweep's heartbeat, outages seen.

A game's deadlines themselves live on the game row (``games.deadline``,
``games.clock_state``) and only change through the event store; these tables hold
what the sweep needs to act exactly once.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class ClockReminder(db.Model):
    """A reminder given: one row per ``(game, prompt, seat, threshold)``, so a seat is
    reminded at most once per threshold per prompt (the primary key refuses a second).

    ``prompt_seq`` is the game version at which the prompt began; ``threshold`` is in
    seconds before the deadline; ``mail_id`` is the outbox mail that carried it (None
    when the seat has no email address).
    """

    __tablename__ = "clock_reminders"

    game_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    prompt_seq: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    threshold: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    mail_id: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ClockSweep(db.Model):
    """The clock sweep's heartbeat: when it last ran (one row, ``name="clock"``)."""

    __tablename__ = "clock_sweeps"

    name: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    last_run: Mapped[datetime] = mapped_column(UTCDateTime)


class ClockOutage(db.Model):
    """A window in which the sweep did not run (``started_at`` = its last run before
    the gap, ``ended_at`` = the first run after). Deadlines that fell inside it are
    extended by its length, once per game (``games.clock_state["outage"]`` holds the
    last outage id applied)."""

    __tablename__ = "clock_outages"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    ended_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
