"""The seats a browser holds: kept in Flask's signed session cookie (``HttpOnly``,
``SameSite=Lax``, ``Secure`` when ``BASE_URL`` is https), set by a signed seat link or
by a seat token typed into the page; and the seats of the account it is signed in as."""

from __future__ import annotations

from flask import session

from arbiter.service.identity import SeatGrant, seat_grant
from arbiter.web import account

MAX_SEATS = 50
"""Seats one browser remembers (the oldest are forgotten first)."""


def grant_for(game) -> SeatGrant | None:
    """Return the seat this browser holds in ``game``: one opened by a link or token,
    else the seat of the account it is signed in as; None for a spectator."""
    seat = (session.get("seats") or {}).get(game.id)
    if type(seat) is not int:
        seat = account.seat_in(account.signed_in(), game)
    return seat_grant(game.id, seat) if type(seat) is int else None


def remember(game_id: str, seat: int) -> None:
    """Hold ``seat`` of ``game_id`` in this browser (replacing another seat of it)."""
    seats = {k: v for k, v in (session.get("seats") or {}).items() if k != game_id}
    seats[game_id] = seat
    session["seats"] = dict(list(seats.items())[-MAX_SEATS:])
    session.permanent = True


def forget(game_id: str) -> None:
    """Stop holding any seat of ``game_id`` in this browser."""
    seats = dict(session.get("seats") or {})
    seats.pop(game_id, None)
    session["seats"] = seats


def held() -> dict[str, int]:
    """Return every seat this browser holds: ``{game id: seat}``."""
    return {k: v for k, v in (session.get("seats") or {}).items() if type(v) is int}
