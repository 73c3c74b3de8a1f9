"""The seats a browser holds: kept in Flask's signed session cookie (``HttpOnly``,
``SameSite=Lax``, ``Secure`` when ``BASE_URL`` is https), set by a signed seat link or
by a token typed into the page; and the seats of the account it is signed in as.

A held seat records what granted it, and ends with it (checked against the database
on every use, issue 22 item 4):

- ``link``: a turn mail's signed seat link. It ends when the link would have expired
  (``WEB_LINK_SECONDS`` after the mail was written, not after the link was opened),
  when the seat's token changes, and when the seat's account is deleted.
- ``seat``: the seat token typed into the page. It ends when the seat's token changes.
- ``token``: a personal API token typed into the page. It ends when that token is
  revoked or expires, when the account is deleted (or its token loses ``games:play``),
  and when the account no longer holds the seat.

A seat that ended is forgotten and the page says why. Signing out forgets every seat
the browser holds (:func:`forget_all`).
"""

from __future__ import annotations

import hashlib

from flask import flash, session

from arbiter.accounts import links
from arbiter.accounts.identity import IMPLIED, Principal, SeatGrant, seat_grant
from arbiter.extensions import db
from arbiter.models import Account, ApiToken, Seat
from arbiter.models.timestamps import utcnow
from arbiter.web import account

MAX_SEATS = 50
"""Seats one browser remembers (the oldest are forgotten first)."""


def credential(seat: Seat) -> str:
    """Return the fingerprint of a seat's token kept with a grant (it tells only
    whether the token changed, and nothing of the token)."""
    return hashlib.sha256(f"arbiter/seat-grant\n{seat.token_hash}".encode()).hexdigest()[:32]


def grant_for(game) -> SeatGrant | None:
    """Return the seat this browser holds in ``game``: one opened by a link or token
    while what opened it still holds (else it is forgotten and the page says why),
    else the seat of the account it is signed in as; None for a spectator."""
    held = (session.get("seats") or {}).get(game.id)
    seat = None
    if held is not None:
        seat, why = check(game, held)
        if seat is None:
            forget(game.id)
            flash(why, "error")
    if seat is None:
        seat = account.seat_in(account.signed_in(), game)
    return seat_grant(game.id, seat) if type(seat) is int else None


def check(game, held) -> tuple[int | None, str]:
    """Return ``(seat, "")`` when the grant ``held`` still opens its seat of ``game``,
    else ``(None, why)``: a sentence for the page."""
    if not isinstance(held, dict) or type(held.get("s")) is not int:
        return None, "Open your seat again (the link in your latest turn mail, or your token)."
    seat = next((s for s in game.seats if s.seat == held["s"]), None)
    if seat is None:
        return None, "That seat is not a seat of this game."
    kind = held.get("by")
    if kind == "token":
        return _by_token(seat, held.get("id"))
    if kind in ("seat", "link") and held.get("c") != credential(seat):
        return None, "Your seat's token has changed: open your seat again with the new one."
    if kind == "seat":
        return seat.seat, ""
    if kind == "link":
        if not isinstance(held.get("at"), (int, float)) or links.link_expired(held["at"]):
            return None, (
                "The link that opened your seat in this browser has expired: open the "
                "link in your latest turn mail."
            )
        if deleted_holder(seat):
            return None, "The account that held this seat has been deleted."
        return seat.seat, ""
    return None, "Open your seat again (the link in your latest turn mail, or your token)."


def _by_token(seat: Seat, token_id) -> tuple[int | None, str]:
    """Check a seat opened with a personal token (see :func:`check`)."""
    token = db.session.get(ApiToken, token_id) if isinstance(token_id, str) else None
    who = db.session.get(Account, token.account_id) if token is not None else None
    if token is None or who is None or who.deleted_at is not None:
        return None, ("The account whose token opened your seat in this browser has been deleted.")
    if token.revoked_at is not None:
        return None, "The personal token that opened your seat in this browser was revoked."
    if token.expires_at is not None and token.expires_at <= utcnow():
        return None, "The personal token that opened your seat in this browser has expired."
    scopes = set(token.scopes).union(*(IMPLIED.get(s, set()) for s in token.scopes))
    if "games:play" not in scopes or seat.account_id != who.id:
        return None, "The personal token that opened your seat no longer plays it."
    return seat.seat, ""


def deleted_holder(seat: Seat) -> bool:
    """True when ``seat`` belongs to an account that has been deleted."""
    if seat.account_id is None:
        return False
    holder = db.session.get(Account, seat.account_id)
    return holder is None or holder.deleted_at is not None


def remember_link(game_id: str, seat: Seat, made_at: float) -> None:
    """Hold ``seat`` in this browser, opened by a seat link made at ``made_at``."""
    _remember(game_id, {"s": seat.seat, "by": "link", "c": credential(seat), "at": made_at})


def remember_token(game_id: str, seat: Seat, who: Principal) -> None:
    """Hold ``seat`` in this browser, opened by the token ``who`` typed into the page:
    a personal token (kept by its id) or the seat's own token."""
    if who.token_id is not None:
        _remember(game_id, {"s": seat.seat, "by": "token", "id": who.token_id})
    else:
        _remember(game_id, {"s": seat.seat, "by": "seat", "c": credential(seat)})


def _remember(game_id: str, grant: dict) -> None:
    """Hold ``grant`` for ``game_id`` in this browser (replacing another seat of it)."""
    seats = {k: v for k, v in (session.get("seats") or {}).items() if k != game_id}
    seats[game_id] = grant
    session["seats"] = dict(list(seats.items())[-MAX_SEATS:])
    session.permanent = True


def forget(game_id: str) -> None:
    """Stop holding any seat of ``game_id`` in this browser."""
    seats = dict(session.get("seats") or {})
    seats.pop(game_id, None)
    session["seats"] = seats


def forget_all() -> None:
    """Stop holding every seat this browser opened (signing out)."""
    session.pop("seats", None)


def held() -> dict[str, int]:
    """Return every seat this browser holds, as opened (checked when used): ``{game
    id: seat}``."""
    return {
        k: v["s"]
        for k, v in (session.get("seats") or {}).items()
        if isinstance(v, dict) and type(v.get("s")) is int
    }
