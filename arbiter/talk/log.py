"""Writing and reading a game's talk log: the only code that writes ``talk_events``.

An entry gets the next ``n`` of its game (``max + 1``); ``(game_id, n)`` is the primary
key, so of two writers racing for one ``n`` exactly one wins and the other takes the
next. The unit of work commits the entry with the channel's idempotent answer and then
announces :class:`TalkAppended` to the committed handlers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from arbiter.errors import Conflict
from arbiter.extensions import db
from arbiter.models import Game, TalkEvent
from arbiter.models.timestamps import utcnow
from arbiter.talk import kinds
from arbiter.uow import UnitOfWork

TRIES = 5


@dataclass(frozen=True)
class TalkAppended:
    """A notice (:meth:`arbiter.uow.UnitOfWork.announce`): entry ``n`` of ``game_id``'s
    talk was committed, of ``kind``."""

    game_id: str
    n: int
    kind: str


def append(
    uow: UnitOfWork, game_id: str, entry: kinds.TalkEntry, result: Callable[[TalkEvent], Any]
) -> Any:
    """Append ``entry`` to ``game_id``'s talk and commit ``uow`` with ``result(row)``
    as the answer the edge may keep; return that answer. A message also sets the
    game's ``talk_n`` (its version is left alone).

    :raises Conflict: ``talk-busy`` when the next ``n`` was taken ``TRIES`` times in a
        row (never in practice: each loser takes the next one).
    """
    for _ in range(TRIES):
        n = last_n(game_id) + 1
        stored = kinds.row(game_id, n, entry, utcnow())
        uow.session.add(stored)
        try:
            uow.session.flush()
        except IntegrityError:
            uow.rollback()
            uow.replayed()
            continue
        if entry.kind == "message":
            uow.session.execute(
                sa.update(Game)
                .where(Game.id == game_id)
                .values(talk_n=n)
                .execution_options(synchronize_session=False)
            )
        answer = result(stored)
        uow.announce(TalkAppended(game_id, n, entry.kind))
        uow.commit(answer)
        return answer
    raise Conflict("Too many messages at once in this game; send it again.", code="talk-busy")


def last_n(game_id: str) -> int:
    """Return the ``n`` of the last entry of ``game_id``'s talk (0: none)."""
    return db.session.scalar(
        sa.select(sa.func.coalesce(sa.func.max(TalkEvent.n), 0)).where(TalkEvent.game_id == game_id)
    )


def entries(game_id: str, after: int = 0, kind: str | None = None) -> list[TalkEvent]:
    """Return ``game_id``'s talk entries with ``n > after`` (of ``kind``), in order."""
    query = sa.select(TalkEvent).where(TalkEvent.game_id == game_id, TalkEvent.n > after)
    if kind is not None:
        query = query.where(TalkEvent.kind == kind)
    return list(db.session.scalars(query.order_by(TalkEvent.n)))


def hidden_messages(game_id: str) -> dict[int, int]:
    """Return ``{message n: the n of the entry that hid it}`` for ``game_id``."""
    return {
        e.payload["message"]: e.n
        for e in entries(game_id, kind="message-hidden")
        if isinstance(e.payload, dict) and "message" in e.payload
    }
