"""Submitting moves and resigning."""

from __future__ import annotations

from typing import Any

from arbiter import idempotency, metrics
from arbiter.accounts import identity
from arbiter.errors import ArbiterError, Conflict, Unprocessable
from arbiter.extensions import db
from arbiter.games import clock
from arbiter.games.commit import commit
from arbiter.games.games import load_with_answer
from arbiter.games.store import NewEvent, RaceLost, StaleVersion
from arbiter.games.transition import Transition, settle
from arbiter.models import Game, Invitation
from arbiter.models.timestamps import iso, utcnow
from engines.base import Decision, EngineError

MISSING = object()
"""No ``move`` in the request (``None`` is a JSON value a client may send)."""

RACE_RETRIES = 3
"""How often a move that lost a race is checked again against the new version."""


def check_version(game: Game, expected: int | None, seat: int | None = None) -> None:
    """Refuse a request made against another version than the game's.

    A seat may have moved against any version since the current prompt began
    (``prompt_since``): what happened since (other seats' answers to a simultaneous
    turn, clock events) does not change its choice, and a seat the prompt no longer
    waits for (it has answered this round) then gets the engine's reason
    (``already-answered``, ``not-your-turn``) rather than ``stale-version``.

    :raises StaleVersion: 409 ``stale-version``.
    """
    if expected is None or expected == game.version:
        return
    if seat is not None and game.prompt_since <= expected < game.version:
        # the seat saw the current prompt: one that owes it may answer; one that does
        # not (it has answered this round, or waits for others) is told so by the
        # engine (already-answered, not-your-turn), not sent to fetch it again
        return
    if expected > game.version:
        raise StaleVersion(
            f"There is no version {expected} yet: the game is at version {game.version}."
        )
    raise StaleVersion(
        f"You moved against version {expected}, but the game is at version "
        f"{game.version}; fetch it again and resubmit."
    )


def check_active(game: Game) -> None:
    """:raises Conflict: 409 ``game-over`` when the game has ended, ``game-not-started``
    while it waits (its sentence says for what: :func:`waiting_for`),
    ``game-cancelled``."""
    if game.status == "waiting":
        raise Conflict(f"The game has not started: {waiting_for(game)}.", code="game-not-started")
    if game.status == "cancelled":
        raise Conflict("The game was cancelled; no moves are taken.", code="game-cancelled")
    if game.status != "active":
        raise Conflict("The game is over; no more moves are taken.", code="game-over")


def waiting_for(game: Game) -> str:
    """Return what a waiting game waits for, as a clause: its invited players (pending
    invitations), its start time (``start_at``, UTC), or both."""
    pending = (
        db.session.query(Invitation.seat).filter_by(game_id=game.id, status="pending").first()
        is not None
    )
    start = iso(game.start_at) if game.start_at else None
    if pending and start:
        return f"it waits for its invited players, until {start} at the latest"
    if start:
        return f"it starts at {start}"
    return "it waits for its invited players"


def check_turn_clock(game: Game, seat: int) -> None:
    """Refuse a move once the seat's turn clock (an engine's Timer) has run out: the
    clock sweep plays the timeout move for it.

    :raises Conflict: 409 ``turn-time-up``.
    """
    due = clock.turn_expired(game, seat, utcnow())
    if due is not None:
        raise Conflict(
            f"Your turn's time ran out at {iso(due)}; the arbiter is ending "
            "your turn (its timeout move), so this move is not taken.",
            code="turn-time-up",
        )


def read_move(engine, state: dict, seat: int, move: Any, text: str | None) -> Any:
    """Return the move of a request: ``move`` as JSON, or ``text`` parsed by the engine.

    :raises Unprocessable: ``missing-move`` (neither) or ``move-and-text`` (both).
    :raises engines.base.InvalidMove: the text cannot be read.
    """
    if move is not MISSING and text is not None:
        raise Unprocessable("Send 'move' or 'text', not both.", code="move-and-text")
    if move is MISSING and text is None:
        raise Unprocessable(
            "Send either 'move' (as /legal-moves lists it) or 'text' (in the game's notation).",
            code="missing-move",
        )
    return move if move is not MISSING else engine.parse(text, state, seat)


def submit_move(
    game_id: str,
    token: identity.Principal | str | None,
    move: Any,
    expected_version: int | None,
    idempotency_key: str | None = None,
    text: str | None = None,
    body: Any = None,
    via: dict | None = None,
) -> tuple[int, dict]:
    """Validate and record a seat's move, given as JSON (``move``) or in the engine's
    notation (``text``, read against the state the move is checked on); return
    ``(201, {"seq", "version", ...})``.

    ``token`` is the caller: a principal (:mod:`arbiter.accounts.identity`) or a raw
    bearer token (seat token, or a personal token of the seat's account with
    ``games:play``). ``body`` is the request as sent (hashed for the Idempotency-Key). A move
    without
    ``expected_version`` that loses a race is retried as if made against the version
    it was first checked on, so it is never applied to another prompt. ``via`` says
    how the move came when not by REST (``{"channel": "mail", "message_id": ...}``);
    it is recorded in the move event's payload.

    :raises arbiter.errors.Unauthorized: missing or wrong token.
    :raises arbiter.errors.Forbidden: an account token without the scope or the seat.
    :raises StaleVersion: ``expected_version`` is no longer current (see
        :func:`check_version`); a move made against a current version that loses a race
        to another append is checked again, up to ``RACE_RETRIES`` times.
    :raises engines.base.EngineError: the move is unreadable or illegal.
    """
    request = (
        body
        if body is not None
        else {"move": move, "text": text, "expected_version": expected_version}
    )
    try:
        answer = _submit_with_retries(
            game_id, token, move, text, expected_version, idempotency_key, request, via
        )
    except (ArbiterError, EngineError) as refused:
        metrics.move_refused(refused.code)
        raise
    metrics.move_accepted()
    return answer


def _submit_with_retries(
    game_id: str,
    token: str | None,
    move: Any,
    text: str | None,
    expected_version: int | None,
    idempotency_key: str | None,
    request: Any,
    via: dict | None = None,
) -> tuple[int, dict]:
    """:func:`_submit`, checked again after a lost race (see :func:`submit_move`)."""
    for attempt in range(RACE_RETRIES + 1):
        try:
            return _submit(
                game_id, token, move, text, expected_version, idempotency_key, request, via
            )
        except RaceLost as lost:
            if attempt == RACE_RETRIES:
                raise
            if expected_version is None:
                expected_version = lost.read_version
    raise AssertionError("unreachable")


def _submit(
    game_id: str,
    token: str | None,
    move: Any,
    text: str | None,
    expected_version: int | None,
    idempotency_key: str | None,
    request: Any,
    via: dict | None = None,
) -> tuple[int, dict]:
    """Load the game and record the move once (see :func:`submit_move`).

    :raises RaceLost: with ``read_version``, the version this attempt checked against.
    """
    who = identity.as_principal(token)
    scope = idempotency.caller_scope(game_id, who)
    game, engine, state, known = load_with_answer(game_id, scope, idempotency_key)
    seat = identity.seat_for(game, who)

    def run(row):
        read_version = game.version
        check_active(game)
        check_version(game, expected_version, seat.seat)
        check_turn_clock(game, seat.seat)
        chosen = read_move(engine, state, seat.seat, move, text)
        tr = Transition(game, engine, state)
        tr.move(seat.seat, chosen, **({"via": via} if via else {}))
        seq = tr.next_seq - 1
        settle(tr, game.resigned, roll=False)
        after = tr.prompt() if tr.result is None else None
        answer = {
            "seq": seq,
            "version": game.version + len(tr.events),
            "status": "over" if tr.result else "active",
            "text": tr.events[0].payload["text"],
            "to_act": sorted(after.seats) if isinstance(after, Decision) else [],
        }
        try:
            commit(tr, [row(201, answer)])
        except RaceLost as lost:
            lost.read_version = read_version
            raise
        return 201, answer

    return idempotency.once(scope, idempotency_key, request, run, known, "POST moves")


def resign(
    game_id: str, token: identity.Principal | str | None, idempotency_key: str | None = None
) -> tuple[int, dict]:
    """Resign the token's seat; its later decisions are played by timeout moves and it
    ranks last; the game ends when at most one seat remains. Returns ``(201, {...})``.

    :raises Conflict: ``game-over`` or ``already-resigned``.
    """
    who = identity.as_principal(token)
    scope = idempotency.caller_scope(game_id, who)
    game, engine, state, known = load_with_answer(game_id, scope, idempotency_key)
    seat = identity.seat_for(game, who)

    def run(row):
        check_active(game)
        if seat.resigned:
            raise Conflict("You have already resigned from this game.", code="already-resigned")
        tr = Transition(game, engine, state)
        tr.events.append(NewEvent("resigned", seat.seat, {"name": seat.name}))
        seq = tr.next_seq - 1
        seat.resigned = True
        settle(tr, game.resigned, roll=False)
        answer = {
            "seq": seq,
            "version": game.version + len(tr.events),
            "status": "over" if tr.result else "active",
        }
        commit(tr, [r for r in [row(201, answer)] if r is not None])
        return 201, answer

    return idempotency.once(scope, idempotency_key, {"resign": True}, run, known, "POST resign")
