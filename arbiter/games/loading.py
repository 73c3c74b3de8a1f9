"""Reading a game: the row with its seats, its engine and its current state.

:func:`load` is what every write path starts from (a move, a resignation, the clock, a
game's start); it lives below creation (:mod:`arbiter.games.games`, which invites
seats) so that those modules need not import creation, nor creation them (no import
cycle: DESIGN.md, "Layout").
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import defer, joinedload

import engines
from arbiter.errors import NotFound
from arbiter.extensions import db
from arbiter.games import events
from arbiter.models import Event, Game, IdempotentResponse, game_record
from engines.base import Engine, Input, fold

WITH_SEATS = (joinedload(Game.seats),)
"""The loader options of a game read with its seats, built once (options are
immutable)."""
BY_ID = {
    True: sa.select(Game).options(*WITH_SEATS).where(Game.id == sa.bindparam("game_id")),
    False: sa.select(Game)
    .options(joinedload(Game.seats), defer(Game.state))
    .where(Game.id == sa.bindparam("game_id")),
}
""":func:`get_game`'s SELECT, with the state (True) or without (False): built once,
so its cache key is computed once (``Session.get`` builds a new statement, and
computes its key, on every call)."""


def get_game(game_id: str, with_state: bool = True) -> Game:
    """Return the game ``game_id`` with its seats, in one SELECT (none when the
    session holds it already, unexpired, as ``Session.get`` would).

    :param with_state: False leaves the (large) state snapshot unread until it is
        first used, for readers that need only the summary columns.
    :raises NotFound: ``game-not-found``.
    """
    held = db.session.identity_map.get(sa.inspect(Game).identity_key_from_primary_key([game_id]))
    if held is not None and not sa.inspect(held).expired:
        return held
    game = db.session.execute(BY_ID[with_state], {"game_id": game_id}).unique().scalar_one_or_none()
    if game is None:
        raise NotFound(f"There is no game {game_id!r}.", code="game-not-found")
    return game


def load_with_answer(
    game_id: str, scope: str, key: str | None
) -> tuple[Game, Engine, dict, IdempotentResponse | None]:
    """Return what :func:`load` does and the stored answer of ``(scope, key)`` (or
    None), read together in one SELECT: a channel's edge reads both before the body
    is parsed (its guard authenticates against the game), and hands the game to the
    context function, so a move's write path stays at one read.

    :raises NotFound: ``game-not-found``.
    """
    if key is None:
        return (*load(game_id), None)
    stored = IdempotentResponse
    query = (
        sa.select(Game, stored)
        .where(Game.id == game_id)
        .outerjoin(stored, sa.and_(stored.scope == scope, stored.key == key))
        .options(*WITH_SEATS)
    )
    row = db.session.execute(query).unique().first()
    if row is None:
        raise NotFound(f"There is no game {game_id!r}.", code="game-not-found")
    return (*_current(row[0]), row[1])


def load_record_with_answer(
    game_id: str, scope: str, key: str | None
) -> tuple[object, Engine, dict, object | None]:
    """Return what :func:`load_with_answer` does, the game read as a record
    (:func:`arbiter.models.game_record.read_with_answer`) and the stored answer as an
    :data:`~arbiter.models.game_record.AnswerRecord`, in one SELECT: for a write that
    changes only the log, the snapshot and a seat through
    :func:`arbiter.games.store.update_seat` (a move). A game whose engine version this
    code no longer plays is loaded by :func:`load_with_answer` (the row).

    :raises NotFound: ``game-not-found``.
    """
    if key is None:
        return (*load_record(game_id), None)
    record, answer = game_record.read_with_answer(game_id, scope, key)
    recorded = engines.at_version(record.engine, record.engine_version)
    if recorded is None:
        return load_with_answer(game_id, scope, key)
    return record, recorded, record.state, answer


def load(game_id: str) -> tuple[Game, Engine, dict]:
    """Return the game, its engine and its current state (see :func:`_current`)."""
    return _current(get_game(game_id))


def load_record(game_id: str) -> tuple[object, Engine, dict]:
    """Return ``(game, engine, state)`` as :func:`load` does, the game read as a record
    (:func:`arbiter.models.game_record.read`: the read routes'); a game whose engine
    version this code no longer plays is loaded by :func:`load` (which renews its
    snapshot), its game then the row.

    :raises NotFound: ``game-not-found``.
    """
    record = game_record.read(game_id)
    recorded = engines.at_version(record.engine, record.engine_version)
    if recorded is None:
        return load(game_id)
    return record, recorded, record.state


def _current(game: Game) -> tuple[Game, Engine, dict]:
    """Return ``game``, its engine and its state.

    A game keeps the rules of the engine version it was created with: when the engine
    still plays that version (:meth:`engines.base.Engine.at_version`), the state is the
    game row's snapshot and the engine returned is the one of that version. When this
    code no longer plays it, the log is folded again under today's rules and the
    snapshot (state, prompt, version) is rewritten, once, if the game has not moved
    meanwhile.
    """
    recorded = engines.at_version(game.engine, game.engine_version)
    if recorded is not None:
        return game, recorded, game.state
    game_id = game.id
    engine = engines.get(game.engine)
    state = replay(game, engine)
    renew_snapshot(game, engine, state)
    return get_game(game_id), engine, state


def renew_snapshot(game: Game, engine: Engine, state: dict) -> None:
    """Store ``state`` folded by ``engine`` as the game's snapshot, with its prompt,
    unless another append moved the game on (then the next load folds again)."""
    prompt = game.prompt if game.status == "over" else engine.prompt(state).to_json()
    db.session.execute(
        sa.update(Game)
        .where(Game.id == game.id, Game.version == game.version)
        .values(
            state=state, engine_version=engine.version, prompt=prompt, prompt_type=prompt["type"]
        )
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    db.session.expire(game)


def inputs_of(rows: list[Event]) -> list[Input]:
    """Return the engine inputs (moves and chance outcomes) among logged events,
    leaving out those an agreed undo named (``moves-undone``: the log keeps them, the
    state is the fold without them; issue 24, item 3)."""
    undone = events.undone_seqs(rows)
    out = []
    for e in rows:
        if e.seq in undone:
            continue
        if e.kind == "move":
            out.append(Input("move", e.seat, e.payload["move"]))
        elif e.kind == "chance":
            out.append(Input("chance", None, e.payload["outcome"]))
    return out


def replay(game: Game, engine: Engine) -> dict:
    """Fold the game's whole log with ``engine`` and return the state."""
    rows = db.session.scalars(sa.select(Event).where(Event.game_id == game.id).order_by(Event.seq))
    return fold(engine, len(game.seats), game.options, inputs_of(list(rows)))
