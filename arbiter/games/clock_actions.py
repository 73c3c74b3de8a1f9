"""What people do to a game's clock: the creator pauses, resumes and extends; a player
declares vacation. Each is a command (:class:`Pause`, :class:`Resume`,
:class:`Extend`, :class:`Vacation`) whose event is appended like a move (optimistic
concurrency; the channel's edge keeps the answer for an Idempotency-Key), and the
clocks follow from it (:func:`arbiter.games.clock.advance`). Bad input appends
nothing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from arbiter.accounts import identity
from arbiter.errors import Conflict, Unauthorized, Unprocessable
from arbiter.games import clock, events
from arbiter.games.commit import commit
from arbiter.games.games import load
from arbiter.games.moves import check_active
from arbiter.games.store import StaleVersion
from arbiter.games.transition import Transition, settle
from arbiter.models import Game
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import UnitOfWork
from engines.base import Engine

RETRIES = 5
"""How often an organiser's pause or resume that lost a race with a move is retried."""


def check_creator(game: Game, who) -> None:
    """Refuse a caller who did not create the game: neither its creator token nor a
    personal token (``games:create``) of the creating account.

    :raises Unauthorized: ``missing-token`` or ``not-creator``.
    """
    if who is None:
        raise Unauthorized(
            "This needs the creator token given when the game was created: "
            "send 'Authorization: Bearer <creator token>'.",
            code="missing-token",
        )
    if not identity.is_creator(game, who):
        raise Unauthorized(
            "Only the game's creator may do this, with the creator token.", code="not-creator"
        )


def _check_clocked(game: Game) -> None:
    """:raises Conflict: ``no-clock`` for a game without a time control."""
    if clock.config(game)["type"] == "none":
        raise Conflict(
            "This game has no time control: there is no clock to change.", code="no-clock"
        )


@dataclass(frozen=True)
class Pause:
    """Pause every clock of a game: ``caller`` is its creator (the creator token, or
    a principal of the creating account)."""

    game_id: str
    caller: Any


@dataclass(frozen=True)
class Resume:
    """Resume a paused game: ``caller`` as in :class:`Pause`."""

    game_id: str
    caller: Any


@dataclass(frozen=True)
class Extend:
    """Move deadlines ``seconds`` later: ``seat``'s, or (None) every seat's that owes a
    move; ``caller`` as in :class:`Pause`."""

    game_id: str
    caller: Any
    seconds: int
    seat: int | None = None


@dataclass(frozen=True)
class Vacation:
    """Stop the clock of ``caller``'s seat (a seat token, a grant, or a principal with
    ``games:play``) for ``days`` days."""

    game_id: str
    caller: Any
    days: int


@dataclass(frozen=True)
class ClockChanged:
    """A recorded clock event: its ``seq``, the game's ``version`` after it (and what
    the arbiter did right after), its ``kind``."""

    seq: int
    version: int
    kind: str


Loaded = tuple[Game, Engine, dict]
"""A game as read, its engine and its state (:func:`arbiter.games.games.load`)."""


def _append(uow: UnitOfWork, game, engine, state, event: events.GameEvent) -> ClockChanged:
    """Append one clock event and commit ``uow``.

    :raises arbiter.games.store.RaceLost: the game moved since it was read.
    """
    tr = Transition(game, engine, state)
    tr.events.append(event)
    settle(tr, game.resigned, roll=False)
    changed = ClockChanged(game.version + 1, game.version + len(tr.events), event.kind)
    commit(tr, uow=uow, result=changed)
    return changed


def pause(uow: UnitOfWork, command: Pause, loaded: Loaded | None = None) -> ClockChanged:
    """Pause every clock of the game (its creator); moves are still taken, clocks of
    new prompts start on resume. Commits ``uow``.

    :param loaded: the game as the channel's edge read it, else it is read here.
    :raises Unauthorized: ``missing-token``, ``not-creator``; :raises Conflict:
        ``game-over``, ``no-clock``, ``already-paused``; :raises
        arbiter.games.store.StaleVersion: the game moved meanwhile.
    """
    game, engine, state = loaded or load(command.game_id)
    check_creator(game, command.caller)
    check_active(game)
    _check_clocked(game)
    if (game.clock_state or {}).get("paused_at"):
        raise Conflict("The game is already paused.", code="already-paused")
    return _append(uow, game, engine, state, events.ClockPaused(by="creator"))


def resume(uow: UnitOfWork, command: Resume, loaded: Loaded | None = None) -> ClockChanged:
    """Resume a paused game (its creator): every running deadline moves later by the
    length of the pause. Commits ``uow``.

    :raises Unauthorized: ``missing-token``, ``not-creator``; :raises Conflict:
        ``game-over``, ``not-paused``; :raises arbiter.games.store.StaleVersion: the
        game moved meanwhile.
    """
    game, engine, state = loaded or load(command.game_id)
    check_creator(game, command.caller)
    check_active(game)
    paused_at = (game.clock_state or {}).get("paused_at")
    if not paused_at:
        raise Conflict("The game is not paused.", code="not-paused")
    seconds = (utcnow() - clock.parse(paused_at)).total_seconds()
    return _append(
        uow,
        game,
        engine,
        state,
        events.ClockResumed(by="creator", paused_at=paused_at, seconds=round(seconds, 3)),
    )


def extend(uow: UnitOfWork, command: Extend, loaded: Loaded | None = None) -> ClockChanged:
    """Move the deadline of ``command.seat`` (default: every seat that owes a move)
    ``command.seconds`` later (its creator). Commits ``uow``.

    :raises Unauthorized: ``missing-token``, ``not-creator``; :raises Conflict:
        ``game-over``, ``no-clock``, ``not-on-clock`` (the seat owes no move now);
        :raises Unprocessable: ``no-such-seat``; :raises
        arbiter.games.store.StaleVersion: the game moved meanwhile.
    """
    game, engine, state = loaded or load(command.game_id)
    check_creator(game, command.caller)
    check_active(game)
    _check_clocked(game)
    seat = command.seat
    clocks = (game.clock_state or {}).get("seats", [])
    running = {i for i, c in enumerate(clocks) if c["started"] is not None}
    if seat is not None and not 0 <= seat < len(game.seats):
        raise Unprocessable(f"This game has no seat {seat}.", code="no-such-seat")
    seats = sorted(running) if seat is None else [seat]
    if not seats or not set(seats) <= running:
        raise Conflict(
            "There is no running clock to extend: that seat owes no move now.",
            code="not-on-clock",
        )
    return _append(
        uow,
        game,
        engine,
        state,
        events.DeadlineExtended(reason="creator", seconds=command.seconds, seats=seats),
    )


def vacation(uow: UnitOfWork, command: Vacation, loaded: Loaded | None = None) -> ClockChanged:
    """Declare ``command.days`` of vacation for the caller's seat: its clock stops that
    long (a running deadline moves ``days`` later; a prompt that begins meanwhile
    starts its clock when the vacation ends). Taken from the seat's yearly allowance.
    Commits ``uow``.

    :raises arbiter.errors.Unauthorized, arbiter.errors.Forbidden: not a seat's token
        (:func:`arbiter.accounts.identity.seat_for`); :raises Conflict: ``game-over``,
        ``no-clock``; :raises Unprocessable: ``vacation-exceeds-allowance``; :raises
        arbiter.games.store.StaleVersion: the game moved meanwhile.
    """
    game, engine, state = loaded or load(command.game_id)
    seat = identity.seat_for(game, identity.as_principal(command.caller))
    days = command.days
    check_active(game)
    _check_clocked(game)
    now = utcnow()
    left = clock.vacation_left(game, seat.seat, now)
    if days > left:
        raise Unprocessable(
            f"You have {left} vacation day(s) left this year in this game; you asked for {days}.",
            code="vacation-exceeds-allowance",
        )
    current = clock.parse(game.clock_state["seats"][seat.seat]["vacation_until"])
    until = max(now, current) if current else now
    return _append(
        uow,
        game,
        engine,
        state,
        events.Vacation(
            seat=seat.seat,
            days=days,
            year=str(now.year),
            until=iso(until + timedelta(days=days)),
        ),
    )


def pause_for(game_id: str, by: str) -> bool:
    """Pause every clock of an active, clocked game for an organiser above its creator
    (a tournament paused as a whole, ``arbiter/tournaments/tournaments.py``): the same
    ``clock-paused`` event as :func:`pause`, with ``by`` in its payload. Return True
    when this call paused it (False: over, no clock, already paused)."""
    for _ in range(RETRIES):
        game, engine, state = load(game_id)
        if (
            game.status != "active"
            or clock.config(game)["type"] == "none"
            or (game.clock_state or {}).get("paused_at")
        ):
            return False
        try:
            _append(UnitOfWork(), game, engine, state, events.ClockPaused(by=by))
            return True
        except StaleVersion:
            continue
    return False


def resume_for(game_id: str, by: str) -> bool:
    """Resume a game paused by :func:`pause_for` (``clock-resumed``: every running
    deadline moves later by the pause's length). Return True when this call resumed
    it (False: over or not paused)."""
    for _ in range(RETRIES):
        game, engine, state = load(game_id)
        paused_at = (game.clock_state or {}).get("paused_at")
        if game.status != "active" or not paused_at:
            return False
        seconds = (utcnow() - clock.parse(paused_at)).total_seconds()
        try:
            _append(
                UnitOfWork(),
                game,
                engine,
                state,
                events.ClockResumed(by=by, paused_at=paused_at, seconds=round(seconds, 3)),
            )
            return True
        except StaleVersion:
            continue
    return False
