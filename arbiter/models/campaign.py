"""Campaigns: a series of games of one engine whose unlocks carry from game to game."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class Campaign(db.Model):
    """A campaign: its engine, players, base options and the organiser's token hash.

    What carries over (Star Maps' unlocked bonuses) is not stored: it is derived from
    the results of the campaign's finished games by the engine's ``campaign_options``.
    """

    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    engine: Mapped[str] = mapped_column(sa.String(40))
    name: Mapped[str] = mapped_column(sa.String(120))
    players: Mapped[list] = mapped_column(sa.JSON)
    options: Mapped[dict] = mapped_column(sa.JSON, default=dict)
    token_hash: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CampaignGame(db.Model):
    """The ``number``-th game (from 1) of a campaign; unique per campaign."""

    __tablename__ = "campaign_games"

    campaign_id: Mapped[str] = mapped_column(sa.ForeignKey("campaigns.id"), primary_key=True)
    number: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id"), unique=True)
