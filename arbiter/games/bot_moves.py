"""Bots move from the game worker: a bot seat is prompted like any seat.

After every transition that leaves a game waiting for a decision of a seat a bot plays
(a bot seat, or one the autopilot holds: :func:`arbiter.games.bot_seats.bot_of_seat`),
:func:`bot_turns` (a staged handler, :mod:`arbiter.follow_ups`) names the task
``queue.PLAY_BOT`` (on the game worker's ``chance`` queue) with the game's id and the
version it waits at; it is enqueued once the transaction has committed. The task
(:func:`play_bot`) reads the game again and, if it is still at that version, asks the
seat's bot for a move given the seat's view and legal moves only
(:func:`arbiter.games.autopilot.choose_for`), and submits it through the same write path
as a person's (:class:`arbiter.games.moves.SubmitMove`, with the version as
``expected_version``): the ``move`` event's payload says ``via: {"channel": "bot",
"bot": {"kind", "level"}}`` (and ``"autopilot": true`` for the autopilot).

One task moves one seat: in a simultaneous turn with several bot seats, each move's
commit names the task for the next, so every task is small and idempotent (a task that
finds the game past its version, or no bot to move, does nothing). A bot never waits
for a beat sweep; a task lost with the broker is found again by :func:`stalled_bots`
(the chance sweep enqueues those too).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import sqlalchemy as sa

from arbiter import queue
from arbiter.accounts import identity
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.games import autopilot, bot_seats, moves
from arbiter.games.games import load
from arbiter.models import Game, Seat
from arbiter.models.timestamps import utcnow
from arbiter.uow import Appended, UnitOfWork
from engines.base import EngineError

log = logging.getLogger(__name__)


def bot_turns(uow: UnitOfWork, appended: Appended) -> None:
    """Staged handler (:mod:`arbiter.follow_ups`): when the game now waits for a
    decision of a seat a bot plays, name ``queue.PLAY_BOT`` with the game and its
    version, enqueued after the commit. (Staged, not committed: the seats are read
    here, in the transaction, rather than loaded again once it has committed.)"""
    prompt = appended.prompt
    if prompt.get("type") != "decision" or appended.result is not None:
        return
    if _bot_seat(appended.game, prompt.get("seats", [])) is not None:
        uow.enqueue(queue.PLAY_BOT, appended.game_id, appended.version)


def _bot_seat(game: Game, seats: list[int]) -> Seat | None:
    """Return the first of ``seats`` that a bot plays now, else None."""
    by_number = {s.seat: s for s in game.seats}
    for number in sorted(seats):
        seat = by_number.get(number)
        if seat is not None and bot_seats.bot_of_seat(seat) is not None:
            return seat
    return None


def play_bot(game_id: str, version: int) -> int:
    """Move one bot seat of ``game_id`` if the game is still at ``version`` and waits
    for it (see the module); return the seat moved, or -1 (nothing to do: stale, over,
    no bot to act, or another move came first).

    Raises nothing of its own: a refused move is logged (the bot then plays the
    engine's timeout move instead, so a game of bots never stalls on a bot's mistake).
    """
    game, engine, state = load(game_id)
    if game.version != version or game.status != "active" or not game.to_act:
        return -1
    seat = _bot_seat(game, game.to_act)
    if seat is None:
        return -1
    bot = bot_seats.bot_of_seat(seat)
    chosen = autopilot.choose_for(engine, state, game_id, version, seat.seat, bot)
    for move in (chosen, engine.timeout_move(state, seat.seat)):
        command = moves.SubmitMove(
            game_id,
            identity.seat_grant(game_id, seat.seat),
            move,
            expected_version=version,
            via=autopilot.via(bot, not seat.bot),
        )
        try:
            moves.submit_move(UnitOfWork(), command)
            return seat.seat
        except EngineError as refused:  # the bot's mistake: its timeout move instead
            db.session.rollback()
            log.warning("bot %s in game %s: %s; its timeout move instead", bot, game_id, refused)
        except ArbiterError as refused:  # stale, over: another move came first
            db.session.rollback()
            log.info("bot move in game %s at %s not taken: %s", game_id, version, refused)
            return -1
    return -1


def stalled_bots(older_than_seconds: float) -> list[tuple[str, int]]:
    """Return ``(game_id, version)`` of active games waiting for a decision since longer
    than ``older_than_seconds`` whose seats to act include one a bot plays (a task lost
    with the broker)."""
    cutoff = datetime.fromtimestamp(utcnow().timestamp() - older_than_seconds, UTC)
    with_bots = sa.or_(Seat.bot.is_not(None), Seat.autopilot.is_not(None))
    games = db.session.scalars(
        sa.select(Game)
        .where(
            Game.prompt_type == "decision",
            Game.status == "active",
            Game.updated_at < cutoff,
            Game.seats.any(with_bots),
        )
        .limit(500)
    )
    return [(g.id, g.version) for g in games if _bot_seat(g, g.to_act) is not None]
