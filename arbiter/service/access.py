"""Seat tokens: bearer tokens shown once at game creation and stored hashed."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from arbiter.errors import Unauthorized
from arbiter.models import Game, Seat


@dataclass(frozen=True)
class SeatGrant:
    """A seat already authenticated by other means than its bearer token: the web
    session set from a signed seat link (``arbiter/service/links.py``). Service calls
    take it wherever they take a token."""

    game_id: str
    seat: int


def new_token() -> str:
    """Return a fresh seat token (32 random bytes, URL-safe base64)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """Return the SHA-256 hex digest under which a token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def caller_hash(token: "str | SeatGrant | None") -> str:
    """Return the hash that names a caller in an Idempotency-Key scope: its token's
    hash, or for a :class:`SeatGrant` the hash of its game and seat."""
    if isinstance(token, SeatGrant):
        return token_hash(f"seat-grant\n{token.game_id}\n{token.seat}")
    return token_hash(token or "")


def bearer(header: str | None) -> str | None:
    """Return the token of an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("The Authorization header must read 'Bearer <seat token>'.",
                           code="bad-token")
    return token.strip()


def seat_for(game: Game, token: "str | SeatGrant | None", required: bool = True
             ) -> Seat | None:
    """Return the seat of ``game`` that ``token`` (a bearer token or a
    :class:`SeatGrant`) opens (None for no token if optional).

    :raises Unauthorized: ``missing-token`` when required and absent, ``bad-token``
        when it opens no seat of this game.
    """
    if token is None:
        if required:
            raise Unauthorized("This needs your seat token: send 'Authorization: Bearer "
                               "<token>' as given when the game was created.",
                               code="missing-token")
        return None
    if isinstance(token, SeatGrant):
        for seat in game.seats:
            if token.game_id == game.id and seat.seat == token.seat:
                return seat
        raise Unauthorized("That seat is not a seat of this game.", code="bad-token")
    digest = token_hash(token)
    for seat in game.seats:
        if secrets.compare_digest(seat.token_hash, digest):
            return seat
    raise Unauthorized("That token is not a seat token of this game.", code="bad-token")
