"""The bare stack for ``bench/baseline.py``: Flask + Flask-SQLAlchemy doing only "read
the head, append a row", behind the same ASGI server and thread pool as the product.

``GET /games/<id>`` reads the head (the version); ``POST /games/<id>/moves`` reads the
head, inserts an event row ``(game_id, seq = head + 1, payload)`` and moves the head
with ``UPDATE ... WHERE version = <read>`` (a lost race is 409), in one transaction.
``POST /games`` creates a head row. The benchmark creates the tables
(:func:`create_tables`) before starting the server.
Not part of the product: a yardstick.
"""

from __future__ import annotations

import os
import uuid

import sqlalchemy as sa
from a2wsgi import WSGIMiddleware
from flask import Flask, request
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the bare tables."""


db = SQLAlchemy(model_class=Base)


class BareGame(db.Model):
    """A head: the last seq of one log."""

    __tablename__ = "bare_games"
    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    version: Mapped[int] = mapped_column(sa.Integer, default=0)


class BareEvent(db.Model):
    """One appended row."""

    __tablename__ = "bare_events"
    game_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    payload: Mapped[dict] = mapped_column(sa.JSON)


def create_flask() -> Flask:
    """Return the bare Flask app on ``DATABASE_URL`` with its tables created."""
    from arbiter.settings import database_url

    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(os.environ["DATABASE_URL"], "")
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_size": 10, "max_overflow": 30}
    db.init_app(app)

    @app.post("/games")
    def create():
        game = BareGame(id=uuid.uuid4().hex, version=0)
        db.session.add(game)
        db.session.commit()
        return {"id": game.id, "version": 0}, 201

    @app.get("/games/<game_id>")
    def head(game_id):
        version = db.session.scalar(sa.select(BareGame.version).where(BareGame.id == game_id))
        return {"id": game_id, "version": version}

    @app.post("/games/<game_id>/moves")
    def append(game_id):
        version = db.session.scalar(sa.select(BareGame.version).where(BareGame.id == game_id))
        db.session.add(BareEvent(game_id=game_id, seq=version + 1, payload=request.get_json()))
        moved = db.session.execute(
            sa.update(BareGame)
            .where(BareGame.id == game_id, BareGame.version == version)
            .values(version=version + 1)
        )
        if moved.rowcount != 1:
            db.session.rollback()
            return {"code": "stale-version"}, 409
        db.session.commit()
        return {"seq": version + 1, "version": version + 1}, 201

    return app


def create_tables(url: str) -> None:
    """Create the bare tables on the database at ``url`` (a SQLAlchemy URL)."""
    engine = sa.create_engine(url)
    Base.metadata.create_all(engine)
    engine.dispose()


def create_asgi():
    """The bare app behind a2wsgi with ``WEB_THREADS`` threads, as the product's front
    runs Flask (uvicorn calls this with ``--factory``)."""
    return WSGIMiddleware(create_flask(), workers=int(os.environ.get("WEB_THREADS", 32)))
