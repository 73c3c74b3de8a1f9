"""Seat tokens: bearer tokens shown once at game creation and stored hashed."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from arbiter.errors import Unauthorized
from arbiter.models import Game, Seat


def new_token() -> str:
    """Return a fresh seat token (32 random bytes, URL-safe base64)."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Verified:
    """A seat authenticated by another channel than a bearer token: a reply to a
    turn mail whose capability address and sender were checked (``arbiter.mailin``).
    Passed where a token goes, it opens that one seat of that one game."""

    game_id: str
    seat: int


def token_hash(token: "str | Verified") -> str:
    """Return the SHA-256 hex digest under which a token is stored; for a
    :class:`Verified` seat, ``verified:<game>:<seat>`` (to scope Idempotency-Keys),
    which no bearer token's digest can equal."""
    if isinstance(token, Verified):
        return f"verified:{token.game_id}:{token.seat}"
    return hashlib.sha256(token.encode()).hexdigest()


def bearer(header: str | None) -> str | None:
    """Return the token of an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("The Authorization header must read 'Bearer <seat token>'.",
                           code="bad-token")
    return token.strip()


def seat_for(game: Game, token: "str | Verified | None", required: bool = True
             ) -> Seat | None:
    """Return the seat of ``game`` that ``token`` opens (None for no token if optional);
    a :class:`Verified` seat of this game opens itself.

    :raises Unauthorized: ``missing-token`` when required and absent, ``bad-token``
        when it opens no seat of this game.
    """
    if token is None:
        if required:
            raise Unauthorized("This needs your seat token: send 'Authorization: Bearer "
                               "<token>' as given when the game was created.",
                               code="missing-token")
        return None
    if isinstance(token, Verified):
        if token.game_id == game.id and 0 <= token.seat < len(game.seats):
            return game.seats[token.seat]
        raise Unauthorized("That seat is not a seat of this game.", code="bad-token")
    digest = token_hash(token)
    for seat in game.seats:
        if secrets.compare_digest(seat.token_hash, digest):
            return seat
    raise Unauthorized("That token is not a seat token of this game.", code="bad-token")
