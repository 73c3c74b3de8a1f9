"""The kinds of entry in a game's talk log, one small typed class each (as
:mod:`arbiter.games.events` for the move log; a separate log, so a separate set).

Each class has ``kind`` (the stored string), ``channel``, ``seat``, ``to_seat`` and
``author`` (columns of :class:`arbiter.models.TalkEvent`) and its payload's keys as
fields; :func:`row` makes the row to write and :func:`read` the typed entry of a row.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from arbiter.models import TalkEvent

_COLUMNS = frozenset({"channel", "seat", "to_seat", "author"})

CHANNELS = ("table", "private", "spectators")
"""The message channels: the players' table, one seat to another, the spectators'."""


@dataclass(frozen=True, kw_only=True)
class TalkEntry:
    """The base of the talk kinds: the columns every entry has."""

    kind: ClassVar[str]
    author: str
    seat: int | None = None
    channel: str | None = None
    to_seat: int | None = None

    @property
    def payload(self) -> dict[str, Any]:
        """Return the payload: the fields that are not columns, in declared order."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in _COLUMNS
        }


@dataclass(frozen=True, kw_only=True)
class Message(TalkEntry):
    """``message``: ``name`` (the author as shown) said ``text`` on ``channel``."""

    kind: ClassVar[str] = "message"
    name: str
    text: str
    via: str = "api"


@dataclass(frozen=True, kw_only=True)
class MessageHidden(TalkEntry):
    """``message-hidden``: message ``message`` is hidden by ``by`` (``creator`` or
    ``organiser``); it stays in the log, readers see that it was hidden."""

    kind: ClassVar[str] = "message-hidden"
    message: int
    by: str


@dataclass(frozen=True, kw_only=True)
class MessageReported(TalkEntry):
    """``message-reported``: a reader reported message ``message`` (``reason``); read
    by the operators only."""

    kind: ClassVar[str] = "message-reported"
    message: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class Note(TalkEntry):
    """``note``: seat ``seat`` wrote ``text`` for itself."""

    kind: ClassVar[str] = "note"
    text: str
    via: str = "api"


KINDS: dict[str, type[TalkEntry]] = {
    cls.kind: cls for cls in (Message, MessageHidden, MessageReported, Note)
}


def row(game_id: str, n: int, entry: TalkEntry, at) -> TalkEvent:
    """Return the row that stores ``entry`` as entry ``n`` of ``game_id``'s talk."""
    return TalkEvent(
        game_id=game_id,
        n=n,
        kind=entry.kind,
        channel=entry.channel,
        seat=entry.seat,
        to_seat=entry.to_seat,
        author=entry.author,
        payload=entry.payload,
        at=at,
    )


def read(stored: TalkEvent) -> TalkEntry:
    """Return the typed entry of a stored row.

    :raises KeyError: a kind no class knows (never one this service wrote).
    """
    cls = KINDS[stored.kind]
    names = {f.name for f in dataclasses.fields(cls)}
    payload = {k: v for k, v in (stored.payload or {}).items() if k in names}
    return cls(
        author=stored.author,
        seat=stored.seat,
        channel=stored.channel,
        to_seat=stored.to_seat,
        **payload,
    )
