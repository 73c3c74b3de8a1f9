"""The table talk of a game: its own append-only log of messages and notes, and the
mutes an account keeps.

A game's talk (``talk_events``, primary key ``(game_id, n)``, ``n`` counting from 1
per game without gaps) is kept beside the game's move log, not in it: a message never
moves the game's ``version``, so a player's ``expected_version`` does not go stale on
every chat line, a roll or deadline task made for a version still finds it, and a
finished game's log still ends with ``seed-revealed`` (docs/guides/messages.md,
"Why messages have their own counter"). UPDATE and DELETE are refused by triggers
(migration ``i24a_talk``): a hidden message stays, and an event hides it.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class TalkEvent(db.Model):
    """One entry of a game's talk log.

    ``kind``: ``message`` (``channel`` ``table``, ``private`` to ``to_seat``, or
    ``spectators``), ``message-hidden`` (``payload.message``: the ``n`` it hides),
    ``message-reported`` (read by the operators only) or ``note`` (its author's only).
    ``seat`` is the author's seat (None: a spectator, the creator, an organiser);
    ``author`` the key a reader mutes it by (``account:<id>`` or ``seat:<game>:<n>``).
    """

    __tablename__ = "talk_events"
    __table_args__ = (sa.Index("ix_talk_events_author_at", "author", "at"),)

    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id"), primary_key=True)
    n: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(sa.String(32))
    channel: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    to_seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    author: Mapped[str] = mapped_column(sa.String(80))
    payload: Mapped[dict] = mapped_column(sa.JSON)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TalkMute(db.Model):
    """An account that does not want to read an author (``author`` as on
    :class:`TalkEvent`); deleting the row unmutes."""

    __tablename__ = "talk_mutes"

    account_id: Mapped[str] = mapped_column(sa.ForeignKey("accounts.id"), primary_key=True)
    author: Mapped[str] = mapped_column(sa.String(80), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
