"""Submitting moves and resigning: the commands, their checks and their results.

A channel (REST route, web form, mail command) makes a :class:`SubmitMove` or a
:class:`Resign` and calls :func:`submit_move` or :func:`resign` with a
:class:`~arbiter.uow.UnitOfWork`; what follows the commit is the unit of work's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from arbiter import metrics
from arbiter.accounts import identity
from arbiter.errors import ArbiterError, Conflict, Unprocessable
from arbiter.extensions import db
from arbiter.games import autopilot, clock, events, naming
from arbiter.games.commit import commit
from arbiter.games.games import load, open_name
from arbiter.games.store import RaceLost, StaleVersion
from arbiter.games.transition import Transition, settle
from arbiter.models import Game, Invitation
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import UnitOfWork
from engines.base import Decision, Engine, EngineError

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
    if game.has_open:
        count = sum(1 for s in game.seats if s.open)
        more = "one more player" if count == 1 else f"{count} more players"
        invited = "its invited players and " if pending else ""
        return f"it waits for {invited}{more} to take a seat in the lobby" + (
            f", until {start} at the latest" if start else ""
        )
    if pending and start:
        return f"it waits for its invited players, until {start} at the latest"
    if start:
        return f"it starts at {start}"
    return "it waits for its invited players"


def cancelled_because(game: Game) -> str:
    """Return why a cancelled game never started, as a clause naming the players:
    who declined the invitation, who did not answer in time, an open seat nobody took."""
    names = {s.seat: s.name for s in game.seats}
    answers = db.session.query(Invitation.seat, Invitation.status).filter_by(game_id=game.id)
    said = {seat: status for seat, status in answers}
    parts = []
    for status, words in (
        ("declined", "declined the invitation"),
        ("expired", "did not answer the invitation in time"),
    ):
        who = [names[s] for s in sorted(said) if said[s] == status and s in names]
        if who:
            parts.append(f"{naming.joined(who, most=len(who))} {words}")
    if any(s.name == open_name(s.seat) for s in game.seats if s.seat not in said):
        parts.append("nobody took the open seat in the lobby")
    return "; ".join(parts) or "a seat stayed empty"


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


@dataclass(frozen=True)
class Notation:
    """A move written in the game's notation (``engine.parse``), read against the
    state it is checked on."""

    text: str


@dataclass(frozen=True)
class SubmitMove:
    """A seat's move, from any channel.

    :param caller: a principal (:mod:`arbiter.accounts.identity`) or a raw bearer
        token (seat token, or a personal token of the seat's account with
        ``games:play``).
    :param move: the move as JSON (as ``/legal-moves`` lists it; ``None`` is a JSON
        value too), or a :class:`Notation`.
    :param expected_version: the version the move was made against (see
        :func:`check_version`); None: the version it is first checked on.
    :param via: how the move came when not by REST (``{"channel": "mail",
        "message_id": ...}``), recorded in the move event's payload.
    """

    game_id: str
    caller: Any
    move: Any
    expected_version: int | None = None
    via: dict | None = None


@dataclass(frozen=True)
class MoveAccepted:
    """A recorded move: its event's ``seq``, the game's ``version`` after it (and what
    the arbiter did right after: timeout moves of resigned seats, the end), its
    ``status`` (``active`` | ``over``), the move in words, the seats to act now."""

    seq: int
    version: int
    status: str
    text: str
    to_act: list[int]


@dataclass(frozen=True)
class Resign:
    """A seat's resignation: ``caller`` as in :class:`SubmitMove`."""

    game_id: str
    caller: Any


@dataclass(frozen=True)
class Resigned:
    """A recorded resignation: its event's ``seq``, the game's ``version`` and
    ``status`` after it."""

    seq: int
    version: int
    status: str


Loaded = tuple[Game, Engine, dict]
"""A game as read, its engine and its state (:func:`arbiter.games.games.load`)."""


def move_of(fields: dict) -> Any:
    """Return the move a request's ``fields`` give: ``move`` (JSON) or ``text`` (a
    :class:`Notation`).

    :raises Unprocessable: ``missing-move`` (neither) or ``move-and-text`` (both).
    """
    if "move" in fields and fields.get("text") is not None:
        raise Unprocessable("Send 'move' or 'text', not both.", code="move-and-text")
    if "move" in fields:
        return fields["move"]
    if fields.get("text") is None:
        raise Unprocessable(
            "Send either 'move' (as /legal-moves lists it) or 'text' (in the game's notation).",
            code="missing-move",
        )
    return Notation(fields["text"])


def submit_move(uow: UnitOfWork, command: SubmitMove, loaded: Loaded | None = None) -> MoveAccepted:
    """Validate and record a seat's move; commit ``uow``.

    ``loaded`` is the game as the channel's edge read it (its guard authenticates
    against it), else it is read here. A move without ``expected_version`` that loses
    a race is checked again as if made against the version it was first checked on,
    so it is never applied to another prompt.

    :raises arbiter.errors.Unauthorized: missing or wrong token.
    :raises arbiter.errors.Forbidden: an account token without the scope or the seat.
    :raises arbiter.games.store.StaleVersion: ``expected_version`` is no longer
        current (:func:`check_version`); a move that loses a race to another append is
        checked again, up to ``RACE_RETRIES`` times.
    :raises engines.base.EngineError: the move is unreadable or illegal.
    """
    try:
        accepted = _with_retries(uow, command, loaded, _move)
    except (ArbiterError, EngineError) as refused:
        metrics.move_refused(refused.code)
        raise
    metrics.move_accepted()
    return accepted


def _with_retries(uow: UnitOfWork, command, loaded: Loaded | None, attempt):
    """Run ``attempt(uow, command, loaded)``, again on a lost race (see
    :func:`submit_move`), unless a twin request answered meanwhile."""
    for tries in range(RACE_RETRIES + 1):
        try:
            return attempt(uow, command, loaded or load(command.game_id))
        except RaceLost as lost:
            if tries == RACE_RETRIES:
                raise
            uow.replayed()
            loaded = None
            if getattr(command, "expected_version", 0) is None:
                command = replace(command, expected_version=lost.read_version)
    raise AssertionError("unreachable")


def _move(uow: UnitOfWork, command: SubmitMove, loaded: Loaded) -> MoveAccepted:
    """Check and record the move once against the game as ``loaded``.

    :raises RaceLost: with ``read_version``, the version this attempt checked against.
    """
    game, engine, state = loaded
    seat = identity.seat_for(game, identity.as_principal(command.caller))
    read_version = game.version
    check_active(game)
    check_version(game, command.expected_version, seat.seat)
    check_turn_clock(game, seat.seat)
    move = command.move
    chosen = engine.parse(move.text, state, seat.seat) if isinstance(move, Notation) else move
    tr = Transition(game, engine, state)
    autopilot.take_back(tr, seat, command.via)
    tr.move(seat.seat, chosen, **({"via": command.via} if command.via else {}))
    seq = tr.next_seq - 1
    text = tr.events[-1].payload["text"]
    settle(tr, game.resigned, roll=False)
    after = tr.prompt() if tr.result is None else None
    accepted = MoveAccepted(
        seq=seq,
        version=game.version + len(tr.events),
        status="over" if tr.result else "active",
        text=text,
        to_act=sorted(after.seats) if isinstance(after, Decision) else [],
    )
    try:
        commit(tr, uow=uow, result=accepted)
    except RaceLost as lost:
        lost.read_version = read_version
        raise
    return accepted


def resign(uow: UnitOfWork, command: Resign, loaded: Loaded | None = None) -> Resigned:
    """Resign the caller's seat; its later decisions are played by timeout moves and
    it ranks last; the game ends when at most one seat remains. Commits ``uow``.

    :raises Conflict: ``game-over`` or ``already-resigned``.
    """
    game, engine, state = loaded or load(command.game_id)
    seat = identity.seat_for(game, identity.as_principal(command.caller))
    check_active(game)
    if seat.resigned:
        raise Conflict("You have already resigned from this game.", code="already-resigned")
    tr = resignation(game, engine, state, seat.seat)
    resigned = Resigned(
        seq=game.version + 1,
        version=game.version + len(tr.events),
        status="over" if tr.result else "active",
    )
    commit(tr, uow=uow, result=resigned)
    return resigned


def resignation(game: Game, engine: Engine, state: Any, seat: int, **extra: Any) -> Transition:
    """Return the settled transition of ``seat`` resigning (its ``resigned`` event,
    with ``extra`` in its payload, first; the seat marked resigned), not written: the
    player's own (:func:`resign`) or a deleted bot account's
    (:mod:`arbiter.games.deleted_bots`)."""
    tr = Transition(game, engine, state)
    tr.events.append(events.Resigned(seat=seat, name=game.seats[seat].name, **extra))
    game.seats[seat].resigned = True
    settle(tr, game.resigned, roll=False)
    return tr
