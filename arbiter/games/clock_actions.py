"""What people do to a game's clock: the creator pauses, resumes and extends; a player
declares vacation. Each is an event in the log, appended like a move (optimistic
concurrency, ``Idempotency-Key``), and the clocks follow from it
(:func:`arbiter.games.clock.advance`). Bad input appends nothing."""

from __future__ import annotations

from datetime import timedelta

from arbiter import idempotency
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


def _append(game, engine, state, event: events.GameEvent, row) -> tuple[int, dict]:
    """Append one clock event, commit, and return ``(201, answer)``."""
    tr = Transition(game, engine, state)
    tr.events.append(event)
    settle(tr, game.resigned, roll=False)
    answer = {"seq": game.version + 1, "version": game.version + len(tr.events), "kind": event.kind}
    commit(tr, [r for r in [row(201, answer)] if r is not None])
    return 201, answer


def pause(game_id: str, token: str | None, idempotency_key: str | None = None) -> tuple[int, dict]:
    """Pause every clock of the game (creator token); moves are still taken, clocks of
    new prompts start on resume. Returns ``(201, {"seq", "version", "kind"})``.

    :raises Conflict: ``game-over``, ``no-clock``, ``already-paused``.
    """
    game, engine, state = load(game_id)
    check_creator(game, token)

    def run(row):
        check_active(game)
        _check_clocked(game)
        if (game.clock_state or {}).get("paused_at"):
            raise Conflict("The game is already paused.", code="already-paused")
        return _append(game, engine, state, events.ClockPaused(by="creator"), row)

    return idempotency.once(
        f"creator:{game.id}", idempotency_key, {"pause": True}, run, route="POST pause"
    )


def resume(game_id: str, token: str | None, idempotency_key: str | None = None) -> tuple[int, dict]:
    """Resume a paused game (creator token): every running deadline moves later by the
    length of the pause. Returns ``(201, {...})``.

    :raises Conflict: ``game-over``, ``not-paused``.
    """
    game, engine, state = load(game_id)
    check_creator(game, token)

    def run(row):
        check_active(game)
        paused_at = (game.clock_state or {}).get("paused_at")
        if not paused_at:
            raise Conflict("The game is not paused.", code="not-paused")
        seconds = (utcnow() - clock.parse(paused_at)).total_seconds()
        return _append(
            game,
            engine,
            state,
            events.ClockResumed(by="creator", paused_at=paused_at, seconds=round(seconds, 3)),
            row,
        )

    return idempotency.once(
        f"creator:{game.id}", idempotency_key, {"resume": True}, run, route="POST resume"
    )


def extend(
    game_id: str,
    token: str | None,
    seconds: int,
    seat: int | None = None,
    idempotency_key: str | None = None,
) -> tuple[int, dict]:
    """Move the deadline of ``seat`` (default: every seat that owes a move) ``seconds``
    later (creator token). Returns ``(201, {...})``.

    :raises Conflict: ``game-over``, ``no-clock``, ``not-on-clock`` (the seat owes no
        move now).
    :raises Unprocessable: ``no-such-seat``.
    """
    game, engine, state = load(game_id)
    check_creator(game, token)

    def run(row):
        check_active(game)
        _check_clocked(game)
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
            game,
            engine,
            state,
            events.DeadlineExtended(reason="creator", seconds=seconds, seats=seats),
            row,
        )

    return idempotency.once(
        f"creator:{game.id}",
        idempotency_key,
        {"seconds": seconds, "seat": seat},
        run,
        route="POST extend",
    )


def vacation(
    game_id: str, token: str | None, days: int, idempotency_key: str | None = None
) -> tuple[int, dict]:
    """Declare ``days`` of vacation for the token's seat: its clock stops that long
    (a running deadline moves ``days`` later; a prompt that begins meanwhile starts its
    clock when the vacation ends). Taken from the seat's yearly allowance.

    :raises Conflict: ``game-over``, ``no-clock``.
    :raises Unprocessable: ``vacation-exceeds-allowance``.
    """
    game, engine, state = load(game_id)
    who = identity.as_principal(token)
    seat = identity.seat_for(game, who)

    def run(row):
        check_active(game)
        _check_clocked(game)
        now = utcnow()
        left = clock.vacation_left(game, seat.seat, now)
        if days > left:
            raise Unprocessable(
                f"You have {left} vacation day(s) left this year in this "
                f"game; you asked for {days}.",
                code="vacation-exceeds-allowance",
            )
        current = clock.parse(game.clock_state["seats"][seat.seat]["vacation_until"])
        until = max(now, current) if current else now
        return _append(
            game,
            engine,
            state,
            events.Vacation(
                seat=seat.seat,
                days=days,
                year=str(now.year),
                until=iso(until + timedelta(days=days)),
            ),
            row,
        )

    return idempotency.once(
        idempotency.caller_scope(game.id, who),
        idempotency_key,
        {"days": days},
        run,
        route="POST vacation",
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
            _append(game, engine, state, events.ClockPaused(by=by), lambda *_: None)
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
                game,
                engine,
                state,
                events.ClockResumed(by=by, paused_at=paused_at, seconds=round(seconds, 3)),
                lambda *_: None,
            )
            return True
        except StaleVersion:
            continue
    return False
