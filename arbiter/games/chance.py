"""Rolling dice and drawing cards: the worker's side of a game."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import sqlalchemy as sa

from arbiter import queue
from arbiter.extensions import db
from arbiter.games.commit import commit
from arbiter.games.loading import load_record
from arbiter.games.store import StaleVersion
from arbiter.games.transition import Transition, settle
from arbiter.models import Game
from arbiter.models.timestamps import utcnow
from arbiter.uow import Committed, UnitOfWork

log = logging.getLogger(__name__)


def advance_chance(game_id: str, version: int, uow: UnitOfWork | None = None) -> int:
    """Resolve every pending chance of a game that is still at ``version``, and commit
    ``uow`` (a new one by default): the worker's roll (``RESOLVE_CHANCE``), whose
    task carries the game and the version it waits at.

    Idempotent: a game that has moved past ``version``, or that does not wait for
    chance, is left alone, as is one that moves on before the roll is written.
    Returns the number of events appended (0 for a no-op); raises nothing of its own.
    The game is read as a record (:func:`arbiter.games.loading.load_record`: a roll
    writes only through the store), in one SELECT.
    """
    game, engine, state = load_record(game_id)
    if game.version != version or game.prompt.get("type") != "chance" or game.status != "active":
        return 0
    tr = Transition(game, engine, state)
    settle(tr, game.resigned, roll=True)
    try:
        commit(tr, uow=uow)
    except StaleVersion:
        log.info("game %s moved on before its roll at version %s", game_id, version)
        return 0
    return len(tr.events)


def stalled_chances(older_than_seconds: float) -> list[tuple[str, int]]:
    """Return ``(game_id, version)`` of games waiting for chance since longer than
    ``older_than_seconds`` (a lost task, a broker outage)."""
    cutoff = datetime.fromtimestamp(utcnow().timestamp() - older_than_seconds, UTC)
    rows = db.session.execute(
        sa.select(Game.id, Game.version).where(
            Game.prompt_type == "chance", Game.status == "active", Game.updated_at < cutoff
        )
    ).all()
    return [(r.id, r.version) for r in rows]


def roll_next(done: Committed) -> None:
    """Committed handler (:mod:`arbiter.follow_ups`): enqueue the roll of each game
    that now waits for chance, with the version it waits at."""
    for a in done.appended:
        if a.prompt["type"] == "chance":
            queue.enqueue(queue.RESOLVE_CHANCE, a.game_id, a.version)
