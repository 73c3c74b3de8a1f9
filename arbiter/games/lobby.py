"""Public tables: a game created with open seats waits in the lobby until anyone
signed in has taken each of them, then starts (issue 23, item 1).

A creator marks a player ``open`` (``{"open": true}`` in ``POST /v1/games``, "anyone"
on the new-game page); the game waits (``status = "waiting"``, clocks held) like a
game with invitations, and :func:`open_tables` lists it. :func:`take_seat` (the page,
``POST /v1/games/{id}/seats``, the mail command ``join``) gives the first open seat to
an account: a ``seat-joined`` event in the game's log, appended with optimistic
concurrency (two people racing for the last seat: one gets it, the other is told the
table is full). When no seat is open and no invitation pending, the game starts
(:func:`arbiter.games.game_start.settle`). At a ``start_at``, open seats nobody took
count as unfilled seats (the game's ``unfilled`` policy).
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from arbiter.errors import Conflict, Unauthorized
from arbiter.extensions import db
from arbiter.games import events, game_start
from arbiter.games.commit import commit
from arbiter.games.loading import WITH_SEATS, load
from arbiter.games.store import StaleVersion
from arbiter.games.transition import Transition
from arbiter.models import Account, Game, Seat
from arbiter.uow import UnitOfWork

MAX_TABLES = 100
"""The lobby lists at most this many tables (the oldest waiting first)."""


@dataclass(frozen=True)
class TakeSeat:
    """Taking an open seat of ``game_id`` as ``account`` (a signed-in person)."""

    game_id: str
    account: Account


@dataclass(frozen=True)
class SeatTaken:
    """A taken seat: the game, the seat, the name it plays under, and the game's
    ``status`` after it (``active`` when this seat filled the table)."""

    game_id: str
    seat: int
    name: str
    status: str


def open_tables(limit: int = MAX_TABLES) -> list[Game]:
    """Return the waiting games with a seat open to anyone, oldest first (at most
    ``limit``), with their seats."""
    has_open = sa.exists().where(Seat.game_id == Game.id, Seat.open.is_(True))
    query = (
        sa.select(Game)
        .where(Game.status == "waiting", has_open)
        .order_by(Game.created_at, Game.id)
        .limit(limit)
        .options(*WITH_SEATS)
    )
    return list(db.session.scalars(query).unique())


def take_seat(uow: UnitOfWork, command: TakeSeat) -> SeatTaken:
    """Give the first open seat of the game to ``command.account`` and commit ``uow``;
    the game then starts if the table is full (its own transaction). A race lost to
    another taker is retried against the game as it then is.

    :returns: the seat taken and the game's status after it.
    :raises Unauthorized: ``sign-in-to-join`` (no account, or one without an address);
    :raises Conflict: ``already-seated`` (the account holds a seat of this game),
        ``table-full`` (no seat is open), ``game-started`` / ``game-over`` /
        ``game-cancelled`` (the game no longer waits);
    :raises arbiter.errors.NotFound: ``game-not-found``.
    """
    account = command.account
    if account is None or not account.email or account.deleted_at is not None:
        raise Unauthorized("Sign in to take a seat at a table.", code="sign-in-to-join")
    for _attempt in range(20):
        game, engine, state = load(command.game_id)
        seat = _free_seat(game, account)
        seat.name = _name_for(game, account)
        seat.email, seat.account_id, seat.open = account.email, account.id, False
        seat.tz, seat.mail_off, seat.digest = account.tz, account.mail_off, account.digest
        tr = Transition(game, engine, state)
        tr.events.append(events.SeatJoined(seat=seat.seat, name=seat.name))
        taken = SeatTaken(game.id, seat.seat, seat.name, "waiting")
        try:
            commit(tr, uow=uow, result=taken)
        except StaleVersion:
            db.session.rollback()
            continue
        status = game_start.settle(game.id)
        return SeatTaken(taken.game_id, taken.seat, taken.name, status)
    raise Conflict("The table is busy: try again in a moment.", code="table-busy")


STATUS_WORDS = {
    "over": ("This game is over.", "game-over"),
    "cancelled": ("This game was cancelled.", "game-cancelled"),
}


def _free_seat(game: Game, account: Account) -> Seat:
    """Return the first open seat of ``game`` for ``account``.

    :raises Conflict: as :func:`take_seat`.
    """
    if any(s.account_id == account.id for s in game.seats):
        raise Conflict("You already have a seat at this table.", code="already-seated")
    if game.status in STATUS_WORDS:
        raise Conflict(*STATUS_WORDS[game.status])
    free = [s for s in game.seats if s.open]
    if not free or game.status != "waiting":
        raise Conflict("This table has no free seat left.", code="table-full")
    return free[0]


def _name_for(game: Game, account: Account) -> str:
    """Return the name ``account`` plays under at this table: its own (else its
    address's local part), with a number added when another player has it."""
    base = (account.display_name or account.email.split("@")[0]).strip()[:70] or "Player"
    taken = {s.name.strip().casefold() for s in game.seats if not s.open}
    name, n = base, 2
    while name.casefold() in taken:
        name, n = f"{base} ({n})", n + 1
    return name


def waiting_names(game: Game) -> list[str]:
    """Return the names of the players already seated at a table (not open seats)."""
    return [s.name for s in game.seats if not s.open]


def free_count(game: Game) -> int:
    """Return how many seats of the table are still open."""
    return sum(1 for s in game.seats if s.open)


def span_words(seconds: int) -> str:
    """Return a duration in words: ``3 days``, ``1 hour``, ``90 seconds``."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"


def clock_words(cfg: dict | None) -> str:
    """Return a game's time control as a person says it (``1 day per move``)."""
    cfg = cfg or {}
    if cfg.get("type") == "per-move":
        return f"{span_words(cfg['seconds'])} per move"
    if cfg.get("type") == "bank":
        extra = f", plus {span_words(cfg['increment'])} a move" if cfg.get("increment") else ""
        return f"{span_words(cfg['initial'])} in all{extra}"
    return "no clock"


def table_json(game: Game) -> dict:
    """Return a lobby table as the API lists it: the game, its engine, the seats
    free, the players already seated, its clock in words."""
    return {
        "id": game.id,
        "engine": game.engine,
        "seats": len(game.seats),
        "seats_free": free_count(game),
        "waiting": waiting_names(game),
        "clock": clock_words(game.clock),
        "rated": game.rated,
        "created_at": game.created_at.isoformat(),
    }
