"""Who has a game open now, so that a player watching the game in a browser is not
mailed for each turn (Rally the Troops mails only players not connected).

A seat is present while a game stream it opened is live (the streams mark it on
opening and every ``RENEW_SECONDS`` while open, and clear it on leaving): one row
per seat with a time ``TTL_SECONDS`` ahead, so a web process that dies leaves no
presence behind for longer than that. The turn mail reads it
(:func:`arbiter.games.notify.turn_mails`).
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from itsdangerous import BadSignature, URLSafeSerializer

from arbiter import settings
from arbiter.extensions import db
from arbiter.models import Presence
from arbiter.models.timestamps import utcnow

TTL_SECONDS = 90
"""How long a mark holds without being renewed."""

RENEW_SECONDS = 30
"""How often an open stream renews its mark."""


def mark(game_id: str, seat: int, seconds: float = TTL_SECONDS) -> None:
    """Record that ``seat`` of ``game_id`` has the game open for ``seconds`` from now
    (committed)."""
    until = utcnow() + timedelta(seconds=seconds)
    row = db.session.get(Presence, (game_id, seat))
    if row is None:
        db.session.add(Presence(game_id=game_id, seat=seat, until=until))
    else:
        row.until = until
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # two streams of one seat marked at once: one row won
        db.session.rollback()


def clear(game_id: str, seat: int) -> None:
    """Record that ``seat``'s stream of ``game_id`` closed (committed)."""
    db.session.execute(
        sa.delete(Presence).where(Presence.game_id == game_id, Presence.seat == seat)
    )
    db.session.commit()


def present(game_id: str) -> set[int]:
    """Return the seats of ``game_id`` that have it open now."""
    return set(
        db.session.scalars(
            sa.select(Presence.seat).where(Presence.game_id == game_id, Presence.until > utcnow())
        )
    )


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(settings.current().service.secret_key, salt="arbiter.presence")


def page_token(game_id: str, seat: int) -> str:
    """Return the token a seat's game page hands its stream (``?presence=``), so that
    the stream, opened by a browser without the seat's token, can say who is there.
    It marks presence only: it opens nothing."""
    return _signer().dumps({"g": game_id, "s": seat})


def seat_of(token: str | None, game_id: str) -> int | None:
    """Return the seat a :func:`page_token` names in ``game_id``, or None (absent,
    forged, another game's)."""
    if not token:
        return None
    try:
        data = _signer().loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("g") != game_id or type(data.get("s")) is not int:
        return None
    return data["s"]
