"""A game as the read routes see it: its row and seats as plain records, read with
SQLAlchemy Core in one SELECT (issue 26), run by :mod:`arbiter.models.first_row`.

A summary, a player's legal moves, a view, the events: every read of a game starts
by reading its row with its seats, and a script reads them several times per move.
The ORM's read of the row and its seats (``arbiter.games.loading.get_game``)
builds and tracks an instance per row, which a reader never writes; these records
cost about half its CPU. The seats come in the same SELECT, as one JSON array
(PostgreSQL's ``json_agg``, SQLite's ``json_group_array``).

A record has the columns of :class:`arbiter.models.Game` as attributes, the
:class:`arbiter.models.game.GameFacts` (``to_act``, ``has_open``, ``resigned``), and
``seats``, records with the columns of :class:`arbiter.models.Seat`: whatever reads a
game's attributes reads a record as it reads the row. A move over REST takes its game
as a record too (:func:`read_with_answer`, with the stored answer of its
Idempotency-Key): it writes only through :mod:`arbiter.games.store`, whose Core
statements set what they write on the record as on the row; nothing else writes
through one.

Records read in a transaction are kept by the session until that transaction ends
(commit, rollback or close), as its identity map keeps rows: the guard's read of the
game is the route's (``arbiter.resources.guard``).
"""

from __future__ import annotations

import functools
import json
from dataclasses import make_dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.orm import Session

from arbiter.errors import NotFound
from arbiter.extensions import db
from arbiter.models import first_row
from arbiter.models.game import Game, GameFacts, Seat
from arbiter.models.idempotency import IdempotentResponse

UNREAD = type("Unread", (), {"__repr__": lambda self: "UNREAD"})()
"""A record's ``state`` when it was read without it (``with_state=False``)."""

GAMES, SEATS = Game.__table__, Seat.__table__
"""The tables themselves: a statement of the mapped classes' attributes would take the
ORM's path (and its cost) even for plain columns."""
GAME_COLUMNS = tuple(GAMES.c)
SEAT_COLUMNS = tuple(SEATS.c)

SeatRecord = make_dataclass("SeatRecord", [c.key for c in SEAT_COLUMNS], slots=True)
"""A seat's columns, as attributes named as :class:`arbiter.models.Seat`'s."""

GameRecord = make_dataclass(
    "GameRecord", [c.key for c in GAME_COLUMNS] + ["seats"], bases=(GameFacts,), slots=True
)
"""A game's columns and its ``seats`` (:data:`SeatRecord`, by seat number)."""

AnswerRecord = make_dataclass(
    "AnswerRecord", ["request_hash", "status", "body"], slots=True, frozen=True
)
"""A stored answer's columns that :func:`arbiter.idempotency.stored` reads."""

ANSWERS = IdempotentResponse.__table__
ANSWER_COLUMNS = tuple(ANSWERS.c[name] for name in AnswerRecord.__dataclass_fields__)

HELD = "arbiter.records"
"""The key of the session's ``info`` under which it keeps the records it read."""


def read(game_id: str, with_state: bool = True):
    """Return the game ``game_id`` as a :data:`GameRecord` with its seats, in one
    SELECT (none when this transaction read it already).

    :param with_state: False leaves ``state`` :data:`UNREAD` (the large snapshot),
        for readers that need only the summary columns.
    :raises NotFound: ``game-not-found``.
    """
    held = db.session.info.setdefault(HELD, {})
    record = held.get(game_id)
    if record is None or (with_state and record.state is UNREAD):
        record = held[game_id] = _read(game_id, with_state)
    return record


def held(session: Session, game_id: str):
    """Return the record of ``game_id`` that ``session`` read in its transaction,
    None when it read none."""
    return session.info.get(HELD, {}).get(game_id)


def read_with_answer(game_id: str, scope: str, key: str):
    """Return ``(record, answer)``: the game as :func:`read` returns it (with its
    state) and the answer stored for ``(scope, key)`` (an :data:`AnswerRecord`, or
    None), in one SELECT: a write's edge reads both before the body is parsed
    (``arbiter.resources.guard``).

    :raises NotFound: ``game-not-found``.
    """
    dialect = db.session.get_bind().dialect.name
    params = {"game_id": game_id, "scope": scope, "key": key}
    values = first_row.first(_answered(dialect), params)
    if values is None:
        raise NotFound(f"There is no game {game_id!r}.", code="game-not-found")
    answer = [values.pop(f"answer_{c.key}") for c in ANSWER_COLUMNS]
    record = db.session.info.setdefault(HELD, {})[game_id] = _record(values, dialect, True)
    return record, None if answer[0] is None else AnswerRecord(*answer)


def _read(game_id: str, with_state: bool):
    """Read the game's row and seats (see the module); raise ``game-not-found``."""
    dialect = db.session.get_bind().dialect.name
    values = first_row.first(_statement(dialect, with_state), {"game_id": game_id})
    if values is None:
        raise NotFound(f"There is no game {game_id!r}.", code="game-not-found")
    return _record(values, dialect, with_state)


def _record(values: dict, dialect: str, with_state: bool):
    """Return the :data:`GameRecord` of a row's ``values`` (its seats as JSON)."""
    seats = values.pop("seats")
    if not with_state:
        values["state"] = UNREAD
    if dialect != "postgresql":  # SQLite's JSON: text, unordered, booleans 0 and 1
        seats = sorted((_typed(s) for s in json.loads(seats)), key=lambda s: s["seat"])
    return GameRecord(**values, seats=[SeatRecord(**s) for s in seats or ()])


@functools.cache
def _statement(dialect: str, with_state: bool) -> sa.Select:
    """The game's SELECT: its columns (``state`` only ``with_state``) and its seats
    as a JSON array ordered by seat (built once per pair)."""
    columns = [c for c in GAME_COLUMNS if with_state or c.key != "state"]
    statement = sa.select(*columns).where(GAMES.c.id == sa.bindparam("game_id"))
    return statement.add_columns(_seats_json(dialect).label("seats"))


@functools.cache
def _answered(dialect: str) -> sa.Select:
    """The game's SELECT with its state, and the columns of the answer stored for
    ``(:scope, :key)`` (NULL when there is none), joined outright (built once)."""
    stored = sa.and_(ANSWERS.c.scope == sa.bindparam("scope"), ANSWERS.c.key == sa.bindparam("key"))
    return (
        _statement(dialect, True)
        .outerjoin_from(GAMES, ANSWERS, stored)
        .add_columns(*(c.label(f"answer_{c.key}") for c in ANSWER_COLUMNS))
    )


def _seats_json(dialect: str):
    """The game's seats as one JSON array of objects, by seat number (a correlated
    scalar subquery)."""
    if dialect == "postgresql":
        pairs = [x for c in SEAT_COLUMNS for x in (_name(c), c)]
        each = sa.func.json_build_object(*pairs)
        return (
            sa.select(sa.func.json_agg(aggregate_order_by(each, SEATS.c.seat)))
            .where(SEATS.c.game_id == GAMES.c.id)
            .scalar_subquery()
        )
    pairs = [
        x
        for c in SEAT_COLUMNS
        for x in (_name(c), sa.func.json(c) if isinstance(c.type, sa.JSON) else c)
    ]
    return (
        sa.select(sa.func.json_group_array(sa.func.json_object(*pairs)))
        .where(SEATS.c.game_id == GAMES.c.id)
        .scalar_subquery()
    )


def _name(column: sa.Column):
    """Return ``column``'s name as a string literal written into the statement (a
    bound parameter would be sent, and bound, on every execution)."""
    return sa.literal_column(f"'{column.key}'")


BOOLEANS = tuple(c.key for c in SEAT_COLUMNS if isinstance(c.type, sa.Boolean))
"""The seat columns SQLite's JSON gives as 0 and 1."""


def _typed(seat: dict) -> dict:
    """Return a seat read from SQLite's JSON with its booleans as booleans."""
    for key in BOOLEANS:
        if seat[key] is not None:
            seat[key] = bool(seat[key])
    return seat


def _forget(session: Session, transaction) -> None:
    """Drop the records a session kept once its outermost transaction ends."""
    if transaction.parent is None:
        session.info.pop(HELD, None)


sa.event.listen(Session, "after_transaction_end", _forget)
