"""A game's talk in the event streams (issue 24, item 1): each message a reader may
read, as its own event (``"kind": "message"``), filtered exactly as
``GET /v1/games/{id}/messages`` filters it (:func:`arbiter.talk.messages.visible_entries`).

A message event is the message as ``/messages`` shows it (``n``, ``channel``,
``seat``, ``to``, ``name``, ``text``, ``hidden``, ``at``) with ``kind`` ``"message"``
and ``talk``: the ``n`` of the talk entry that brought it (the message's own, or the
``message-hidden`` entry of a message hidden after the reader was sent it: the same
message again, ``hidden`` true and ``text`` null). ``talk`` is where a stream resumes
its talk (:mod:`arbiter.streams.wire`). Notes and reports are never in a stream.

What a stream reader may read depends on its seat and its account's mutes only
(:func:`arbiter.talk.readers.may_read`); a game stream's reader is
:func:`arbiter.talk.readers.reader_of` its token, an account stream's
:func:`seat_reader` of each of its games. Mutes are read when the stream opens.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import TalkEvent, game_record
from arbiter.talk import log
from arbiter.talk.messages import visible_entries
from arbiter.talk.readers import Reader, deleted_authors, game_of

KIND = "message"
"""The ``kind`` of a message event (no event of a game's own log has it)."""


def seat_reader(seat: int | None, muted: frozenset[str] = frozenset()) -> Reader:
    """Return the talk reader of an account stream in one of its games: its seat
    there, with its account's mutes (:func:`arbiter.talk.readers.muted_by`)."""
    return Reader(seat=seat, muted=muted)


def message_json(entry: int, shown) -> dict:
    """Return a message event: ``shown`` (a :class:`~arbiter.talk.messages.MessageShown`)
    brought by talk entry ``entry``."""
    return {"kind": KIND, "talk": entry, **asdict(shown)}


def backlog(game_id: str, reader: Reader, after: int) -> list[dict]:
    """Return the message events of ``game_id`` after talk entry ``after`` that
    ``reader`` may read (a stream's catch-up), in order."""
    game = game_record.read(game_id, with_state=False)
    rows = log.entries(game_id, after)
    return [message_json(n, m) for n, m in visible_entries(game, reader, rows, after)]


def for_readers(
    game_id: str, after: int, wants: list[tuple[Reader, int]]
) -> tuple[int, list[list[dict]]]:
    """Read ``game_id``'s talk after entry ``after`` once; return the last entry read
    (``after`` when none) and, for each ``(reader, its own after)`` of ``wants``, the
    message events it may read past its own ``after``. Readers that read alike (same
    seat, mutes and position) are filtered once."""
    rows = log.entries(game_id, after)
    if not rows:
        return after, [[] for _ in wants]
    game = game_of(game_id)
    hidden = log.hidden_messages(game_id)
    deleted = deleted_authors(rows)
    done: dict[tuple, list[dict]] = {}
    out = []
    for reader, since in wants:
        key = (reader.seat, reader.muted, since)
        if key not in done:
            mine = [r for r in rows if r.n > since]
            done[key] = [
                message_json(n, m)
                for n, m in visible_entries(game, reader, mine, since, hidden, deleted)
            ]
        out.append(done[key])
    return rows[-1].n, out


def last_entries(game_ids: Collection[str]) -> dict[str, int]:
    """Return the ``n`` of the last talk entry of each of ``game_ids`` (0: none), one
    query per 500 games."""
    ids = list(game_ids)
    out = dict.fromkeys(ids, 0)
    for i in range(0, len(ids), 500):
        out.update(
            db.session.execute(
                sa.select(TalkEvent.game_id, sa.func.max(TalkEvent.n))
                .where(TalkEvent.game_id.in_(ids[i : i + 500]))
                .group_by(TalkEvent.game_id)
            ).all()
        )
    return out


def starts(
    seats: dict[str, int | None], muted: frozenset[str], resume: dict[str, int] | None
) -> dict[str, tuple[int, int]]:
    """Return, for each game of ``seats`` (``{game_id: the account's seat}``), where an
    account stream starts hearing its talk: ``(after, told)``, the entry it reads after
    and the position its cursor carries. ``resume`` (``{game_id: talk position}``, from
    a cursor) gives both, never past the talk's last entry; a game it does not name
    starts at the present: after the last entry, its cursor at the last entry that
    brought the reader a message (so that the cursor tells nothing of the others)."""
    lasts = last_entries(seats)
    out = {}
    for game_id, present in lasts.items():
        if resume is not None and game_id in resume:
            told = min(resume[game_id], present)
            out[game_id] = (told, told)
        elif not present:
            out[game_id] = (0, 0)
        else:
            reader = seat_reader(seats[game_id], muted)
            found = visible_entries(game_of(game_id), reader, log.entries(game_id), 0)
            out[game_id] = (present, found[-1][0] if found else 0)
    return out
