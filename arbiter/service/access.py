"""Seat tokens: bearer tokens shown once at game creation and stored hashed."""

from __future__ import annotations

import hashlib
import secrets

from arbiter.errors import Unauthorized
from arbiter.models import Game, Seat


def new_token() -> str:
    """Return a fresh seat token (32 random bytes, URL-safe base64)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """Return the SHA-256 hex digest under which a token is stored."""
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


def require(token: str | None) -> str:
    """Return ``token``.

    :raises Unauthorized: ``missing-token`` when there is none.
    """
    if token is None:
        raise Unauthorized("This needs your seat token: send 'Authorization: Bearer "
                           "<token>' as given when the game was created.",
                           code="missing-token")
    return token


def seat_for(game: Game, token: str | None, required: bool = True) -> Seat | None:
    """Return the seat of ``game`` that ``token`` opens (None for no token if optional).

    :raises Unauthorized: ``missing-token`` when required and absent, ``bad-token``
        when it opens no seat of this game.
    """
    if token is None:
        if required:
            require(token)
        return None
    digest = token_hash(token)
    for seat in game.seats:
        if secrets.compare_digest(seat.token_hash, digest):
            return seat
    raise Unauthorized("That token is not a seat token of this game.", code="bad-token")
