"""How a player wants to hear of their turns: a mail each turn, one daily digest (at
an hour they choose), or none; for all their games (the account's ``notify``) or for
one game (the seat's ``notify``, which wins).

Changed over REST (``PATCH /v1/me``, ``PUT /v1/me/games/{id}/notify``), on the
account page, and by the mail command ``notify turn|digest|none [all]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from arbiter.errors import ArbiterError, NotFound
from arbiter.extensions import db
from arbiter.models import Account, Seat
from arbiter.uow import UnitOfWork

MODES = ("turn", "digest", "none")
"""A mail each turn, the daily digest, no turn mail."""

SAID = {
    "turn": "a mail for each of your turns",
    "digest": "your turns in one daily digest",
    "none": "no mail for your turns",
}
"""Each mode in words."""


def bad_mode(mode: str) -> ArbiterError:
    """The refusal of a mode that is not one of :data:`MODES`."""
    return ArbiterError(
        f"Choose how to hear of your turns: {', '.join(MODES)} (not {mode[:20]!r}).",
        code="bad-notify-mode",
    )


def mode(seat: Seat) -> str:
    """Return how ``seat``'s player hears of its turns in this game: the seat's own
    choice, else its account's (``turn`` for a seat without an account)."""
    if seat.notify in MODES:
        return seat.notify
    account = db.session.get(Account, seat.account_id) if seat.account_id else None
    if account is None:
        return "digest" if seat.digest else "turn"
    return account.notify if account.notify in MODES else "turn"


def per_turn(seat: Seat) -> bool:
    """True when ``seat`` gets a mail for each of its turns."""
    return mode(seat) == "turn"


@dataclass(frozen=True)
class SetForGame:
    """Choose how ``account`` hears of its turns in game ``game_id`` (``mode`` None:
    as in all its games)."""

    account: Account
    game_id: str
    mode: str | None


def set_for_game(uow: UnitOfWork, command: SetForGame) -> dict:
    """Record the choice of :class:`SetForGame` on the account's seats in the game;
    return ``{"game_id", "notify", "effective"}``.

    :raises ArbiterError: ``bad-notify-mode``; ``not-a-player`` (404) when the account
        holds no seat in the game.
    """
    if command.mode is not None and command.mode not in MODES:
        raise bad_mode(command.mode)
    seats = db.session.scalars(
        sa.select(Seat).where(
            Seat.game_id == command.game_id, Seat.account_id == command.account.id
        )
    ).all()
    if not seats:
        raise NotFound("You hold no seat in this game.", code="not-a-player")
    for seat in seats:
        seat.notify = command.mode
    uow.commit()
    return {"game_id": command.game_id, "notify": command.mode, "effective": mode(seats[0])}


KEEP = object()
"""``hour`` of :func:`set_for_all` left as it is."""


def set_for_all(uow: UnitOfWork, account: Account, new_mode: str, hour=KEEP) -> None:
    """Set how ``account`` hears of its turns in all its games, and with ``hour`` the
    digest's hour (0-23, in the account's zone; None: as soon as a game is due);
    commits ``uow``.

    :raises ArbiterError: ``bad-notify-mode``, ``bad-digest-hour``.
    """
    if new_mode not in MODES:
        raise bad_mode(new_mode)
    if hour is not KEEP and hour is not None and not (type(hour) is int and 0 <= hour <= 23):
        raise ArbiterError("The digest hour is a whole hour, 0 to 23.", code="bad-digest-hour")
    account.notify = new_mode
    account.digest = new_mode == "digest"
    if hour is not KEEP:
        account.digest_hour = hour
    db.session.execute(
        sa.update(Seat)
        .where(Seat.account_id == account.id)
        .values(digest=account.digest)
        .execution_options(synchronize_session=False)
    )
    uow.commit()
