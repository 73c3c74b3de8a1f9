"""Tournaments: their settings, entries, rounds, games and their own append-only log.

A tournament is its own aggregate (DESIGN.md, "Three channels, one service"): its log
(``tournament_events``, primary key ``(tournament_id, seq)``, append-only in the
database) records entries, withdrawals, pairings, round ends and the organiser's
actions. The other tables are what the service reads quickly: they are written in the
same transaction as the event that changes them, under the tournament row's
``version`` (optimistic concurrency, as a game's). A tournament reads its games'
results; it never writes a game's log (a round's deadline and a replacement call the
game service, which does).
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class Tournament(db.Model):
    """One tournament: what its games are, how it is paired and scored, where it is.

    ``format`` is ``round_robin`` or ``swiss``; ``rounds`` the number of rounds (Swiss:
    chosen at creation; round robin: the schedule's length, set at the start);
    ``table_size`` the players per game; ``scoring`` ``{"place_points": [...],
    "bye_points": x}``; ``round_seconds`` how long a round may last (None: no round
    deadline); ``deadline_policy`` what the round deadline does to a game still being
    played (``forfeit``: the seats that owe a move lose by forfeit; ``timeout-move``:
    the engine's timeout moves play it out; None, tournaments made before the choice:
    the game's clock policy); ``reliability_threshold`` the highest share of an
    account's games ended by its timeout or resignation that may still enter (None:
    anyone).

    ``status`` goes ``open`` -> ``running`` -> ``over``; ``paused_at`` is set while the
    organiser has paused it; ``round`` is the current round (0 before the start);
    ``deadline`` the current round's deadline while running and not paused (indexed:
    the sweep claims on it); ``version`` the seq of its log's last event.
    """

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(120))
    engine: Mapped[str] = mapped_column(sa.String(40))
    table_size: Mapped[int] = mapped_column(sa.Integer)
    format: Mapped[str] = mapped_column(sa.String(16))
    rounds: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    scoring: Mapped[dict] = mapped_column(sa.JSON)
    rated: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    options: Mapped[dict] = mapped_column(sa.JSON, default=dict)
    clock: Mapped[dict] = mapped_column(sa.JSON, default=dict)
    round_seconds: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    reliability_threshold: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    late_entries: Mapped[bool] = mapped_column(sa.Boolean, default=True)
    deadline_policy: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    organiser_account_id: Mapped[str] = mapped_column(sa.ForeignKey("accounts.id"), index=True)
    status: Mapped[str] = mapped_column(sa.String(16), default="open", index=True)
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    round: Mapped[int] = mapped_column(sa.Integer, default=0)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    version: Mapped[int] = mapped_column(sa.Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    fill_with_bot: Mapped[dict | None] = mapped_column(sa.JSON(none_as_null=True), nullable=True)
    """A built-in bot (``{"kind", "level"}``) entered at the start when the entries do
    not fill whole tables (:mod:`arbiter.tournaments.bot_entries`); None: byes."""


class TournamentEntry(db.Model):
    """An account's entry: its public ``id`` (the entrant id pairing uses), the name
    shown, the first round it may be paired in (``joined_round``: 1 before the start,
    later for a late entry) and the first round it is no longer paired in
    (``withdrawn_round``, None while it plays on); the byes it asked for in rounds not
    paired yet (``bye_requests``: ``{"<round>": "H" | "Z"}``) and the engine rating it
    is seeded by (``seed_rating``, the ordinal ``mu - 3 sigma`` when the tournament
    started or the entry came late; None: unrated). One entry per account."""

    __tablename__ = "tournament_entries"
    __table_args__ = (
        sa.UniqueConstraint("tournament_id", "account_id", name="uq_tournament_entries_account"),
    )

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(sa.ForeignKey("tournaments.id"), index=True)
    account_id: Mapped[str | None] = mapped_column(
        sa.ForeignKey("accounts.id"), index=True, nullable=True
    )
    name: Mapped[str] = mapped_column(sa.String(80))
    bot: Mapped[dict | None] = mapped_column(sa.JSON(none_as_null=True), nullable=True)
    """A built-in bot's entry (no account): ``{"kind", "level"}``."""
    joined_round: Mapped[int] = mapped_column(sa.Integer, default=1)
    withdrawn_round: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    bye_requests: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    seed_rating: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TournamentRound(db.Model):
    """A round once paired: when it started, its deadline (None: none; moved by an
    extension and by a pause), when it ended, who had the pairing-allocated bye (entry
    ids: ``byes``) and the byes set before it was paired (``requested_byes``:
    ``[[entry, "H" | "F" | "Z"], ...]``)."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(sa.ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    byes: Mapped[list] = mapped_column(sa.JSON, default=list)
    requested_byes: Mapped[list | None] = mapped_column(sa.JSON, nullable=True)


class TournamentGame(db.Model):
    """Table ``table`` (from 0) of round ``round``: its game and its players (entry
    ids in seat order, seat 0 first)."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[str] = mapped_column(sa.ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    table: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id"), unique=True)
    players: Mapped[list] = mapped_column(sa.JSON)


class TournamentEvent(db.Model):
    """One entry of a tournament's own log; ``(tournament_id, seq)`` is the primary key,
    ``seq`` counts from 1 without gaps; UPDATE and DELETE are refused by triggers
    (migration ``i11c_tournaments``). ``kind``: ``tournament-created``, ``entry-added``,
    ``entry-withdrawn``, ``tournament-started``, ``round-paired``, ``round-ended``,
    ``tournament-over``, ``tournament-paused``, ``tournament-resumed``,
    ``round-extended``, ``entry-replaced``, ``round-deadline``, ``entry-returned``,
    ``bye-requested``."""

    __tablename__ = "tournament_events"

    tournament_id: Mapped[str] = mapped_column(sa.ForeignKey("tournaments.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(sa.String(32))
    payload: Mapped[dict] = mapped_column(sa.JSON)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
