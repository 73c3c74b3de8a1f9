"""The read routes' plain record of a game (arbiter.models.game_record, issue 26): the
same columns and seats as the ORM's row on both databases, one statement, kept by the
session only until its transaction ends."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from arbiter.errors import NotFound
from arbiter.extensions import db
from arbiter.games.loading import get_game, load_record
from arbiter.models import Game, IdempotentResponse, Seat, game_record
from tests.arbiter.games.test_statement_counts import statements
from tests.helpers import agreed


@pytest.fixture
def game_id(any_app):
    """A three-seat Dark Horse game whose seats differ in every kind of column: an
    email, a resigned seat (booleans), a bot seat (JSON)."""
    client = any_app.test_client()
    agreed(any_app, "ann@example.org")  # an account's address: one mail may go to
    made = client.post(
        "/v1/games",
        json={
            "engine": "dark-horse",
            "players": [
                {"name": "Ann", "email": "ann@example.org"},
                {"name": "Bob"},
                {"name": "Cy"},
            ],
        },
    ).get_json()
    with any_app.app_context():
        db.session.execute(
            sa.update(Seat)
            .where(Seat.game_id == made["id"], Seat.seat == 2)
            .values(resigned=True, bot={"kind": "random", "level": 1}, tz="Europe/Paris")
        )
        db.session.commit()
    return made["id"]


def test_a_record_reads_as_the_row(any_app, game_id):
    """Every column of the game and of each seat, by seat number, with the row's
    values and types (SQLite's JSON gives booleans as 0 and 1: they come back as
    booleans); the facts (to act, resigned, open) alike."""
    with any_app.app_context():
        record = game_record.read(game_id)
        db.session.commit()
        row = get_game(game_id)
        for column in Game.__table__.c:
            mine, theirs = getattr(record, column.key), getattr(row, column.key)
            assert (mine, type(mine)) == (theirs, type(theirs)), column.key
        assert [s.seat for s in record.seats] == [0, 1, 2]
        for seat, theirs in zip(record.seats, row.seats, strict=True):
            for column in Seat.__table__.c:
                mine, other = getattr(seat, column.key), getattr(theirs, column.key)
                assert (mine, type(mine)) == (other, type(other)), column.key
        assert record.seats[2].resigned is True and record.seats[2].bot["kind"] == "random"
        assert (record.to_act, record.resigned, record.has_open) == (
            row.to_act,
            {2},
            False,
        )


def test_one_statement_then_none_until_the_transaction_ends(any_app, game_id):
    """A record is one SELECT, read again from the session while its transaction
    lasts (the guard's read is the route's), and read anew after it ends."""
    with any_app.app_context():
        with statements(any_app) as seen:
            first = game_record.read(game_id, with_state=False)
            assert first.state is game_record.UNREAD
            assert game_record.read(game_id, with_state=False) is first
        assert len(seen) == 1, seen
        assert "state" not in seen[0].split("FROM")[0].replace("clock_state", "")
        with statements(any_app) as seen:
            full = game_record.read(game_id)  # the state, asked for, is read
            assert isinstance(full.state, dict)
            assert game_record.read(game_id, with_state=False) is full
        assert len(seen) == 1, seen
        db.session.rollback()
        with statements(any_app) as seen:
            assert game_record.read(game_id) is not full
        assert len(seen) == 1, seen


def test_load_record_gives_the_engine_and_state(any_app, game_id):
    """``load_record`` answers as ``load`` does: the engine of the game's version and
    its state snapshot."""
    with any_app.app_context():
        record, engine, state = load_record(game_id)
        assert engine.id == "dark-horse" and state == get_game(game_id).state
        assert record.version == get_game(game_id).version


def test_no_such_game(any_app):
    """A game that does not exist is ``game-not-found``."""
    with any_app.app_context(), pytest.raises(NotFound) as raised:
        game_record.read("nope")
    assert raised.value.code == "game-not-found"


def test_a_write_reads_the_record_and_its_stored_answer_in_one_statement(any_app, game_id):
    """``read_with_answer`` (a move's edge): the record with its state and the answer
    stored for the scope and key, None when there is none; one SELECT, after which
    the record is the transaction's (a read costs nothing more)."""
    with any_app.app_context():
        db.session.add(
            IdempotentResponse(
                scope="seat:x", key="k" * 16, request_hash="h" * 64, status=201, body={"a": 1}
            )
        )
        db.session.commit()
        with statements(any_app) as seen:
            record, answer = game_record.read_with_answer(game_id, "seat:x", "k" * 16)
            assert game_record.read(game_id) is record
        assert len(seen) == 1, seen
        assert isinstance(record.state, dict) and [s.seat for s in record.seats] == [0, 1, 2]
        assert (answer.request_hash, answer.status, answer.body) == ("h" * 64, 201, {"a": 1})
        db.session.rollback()
        for scope, key in (("seat:y", "k" * 16), ("seat:x", "j" * 16)):
            again, none = game_record.read_with_answer(game_id, scope, key)
            assert none is None and again.version == record.version
        with pytest.raises(NotFound):
            game_record.read_with_answer("nope", "seat:x", "k" * 16)
