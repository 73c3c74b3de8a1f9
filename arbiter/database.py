"""Database set-up that is not a model: SQLite locking, the migrations folder."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from sqlalchemy import event

from arbiter.extensions import db

MIGRATIONS = Path(__file__).parent / "migrations"


def install_sqlite_pragmas(app: Flask) -> None:
    """On SQLite, use WAL, a 30 s busy timeout and ``BEGIN IMMEDIATE`` transactions.

    ``BEGIN IMMEDIATE`` takes the write lock when a transaction starts, so two
    processes that read-then-write never deadlock on the lock upgrade (SQLAlchemy's
    documented pysqlite recipe, "Serializable isolation / Savepoints / Transactional
    DDL").
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
        conn.exec_driver_sql("BEGIN IMMEDIATE")
