"""A game row (the latest folded state as its snapshot) and its seats."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class GameFacts:
    """What a game's columns and seats say without another read: the seats the prompt
    waits for, whether a seat is open, who resigned. Shared by the row (:class:`Game`)
    and the read routes' plain record of it (:mod:`arbiter.models.game_record`)."""

    @property
    def to_act(self) -> list[int]:
        """Return the seats the current prompt waits for (empty unless a decision of a
        game that has started)."""
        if self.status == "waiting":
            return []
        return list(self.prompt.get("seats", [])) if self.prompt.get("type") == "decision" else []

    @property
    def has_open(self) -> bool:
        """True while a seat of this public table waits for somebody to take it."""
        return any(s.open for s in self.seats)

    @property
    def resigned(self) -> set[int]:
        """Return the seats that have resigned."""
        return {s.seat for s in self.seats if s.resigned}


class Game(GameFacts, db.Model):
    """One game: its engine, options, secret seed and the snapshot of its state.

    ``state`` is the engine state folded up to ``version`` (the seq of the last event);
    it is a disposable cache of the log, rebuilt from the events whenever
    ``engine_version`` no longer matches the engine. ``version`` is also the
    optimistic-concurrency token: every append updates the row only ``WHERE version =
    the version it read``.

    The clock (see :mod:`arbiter.games.clock`): ``clock`` is the time control chosen
    at creation, ``clock_state`` the per-seat clocks (folded from the log and the time
    of each event), ``deadline`` the earliest deadline of a seat that owes a move (UTC,
    indexed: the sweep claims due games on it), ``remind_at`` the earliest reminder due.

    Invitations (:mod:`arbiter.games.invitations`): a game with invited seats has
    ``status = "waiting"`` until they answer or ``start_at`` comes; ``unfilled``
    (``cancel`` | ``start``) says what happens to seats nobody took.
    """

    __tablename__ = "games"
    __table_args__ = (  # the list's filters in its newest-first order (i13a_list_indexes)
        sa.Index("ix_games_created", "created_at", "id"),
        sa.Index("ix_games_status_created", "status", "created_at", "id"),
        sa.Index("ix_games_engine_created", "engine", "created_at", "id"),
        sa.Index("ix_games_status_engine_created", "status", "engine", "created_at", "id"),
    )

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    engine: Mapped[str] = mapped_column(sa.String(40), index=True)
    engine_version: Mapped[str] = mapped_column(sa.String(40))
    status: Mapped[str] = mapped_column(sa.String(16), index=True, default="active")
    version: Mapped[int] = mapped_column(sa.Integer, default=0)
    options: Mapped[dict] = mapped_column(sa.JSON, default=dict)
    clock: Mapped[dict] = mapped_column(sa.JSON, default=dict)
    seed: Mapped[str] = mapped_column(sa.String(64))
    seed_commitment: Mapped[str] = mapped_column(sa.String(64))
    state: Mapped[dict] = mapped_column(sa.JSON)
    prompt: Mapped[dict] = mapped_column(sa.JSON)
    prompt_type: Mapped[str] = mapped_column(sa.String(16), index=True, default="decision")
    prompt_since: Mapped[int] = mapped_column(sa.Integer, default=0)
    result: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    clock_state: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    remind_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    creator_token_hash: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    start_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    unfilled: Mapped[str] = mapped_column(sa.String(16), default="cancel")
    creator_account_id: Mapped[str | None] = mapped_column(
        sa.ForeignKey("accounts.id"), nullable=True, index=True
    )
    rated: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    talk: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    """The creator's choices for the table talk (:mod:`arbiter.talk.options`)."""
    talk_n: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    """The ``n`` of the game's last message (None: none yet): a turn mail quotes the
    talk only when there is some, so a move in a quiet game reads nothing more."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)

    creator_token = None
    """The creator token in plain text, set only on the instance that created the game
    (shown once in the creation answer, stored hashed in ``creator_token_hash``)."""

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat", lazy="selectin"
    )


class Seat(db.Model):
    """A player's place in a game: name, optional email, the hash of its bearer token,
    and the account that holds it (None for anonymous play with the seat token);
    ``mail_off``: the address unsubscribed from this game's mail; ``digest``: its
    account takes the daily digest instead of a "your turn" mail per game (copied
    from the account, so the move path needs no extra read); ``notify``: how this
    game's turns are told to the seat (``turn``, ``digest``, ``none``), set per game,
    or None for the account's choice (``accounts.notify``, copied into ``digest``)."""

    __tablename__ = "seats"
    __table_args__ = (sa.Index("ix_seats_name", "name"),)  # the player filter

    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    email: Mapped[str | None] = mapped_column(sa.String(254), nullable=True, index=True)
    token_hash: Mapped[str] = mapped_column(sa.String(64), index=True)
    resigned: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    tz: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    account_id: Mapped[str | None] = mapped_column(
        sa.ForeignKey("accounts.id"), nullable=True, index=True
    )
    mail_off: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    digest: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    open: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    """A public table's seat that anyone signed in may take (:mod:`arbiter.games.lobby`);
    False once taken."""
    notify: Mapped[str | None] = mapped_column(sa.String(8), nullable=True)
    bot_account: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    """Held by a bot account (:mod:`arbiter.accounts.bot_accounts`): marked as a bot."""
    bot: Mapped[dict | None] = mapped_column(sa.JSON(none_as_null=True), nullable=True)
    """A built-in bot's seat: ``{"kind", "level"}`` (:mod:`arbiter.games.bot_seats`)."""
    autopilot: Mapped[dict | None] = mapped_column(sa.JSON(none_as_null=True), nullable=True)
    """The autopilot of an absent player (:mod:`arbiter.games.autopilot`): ``{"bot",
    "until", "since", "active"}``; None: never handed over in this game."""

    game: Mapped[Game] = relationship(back_populates="seats")
