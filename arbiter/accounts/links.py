"""Signed seat links: the link in a turn mail that opens the web page of one seat.

A link carries ``{"g": game id, "s": seat}`` signed with ``SECRET_KEY`` and a time
stamp (itsdangerous' ``URLSafeTimedSerializer``, salt ``arbiter/seat-link``); it
is good for ``WEB_LINK_SECONDS`` (default 30 days) from when the mail was written.
Opening it sets a session cookie for that seat of that game (``arbiter/web``) that
ends when the link does, not a fresh 30 days later; nothing else is granted. A seat
whose account was deleted opens no more by its links (``arbiter/web/seats.py``).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from arbiter.errors import Forbidden

SALT = "arbiter/seat-link"


class LinkRefused(Forbidden):
    """A seat link that is forged, altered, for another game, or expired."""

    code, title = "bad-link", "Link refused"


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=SALT)


def seat_key(game_id: str, seat: int) -> str:
    """Return the signed key that opens ``seat`` of ``game_id`` (URL-safe text)."""
    return _serializer().dumps({"g": game_id, "s": seat})


def seat_url(game_id: str, seat: int) -> str:
    """Return the absolute link (under ``BASE_URL``) that opens a seat's page."""
    base = current_app.config["BASE_URL"]
    return f"{base}/games/{game_id}/open?key={seat_key(game_id, seat)}"


def read_seat_key(key: str, game_id: str) -> int:
    """Return the seat a signed key opens in ``game_id`` (see :func:`read_seat_link`)."""
    return read_seat_link(key, game_id)[0]


def read_seat_link(key: str, game_id: str) -> tuple[int, datetime]:
    """Return the seat a signed key opens in ``game_id`` and when the key was made
    (UTC): what the browser holds from it ends ``WEB_LINK_SECONDS`` after that, as
    the link does (:func:`link_expired`).

    :raises LinkRefused: ``link-expired`` past ``WEB_LINK_SECONDS``, ``bad-link`` for a
        forged or altered key or one made for another game.
    """
    try:
        data, made = _serializer().loads(
            key, max_age=current_app.config["WEB_LINK_SECONDS"], return_timestamp=True
        )
    except SignatureExpired:
        raise LinkRefused(
            "This link has expired: open the link in your latest turn mail, or ask for a new one.",
            code="link-expired",
        ) from None
    except BadSignature:
        raise LinkRefused(
            "This link is not valid: it may have been cut short or changed. "
            "Open it again from your mail."
        ) from None
    if not isinstance(data, dict) or data.get("g") != game_id or type(data.get("s")) is not int:
        raise LinkRefused("This link is for another game.")
    return data["s"], made.astimezone(UTC)


def link_expired(made_at: float) -> bool:
    """True when a seat link made at ``made_at`` (a POSIX time) is past
    ``WEB_LINK_SECONDS``, and with it whatever a browser holds from it."""
    return time.time() - made_at > current_app.config["WEB_LINK_SECONDS"]
