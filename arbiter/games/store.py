"""The event store: the only code that writes the game log.

An append adds events after the version it read and moves the game row's snapshot
forward in one transaction, guarded twice: the game row is updated only ``WHERE
version = <the version read>``, and ``(game_id, seq)`` is the events' primary key.
Either guard failing means somebody else appended first: nothing is written and
:class:`StaleVersion` is raised.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from arbiter.errors import Conflict
from arbiter.extensions import db
from arbiter.models import Event, Game, Seat
from arbiter.models.timestamps import utcnow


class StaleVersion(Conflict):
    """The game moved on since it was read (409 ``stale-version``)."""

    code = "stale-version"


class RaceLost(StaleVersion):
    """Another append committed between this one's read and its write (409
    ``stale-version``); the request may be checked again against the new version.
    ``read_version`` is the version the losing request was checked against, when the
    caller records it."""

    read_version: int | None = None


class NewEvent(Protocol):
    """What the store reads of an event about to be appended (its ``seq`` is given by
    the store): the typed events of :mod:`arbiter.games.events` are such.

    ``kind``: the stored kind string; ``seat``: the acting seat, ``None`` for the
    arbiter itself; ``payload``: JSON details; ``visible_to``: seats that may read the
    payload before the game is over (``None``: everyone).
    """

    @property
    def kind(self) -> str: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def payload(self) -> dict: ...

    @property
    def visible_to(self) -> list[int] | None: ...


def append(
    game: Game, events: list[NewEvent], snapshot: dict[str, Any], extra_rows: Iterable[Any] = ()
) -> list[Event]:
    """Append ``events`` after ``game.version`` and update the game row to ``snapshot``.

    :param snapshot: the game columns to set with the new version (``state``,
        ``prompt``, ``status``, ``result``, ``prompt_since``, ...).
    :param extra_rows: other rows written in the same transaction (an invitation's
        mail, a seat's new rows), or lists of them; None among them is skipped.
    :returns: the appended events, as Event objects not in the session (they are
        written by one Core ``INSERT`` after the snapshot's ``UPDATE``, on PostgreSQL
        both in one statement (:func:`_append_statement`), not by a flush of the unit
        of work). The caller commits.
    :raises RaceLost: the game is no longer at ``game.version``; the session has been
        rolled back.
    """
    old = game.version
    now = utcnow()
    params = [
        {
            "game_id": game.id,
            "seq": old + i,
            "kind": e.kind,
            "seat": e.seat,
            "payload": e.payload,
            "visible_to": e.visible_to,
            "at": now,
        }
        for i, e in enumerate(events, start=1)
    ]
    values = {**snapshot, "version": old + len(params), "updated_at": now}
    rest = params  # the events still to insert after the game row is written
    try:
        if old == 0:
            values["created_at"] = now
            db.session.add(game)
            for key, value in values.items():
                setattr(game, key, value)
            db.session.flush()
        else:
            keys = tuple(sorted(values))
            bound = {"b_id": game.id, "b_old": old, **{f"v_{k}": v for k, v in values.items()}}
            if params and db.session.get_bind().dialect.name == "postgresql":
                bound.update(
                    (f"e{i}_{name}", row[name]) for i, row in enumerate(params) for name in _COLUMNS
                )
                added = db.session.execute(_append_statement(keys, len(params)), bound)
                if added.rowcount != len(params):
                    raise RaceLost(_stale(game.id))
                rest = []
            elif db.session.execute(_update_statement(keys), bound).rowcount != 1:
                raise RaceLost(_stale(game.id))
        if rest:
            db.session.execute(sa.insert(Event.__table__), rest)
        db.session.add_all(rows_of(extra_rows))
        db.session.flush()
    except (StaleVersion, IntegrityError) as err:
        db.session.rollback()
        if isinstance(err, StaleVersion):
            raise
        raise RaceLost(_stale(game.id)) from err
    if isinstance(game, Game):
        for key, value in values.items():
            set_committed_value(game, key, value)  # already written by the UPDATE
    else:  # a record (arbiter.models.game_record)
        for key, value in values.items():
            setattr(game, key, value)
    return [Event(**row) for row in params]


def update_seat(game: Any, seat: Any, **values: Any) -> None:
    """Set ``values`` on ``seat`` of ``game``: on a row (:class:`arbiter.models.Seat`),
    as attributes the unit of work writes at its commit; on a record
    (:mod:`arbiter.models.game_record`), also with an ``UPDATE seats`` now, in the
    session's transaction (undone with it)."""
    for key, value in values.items():
        setattr(seat, key, value)
    if not isinstance(seat, Seat):
        table = Seat.__table__
        db.session.execute(
            sa.update(table)
            .where(table.c.game_id == game.id, table.c.seat == seat.seat)
            .values(**values)
        )


@functools.lru_cache(maxsize=64)
def _update_statement(keys: tuple[str, ...]) -> sa.Update:
    """Return the snapshot ``UPDATE games`` setting the columns ``keys`` (bound as
    ``v_<key>``) where ``id = :b_id AND version = :b_old``: a Core statement built
    once per set of columns, so an append neither coerces its values nor computes a
    cache key again (SQLAlchemy's compiled cache then serves it), nor goes through
    the ORM's bulk UPDATE."""
    table = Game.__table__
    return (
        sa.update(table)
        .where(table.c.id == sa.bindparam("b_id"), table.c.version == sa.bindparam("b_old"))
        .values({k: sa.bindparam(f"v_{k}", type_=table.c[k].type) for k in keys})
    )


_COLUMNS = ("seq", "kind", "seat", "payload", "visible_to", "at")
"""The columns of an appended event other than its game's id."""


@functools.lru_cache(maxsize=64)
def _append_statement(keys: tuple[str, ...], count: int) -> sa.Insert:
    """Return one PostgreSQL statement that moves the game row on and inserts
    ``count`` events (bound as ``e<i>_<column>``) only if it did: the snapshot
    ``UPDATE`` of :func:`_update_statement` in a data-modifying ``WITH``, whose
    returned row the ``INSERT ... SELECT`` reads. A game no longer at ``b_old``
    updates nothing, so nothing is inserted (rowcount 0): one round trip instead of
    two for every move and roll. Each value is cast to its column's type (a bound
    string in a ``SELECT`` list is ``text`` to PostgreSQL, which it does not assign
    to ``json``)."""
    events = Event.__table__
    moved = _update_statement(keys).returning(Game.__table__.c.id).cte("moved")
    types = [events.c[name].type for name in _COLUMNS]
    rows = [
        sa.select(
            moved.c.id,
            *(
                sa.cast(sa.bindparam(f"e{i}_{name}", type_=kind), kind)
                for name, kind in zip(_COLUMNS, types)
            ),
        )
        for i in range(count)
    ]
    source = rows[0] if count == 1 else sa.union_all(*rows)
    insert = sa.insert(events).from_select(["game_id", *_COLUMNS], source)
    return insert.execution_options(preserve_rowcount=True)  # an INSERT's is not kept


Appended = tuple[Game, list[NewEvent], dict[str, Any], Iterable[Any]]
"""One game's part of :func:`append_many`: the game as read, its events, its snapshot
and its extra rows (as :func:`append` takes them)."""


def append_many(batch: list[Appended]) -> None:
    """Append the events of several games, each after the version it was read at, in
    the caller's transaction, with one statement per kind of row: one ``UPDATE games``
    sent as an executemany (per set of snapshot columns), one ``INSERT`` of every
    event, then the extra rows in one flush (the clock sweep's batches:
    :mod:`arbiter.games.clock_sweep`). Guarded as :func:`append` is (``WHERE version
    = <read>`` on every game, the events' primary key). The caller commits.

    :raises RaceLost: one of the games is no longer at the version read; the session
        has been rolled back and nothing of the batch is written.
    """
    now = utcnow()
    events, updates, values_of = [], {}, []
    for game, new, snapshot, _ in batch:
        old = game.version
        events += [
            {
                "game_id": game.id,
                "seq": old + i,
                "kind": e.kind,
                "seat": e.seat,
                "payload": e.payload,
                "visible_to": e.visible_to,
                "at": now,
            }
            for i, e in enumerate(new, start=1)
        ]
        values = {**snapshot, "version": old + len(new), "updated_at": now}
        values_of.append(values)
        updates.setdefault(tuple(sorted(values)), []).append(
            {"b_id": game.id, "b_old": old, **{f"v_{k}": v for k, v in values.items()}}
        )
    try:
        for keys, params in updates.items():
            statement = _update_statement(keys)
            if db.session.execute(statement, params).rowcount != len(params):
                raise RaceLost(_stale(", ".join(p["b_id"] for p in params)))
        if events:
            db.session.execute(sa.insert(Event.__table__), events)
        for _, _, _, extra_rows in batch:
            db.session.add_all(rows_of(extra_rows))
        db.session.flush()
    except (StaleVersion, IntegrityError) as err:
        db.session.rollback()
        if isinstance(err, StaleVersion):
            raise
        raise RaceLost(_stale(", ".join(g.id for g, *_ in batch))) from err
    for (game, *_), values in zip(batch, values_of):
        for key, value in values.items():
            set_committed_value(game, key, value)


def rows_of(extra_rows: Iterable[Any]) -> list[Any]:
    """Return the rows of ``extra_rows``: rows, lists of rows, None (skipped)."""
    rows: list[Any] = []
    for extra in extra_rows:
        if isinstance(extra, (list, tuple)):
            rows += [row for row in extra if row is not None]
        elif extra is not None:
            rows.append(extra)
    return rows


def _stale(game_id: str) -> str:
    return (
        f"Game {game_id} has moved on since you read it; "
        "fetch it again and resubmit against the new version."
    )


def events_after(game_id: str, after: int, limit: int = 1000) -> list[Event]:
    """Return the events of a game with ``seq > after``, in order (at most ``limit``)."""
    return list(
        db.session.scalars(
            sa.select(Event)
            .where(Event.game_id == game_id, Event.seq > after)
            .order_by(Event.seq)
            .limit(limit)
        )
    )
