"""Ratings: one row per account and engine (issue 11, "Ratings")."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class Rating(db.Model):
    """An account's rating at one engine: the ``openskill`` Plackett-Luce ``mu`` and
    ``sigma`` after ``games`` rated games, updated in the transaction that ends each
    rated game (:mod:`arbiter.accounts.ratings`)."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(sa.ForeignKey("accounts.id"), primary_key=True)
    engine: Mapped[str] = mapped_column(sa.String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(sa.Float)
    sigma: Mapped[float] = mapped_column(sa.Float)
    games: Mapped[int] = mapped_column(sa.Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class BotRating(db.Model):
    """A built-in bot's rating at one engine, per kind and level (``random`` 1 and
    ``mcts`` 3 are two players): updated like an account's when a rated game with a
    bot seat ends (:mod:`arbiter.accounts.ratings`)."""

    __tablename__ = "bot_ratings"

    engine: Mapped[str] = mapped_column(sa.String(40), primary_key=True)
    kind: Mapped[str] = mapped_column(sa.String(16), primary_key=True)
    level: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    mu: Mapped[float] = mapped_column(sa.Float)
    sigma: Mapped[float] = mapped_column(sa.Float)
    games: Mapped[int] = mapped_column(sa.Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
