"""Database set-up that is not a model: SQLite locking, the migrations folder.

On SQLite a transaction that may write begins ``BEGIN IMMEDIATE``; one that only
reads begins a plain (deferred) ``BEGIN`` and so never waits on the write lock (in WAL
mode readers see the last commit while a writer works): a request whose method is
safe (``GET``, ``HEAD``, ``OPTIONS``) and any code inside :func:`reading` (the
streams). Issue 22, item 15: every transaction was ``IMMEDIATE``, so under load
readers queued behind writers and got ``503 database is locked``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from flask import Flask, has_request_context, request
from sqlalchemy import event

from arbiter.extensions import db

MIGRATIONS = Path(__file__).parent / "migrations"

READING_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Request methods that only read: their transactions are deferred on SQLite."""

_reading: ContextVar[bool] = ContextVar("arbiter_reading", default=False)


@contextmanager
def reading() -> Iterator[None]:
    """Run the block's transactions as readers (a deferred ``BEGIN`` on SQLite), for
    code outside a request that only reads (the streams' worker threads)."""
    token = _reading.set(True)
    try:
        yield
    finally:
        _reading.reset(token)


def only_reads() -> bool:
    """True when the transaction about to begin belongs to a reader: inside
    :func:`reading`, or in a request whose method is safe."""
    if _reading.get():
        return True
    return has_request_context() and request.method in READING_METHODS


def begin_statement() -> str:
    """Return how a SQLite transaction begins now: ``BEGIN`` for a reader (see
    :func:`only_reads`), else ``BEGIN IMMEDIATE``."""
    return "BEGIN" if only_reads() else "BEGIN IMMEDIATE"


def install_sqlite_pragmas(app: Flask) -> None:
    """On SQLite, use WAL, a 30 s busy timeout and ``BEGIN IMMEDIATE`` transactions
    for writers (plain ``BEGIN`` for readers: :func:`begin_statement`).

    ``BEGIN IMMEDIATE`` takes the write lock when a transaction starts, so two
    processes that read-then-write never deadlock on the lock upgrade (SQLAlchemy's
    documented pysqlite recipe, "Serializable isolation / Savepoints / Transactional
    DDL"). A reader's rare write (a personal token's last-used time) may find the lock
    taken; it is then skipped (:func:`arbiter.accounts.identity.authenticate`).
    """
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql(begin_statement())
