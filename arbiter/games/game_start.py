"""Starting (or cancelling) a game that waits for its invited seats.

:func:`settle` is called after every answer to an invitation and by the beat sweep at a
game's ``start_at``; it applies the rules of :mod:`arbiter.games.invitations`. A
start appends ``game-started`` (and ``clock-resumed`` when the clock was held), makes
the game active, and queues the "your turn" mails of its current prompt to the seats
that may be mailed; a cancellation appends ``game-cancelled``. Both are events in the
game's log like any other, appended with optimistic concurrency.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import clock, events, notify
from arbiter.games.commit import commit
from arbiter.games.loading import load
from arbiter.games.store import StaleVersion
from arbiter.games.transition import Transition
from arbiter.models import Game, Invitation
from arbiter.models.timestamps import utcnow
from arbiter.uow import UnitOfWork


def settle(game_id: str, at_start_time: bool = False) -> str:
    """Start, cancel or leave waiting the game ``game_id``, in a unit of work of its own
    (read again and retried when the game moved meanwhile); return its status
    (``active``, ``cancelled``, ``waiting``, or whatever it had when it no longer
    waited). Raises nothing of its own.

    :param at_start_time: the game's ``start_at`` has come: unanswered seats count as
        unfilled (their invitations expire).
    """
    game, engine, state = load(game_id)
    if game.status != "waiting":
        return game.status
    invitations = db.session.query(Invitation).filter_by(game_id=game_id).all()
    pending = [i for i in invitations if i.status == "pending"]
    refused = [i for i in invitations if i.status in ("declined", "expired")]
    open_seats = [s.seat for s in game.seats if s.open]
    if at_start_time:
        refused, pending = refused + pending, []
    elif open_seats:
        return "waiting"  # a public table waits until it is full (arbiter.games.lobby)
    if (refused or open_seats) and game.unfilled == "cancel":
        return _finish(game, engine, state, pending + refused, "cancelled", open_seats)
    if pending:
        return "waiting"
    return _finish(game, engine, state, refused, "active", open_seats)


def _finish(game, engine, state, unanswered: list[Invitation], status: str, open_seats=()) -> str:
    """Append the start or the cancellation; expire unanswered invitations (seats in
    ``open_seats``, nobody took them, count as unfilled too)."""
    tr = Transition(game, engine, state)
    unfilled = sorted([i.seat for i in unanswered] + list(open_seats))
    if status == "cancelled":
        tr.events.append(events.GameCancelled(reason="unfilled seats", unfilled=unfilled))
    else:
        tr.events.append(events.GameStarted(unfilled=unfilled))
        if (game.clock_state or {}).get("paused_at"):
            tr.events.append(events.ClockResumed(by="invitations"))
    for seat in game.seats:
        seat.open = False  # an open seat nobody took is unfilled now
    for invitation in unanswered:
        if invitation.status == "pending":
            invitation.status = "expired"
    extra = []
    if status == "active" and game.prompt.get("type") == "decision":
        extra = notify.turn_mails(
            game,
            engine,
            state,
            engine.prompt(state),
            game.prompt_since,
            clock.running(clock.config(game), game.clock_state or {}),
        )
    try:
        commit(tr, extra, status=status, uow=UnitOfWork())
    except StaleVersion:
        db.session.rollback()
        return settle(game.id)
    return status


def start_due(now=None) -> int:
    """Settle every waiting game whose ``start_at`` has come; return how many.

    A game whose row another session holds (``FOR UPDATE SKIP LOCKED``: a host that
    died mid-transaction) is left to the next sweep rather than waited for."""
    done = 0
    ids = due_starts(now or utcnow(), skip_locked=True)
    db.session.commit()  # the lock only sorted out the games another session holds
    for game_id in ids:
        settle(game_id, at_start_time=True)
        done += 1
    return done


def due_starts(now: datetime, limit: int = 200, skip_locked: bool = False) -> list[str]:
    """Return ids of waiting games whose ``start_at`` has come (``skip_locked``: but
    those whose row another session holds, locking the others until the caller's
    transaction ends)."""
    query = (
        sa.select(Game.id)
        .where(Game.status == "waiting", Game.start_at <= now)
        .order_by(Game.start_at)
        .limit(limit)
    )
    if skip_locked:
        query = query.with_for_update(skip_locked=True)
    return list(db.session.scalars(query))
