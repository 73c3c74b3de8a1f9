"""A hot SELECT's first row, read straight from the session's DB-API connection
(issue 26).

A game's summary, a player's legal moves, a move and a roll each start with one
SELECT of the game (:mod:`arbiter.models.game_record`), several times a move for a
script. Run through ``Session.execute``, SQLAlchemy's per-statement machinery (its
execution context, parameter and result processing, the ``Row``) cost about as much
CPU again as the database driver's own work for that one row. Here the statement is
compiled once per dialect and run on the connection the session holds (so in its
transaction, or in the autocommit the read routes set): the same SQL, the same
connection, the same results, since each column's value goes through the result
processor its SQLAlchemy type gives for the dialect (``UTCDateTime``, SQLite's JSON
and booleans). What SQLAlchemy does around a statement, that this project relies on,
still happens:

- the session's pending changes are flushed first, as ``Session.execute``'s
  autoflush does (and not while the session is flushing already);
- when anything listens to the engine's statements (``before_cursor_execute`` or
  ``after_cursor_execute``: instrumentation, the statement-count tests), the
  statement goes through SQLAlchemy so that they see it; other engine events
  (``before_execute``, ``handle_error``) and the engine's statement log (``echo``)
  are not run for it;
- a driver error is raised as SQLAlchemy raises it (``sqlalchemy.exc.DBAPIError``
  and its subclasses, which the channels answer, e.g. 503 with ``Retry-After``); on
  a lost connection the statement is run once more through SQLAlchemy, which meets
  the dead connection and invalidates it and the pool as it would have (the error
  raised is still the driver's first, which says why the connection was lost); an
  interruption mid-statement (``KeyboardInterrupt``, a cancelled task) invalidates
  the connection, whose state is then unknown, as SQLAlchemy does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from arbiter.extensions import db


@dataclass(frozen=True)
class Prepared:
    """A statement compiled for one dialect: its SQL, how its parameters are passed,
    and its result columns' keys and processors (None where a value is used as the
    driver gives it)."""

    sql: str
    order: tuple[str, ...] | None
    keys: tuple[str, ...]
    processors: tuple[Callable[[Any], Any] | None, ...]

    def arguments(self, params: dict):
        """The driver's parameters: a tuple in ``order`` for a positional paramstyle
        (SQLite's ``?``), else the dict itself (psycopg's ``%(name)s``)."""
        return params if self.order is None else tuple(params[name] for name in self.order)

    def values(self, row) -> dict:
        """Return ``row`` (the driver's tuple) as ``{key: value}``, each value
        processed as SQLAlchemy would (NULL stays None: the processors of these
        columns' types give None for None)."""
        return {
            key: value if process is None or value is None else process(value)
            for key, process, value in zip(self.keys, self.processors, row)
        }


def first(statement: sa.Select, params: dict) -> dict | None:
    """Return the first row of ``statement`` (a Core SELECT whose bound parameters
    are all named in ``params`` and need no bind processing) as ``{column key:
    value}``, None when there is none; run on the session's connection, in its
    transaction (or the autocommit a read route set).

    :raises sqlalchemy.exc.DBAPIError: the database failed the statement.
    :raises ValueError: a parameter of ``statement`` needs bind processing.
    Whatever the session's autoflush raises, it raises as ``Session.execute`` would.
    """
    session = db.session()
    # the transaction's pending changes first, as Session.execute: its own autoflush
    # (none while the session flushes already; errors noted as an autoflush's)
    session._autoflush()
    connection = session.connection()
    if _listened(connection):
        row = connection.execute(statement, params).first()
        return None if row is None else row._asdict()
    raw = connection.connection.dbapi_connection
    try:
        return _run(raw, statement, params, connection.dialect)
    except connection.dialect.loaded_dbapi.Error as err:
        invalidated = False
        if connection.dialect.is_disconnect(err, raw, None):
            try:  # SQLAlchemy meets the dead connection: it invalidates it and the pool
                connection.execute(statement, params)
            except sa.exc.DBAPIError as again:
                invalidated = again.connection_invalidated
        raise _wrapped(err, statement, params, connection.engine, invalidated) from err
    except BaseException as err:
        if not isinstance(err, Exception):  # an interruption: the connection's state is
            connection.invalidate(err)  # unknown, as SQLAlchemy treats it
        raise


def _listened(connection) -> bool:
    """True when anything listens to the statements of ``connection`` (its engine's
    listeners too)."""
    dispatch = connection.dispatch
    return bool(dispatch.before_cursor_execute or dispatch.after_cursor_execute)


def _run(raw, statement: sa.Select, params: dict, dialect) -> dict | None:
    """Execute ``statement`` on the DB-API connection ``raw``; return its first row."""
    prepared = _prepared(statement, dialect)
    cursor = raw.cursor()
    try:
        cursor.execute(prepared.sql, prepared.arguments(params))
        row = cursor.fetchone()
    finally:
        cursor.close()
    return None if row is None else prepared.values(row)


def _wrapped(
    err: Exception, statement: sa.Select, params: dict, engine, invalidated: bool = False
) -> Exception:
    """``err`` as SQLAlchemy raises a driver's error (``invalidated``: the connection
    was found lost and dropped)."""
    prepared = _prepared(statement, engine.dialect)
    return sa.exc.DBAPIError.instance(
        prepared.sql,
        prepared.arguments(params),
        err,
        engine.dialect.loaded_dbapi.Error,
        hide_parameters=engine.hide_parameters,
        connection_invalidated=invalidated,
        dialect=engine.dialect,
    )


@functools.cache
def _prepared(statement: sa.Select, dialect) -> Prepared:
    """Compile ``statement`` for ``dialect`` (once per pair).

    :raises ValueError: a bound parameter's type processes its value (the driver
        would be handed it unprocessed).
    """
    compiled = statement.compile(dialect=dialect)
    for name, bind in compiled.binds.items():
        if bind.type.dialect_impl(dialect).bind_processor(dialect) is not None:
            raise ValueError(f"the parameter {name!r} needs processing: not for first()")
    columns = statement.selected_columns
    return Prepared(
        sql=compiled.string,
        order=tuple(compiled.positiontup) if compiled.positional else None,
        keys=tuple(column.key for column in columns),
        processors=tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns
        ),
    )
