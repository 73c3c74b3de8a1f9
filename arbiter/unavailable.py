"""A database that cannot be reached: 503 problem+json with ``Retry-After``.

While PostgreSQL is stopped or restarting (or SQLite is locked past its busy
timeout), every request that needs the database gets ``503 database-unavailable``
with a ``Retry-After`` of ``DB_RETRY_AFTER_SECONDS``, never a 500 or a hang:
connections time out after ``DB_CONNECT_TIMEOUT_SECONDS`` (5 s) and the pool's wait
after 10 s, a lost link after ``DB_TCP_USER_TIMEOUT_SECONDS`` (15 s), a row lock a
dead host holds after ``DB_LOCK_TIMEOUT_SECONDS`` (web: 5 s) (``config.engine_options``),
and the service resumes by itself when the database is back: the web process pings no
connection before using it (``DB_PRE_PING``, a round trip per request), so the first
request on a connection that died with the server answers 503 too, and SQLAlchemy,
seeing the disconnect, replaces every pooled connection made before it (workers and
beat ping first: a task has no client to retry it). A write that was cut off is
rolled back by the database; nothing is half-written.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from flask import Flask, current_app

from arbiter.problems import problem

log = logging.getLogger(__name__)

UNREACHABLE = (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError)
"""Errors of a database that is down, restarting, locked, or whose pool is exhausted."""


def answer(err: Exception):
    """Return the 503 problem for a database error ``err`` (logged, without a trace)."""
    log.warning("database unavailable: %s", str(err).splitlines()[0][:300])
    seconds = int(current_app.config.get("DB_RETRY_AFTER_SECONDS", 5))
    response = problem(
        503,
        "database-unavailable",
        "Service unavailable",
        "The game database cannot be reached right now; nothing was "
        f"recorded. Try again in {seconds} seconds.",
    )
    response.headers["Retry-After"] = str(seconds)
    return response


def register(app: Flask) -> None:
    """Answer the errors of an unreachable database with 503 (see the module)."""
    for kind in UNREACHABLE:
        app.register_error_handler(kind, answer)
