"""Flask extensions, created unbound and bound to an app in ``create_app``."""

from __future__ import annotations

import logging

import sqlalchemy as sa
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase

from arbiter.contract import ArbiterApi


class Base(DeclarativeBase):
    """Declarative base of every model."""


log = logging.getLogger(__name__)


class SessionSQLAlchemy(SQLAlchemy):
    """Flask-SQLAlchemy whose end-of-request clean-up survives a lost database.

    At the end of every app context Flask-SQLAlchemy removes the session, which rolls
    back on its connection; when the database went away during the request, that
    rollback raises outside every error handler (the web server's bare 500). Here the error
    is logged and the session discarded: its connection is invalidated, and the pool
    replaces it on the next checkout.
    """

    def _teardown_session(self, exc: BaseException | None) -> None:
        try:
            self.session.remove()
        except sa.exc.SQLAlchemyError as err:
            log.warning(
                "session clean-up failed (database lost?): %s", str(err).splitlines()[0][:300]
            )
            self.session.registry.clear()


db = SessionSQLAlchemy(model_class=Base)
migrate = Migrate()
api = ArbiterApi()
