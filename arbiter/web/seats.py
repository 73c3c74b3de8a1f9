"""The seats a browser holds: kept in Flask's signed session cookie (``HttpOnly``,
``SameSite=Lax``, ``Secure`` when ``BASE_URL`` is https), set by a signed seat link or
by a seat token typed into the page."""

from __future__ import annotations

from flask import session

from arbiter.service.identity import SeatGrant, seat_grant

MAX_SEATS = 50
"""Seats one browser remembers (the oldest are forgotten first)."""


def grant_for(game_id: str) -> SeatGrant | None:
    """Return the seat this browser holds in ``game_id``, or None (a spectator)."""
    seat = (session.get("seats") or {}).get(game_id)
    return seat_grant(game_id, seat) if type(seat) is int else None


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
