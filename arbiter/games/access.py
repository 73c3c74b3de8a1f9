"""Game tokens (seat and creator tokens): bearer tokens shown once at game creation and
stored hashed. Who a caller is, and which seat it holds, is decided by
:mod:`arbiter.accounts.identity`; this module makes the tokens."""

from __future__ import annotations

import secrets

from arbiter.accounts import identity
from arbiter.models import Game, Seat

token_hash = identity.token_hash
bearer = identity.bearer


def new_token() -> str:
    """Return a fresh game token (32 random bytes, URL-safe base64), never starting
    with the personal tokens' prefix ``arb_``."""
    while True:
        token = secrets.token_urlsafe(32)
        if not token.startswith(identity.TOKEN_PREFIX):
            return token


def seat_for(game: Game, token, required: bool = True) -> Seat | None:
    """Return the seat of ``game`` that ``token`` (a bearer token or a principal) opens;
    see :func:`arbiter.accounts.identity.seat_for` (scope ``games:play``)."""
    return identity.seat_for(game, token, "games:play", required)
