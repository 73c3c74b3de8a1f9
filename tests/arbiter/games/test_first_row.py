"""A hot SELECT read straight from the driver (arbiter.models.first_row, issue 26):
the same values as SQLAlchemy's execution on both databases, its errors raised as
SQLAlchemy raises them, a lost connection invalidated, and every statement seen by
whatever listens to the engine."""

from __future__ import annotations

import psycopg.pq
import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Game, IdempotentResponse, first_row, game_record
from tests.arbiter.games.test_game_record import game_id  # noqa: F401 (a fixture)
from tests.arbiter.games.test_statement_counts import statements
from tests.conftest import make_app


def _through_sqlalchemy(statement, params) -> dict:
    row = db.session.execute(statement, params).first()
    return row._asdict()


def test_a_game_and_its_stored_answer_read_as_sqlalchemy_reads_them(any_app, game_id):  # noqa: F811
    """Every column of the move's SELECT (the game, its seats as JSON, the stored
    answer's JSON body), each value of the same type, with and without an answer."""
    with any_app.app_context():
        db.session.add(
            IdempotentResponse(
                scope=f"seat:{game_id}",
                key="k" * 16,
                request_hash="h" * 64,
                status=201,
                body={"a": [1]},
            )
        )
        db.session.commit()
        dialect = db.engine.dialect.name
        # the PostgreSQL schema is the test session's: scopes of this test's own
        for scope in (f"seat:{game_id}", f"seat:{game_id}-y"):
            params = {"game_id": game_id, "scope": scope, "key": "k" * 16}
            statement = game_record._answered(dialect)
            mine = first_row.first(statement, params)
            theirs = _through_sqlalchemy(statement, params)
            assert list(mine) == list(theirs)
            for key, value in theirs.items():
                assert (mine[key], type(mine[key])) == (value, type(value)), key
        assert mine["answer_status"] is None and theirs["answer_body"] is None
        assert first_row.first(statement, {**params, "game_id": "nope"}) is None
        db.session.rollback()


def test_a_listened_engine_sees_the_statement(any_app, game_id):  # noqa: F811
    """With a ``before_cursor_execute`` listener the read goes through SQLAlchemy, so
    that instrumentation sees every statement."""
    with any_app.app_context(), statements(any_app) as seen:
        statement = game_record._statement(db.engine.dialect.name, False)
        assert first_row.first(statement, {"game_id": game_id})["id"] == game_id
        db.session.rollback()
    assert len(seen) == 1 and "games" in seen[0]


def test_a_failed_statement_raises_what_sqlalchemy_raises(any_app):
    """A driver error is the SQLAlchemy exception SQLAlchemy's own execution raises
    (the channels answer those), with the statement; nothing else changes."""
    statement = sa.select(sa.column("x")).select_from(sa.table("no_such_table"))
    with any_app.app_context():
        with pytest.raises(sa.exc.DBAPIError) as mine:
            first_row.first(statement, {})
        db.session.rollback()
        with pytest.raises(sa.exc.DBAPIError) as theirs:
            db.session.execute(statement)
        db.session.rollback()
    assert type(mine.value) is type(theirs.value)
    assert "no_such_table" in str(mine.value) and not mine.value.connection_invalidated


def test_a_lost_connection_is_invalidated_and_the_next_read_works(postgres_url, game_id_pg):
    """The server ends the session's connection (a restart, a pooler): the read
    raises SQLAlchemy's ``OperationalError`` marked invalidated (503 and Retry-After
    to a client), and the next read, on a new connection, returns the game."""
    app, made_id = game_id_pg
    statement = game_record._statement("postgresql", False)
    with app.app_context():
        pid = db.session.execute(sa.text("SELECT pg_backend_pid()")).scalar()
        with db.engine.connect() as other:
            other.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            other.commit()
        with pytest.raises(sa.exc.OperationalError) as raised:
            first_row.first(statement, {"game_id": made_id})
        assert raised.value.connection_invalidated
        assert "terminating connection" in str(raised.value)  # why, as the driver said
        db.session.rollback()
        assert first_row.first(statement, {"game_id": made_id})["id"] == made_id
        db.session.rollback()
        db.engine.dispose()


@pytest.fixture
def game_id_pg(postgres_url):
    """A web process's app on PostgreSQL (no pre-ping: a lost connection is found by
    the read itself) and a game on it."""
    app = make_app(postgres_url, role="web")
    made = app.test_client().post(
        "/v1/games", json={"engine": "dark-horse", "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    assert made.status_code == 201, made.json
    return app, made.json["id"]


def test_a_read_sees_the_transactions_pending_changes(any_app, game_id):  # noqa: F811
    """The session's changes not yet flushed are flushed first, as ``Session.execute``
    does: a read after an ORM change in the same transaction sees it (the game, a
    seat, a stored answer)."""
    scope = f"seat:{game_id}-pending"
    with any_app.app_context():
        game = db.session.get(Game, game_id)
        game.status = "finished"
        game.seats[0].resigned = True
        db.session.add(
            IdempotentResponse(
                scope=scope, key="p" * 16, request_hash="h" * 64, status=201, body={}
            )
        )
        record, answer = game_record.read_with_answer(game_id, scope, "p" * 16)
        assert (record.status, record.seats[0].resigned) == ("finished", True)
        assert answer is not None and answer.status == 201
        db.session.rollback()


def test_a_read_from_a_flush_hook_reads(any_app, game_id):  # noqa: F811
    """Called while the session flushes (a ``before_flush`` hook), the read works as
    ``Session.execute`` does there: no second flush, no error."""
    seen = []
    with any_app.app_context():
        session = db.session()
        statement = game_record._statement(db.engine.dialect.name, False)

        def hook(session, context, instances):
            seen.append(first_row.first(statement, {"game_id": game_id})["status"])

        sa.event.listen(session, "before_flush", hook)
        try:
            db.session.get(Game, game_id).status = "finished"
            db.session.flush()
        finally:
            sa.event.remove(session, "before_flush", hook)
        db.session.rollback()
    assert seen == ["active"]


def test_a_read_in_autocommit_opens_no_transaction(game_id_pg):
    """On the autocommit connection a read route sets, the read leaves the server's
    session idle: no transaction is opened around it."""
    app, made_id = game_id_pg
    with app.app_context():
        connection = db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        statement = game_record._statement("postgresql", False)
        assert first_row.first(statement, {"game_id": made_id})["id"] == made_id
        status = connection.connection.dbapi_connection.info.transaction_status
        assert status == psycopg.pq.TransactionStatus.IDLE
        db.session.remove()
        db.engine.dispose()
