"""The account a browser is signed in as: kept in the session cookie as the account's
id and the id of the personal token its sign-in made (checked on every request, so a
revoked or expired token, or a deleted account, signs the browser out)."""

from __future__ import annotations

from flask import session

from arbiter.accounts import accounts
from arbiter.accounts.identity import IMPLIED, Principal
from arbiter.extensions import db
from arbiter.models import Account, ApiToken
from arbiter.models.timestamps import utcnow
from arbiter.uow import UnitOfWork


def signed_in() -> Account | None:
    """Return the account this browser is signed in as, None when it is not (or its
    sign-in token was revoked or expired, or the account deleted)."""
    held = session.get("account")
    if not isinstance(held, dict):
        return None
    token = db.session.get(ApiToken, held.get("token"))
    account = db.session.get(Account, held.get("id"))
    if (
        token is None
        or account is None
        or token.account_id != account.id
        or token.revoked_at is not None
        or account.deleted_at is not None
        or (token.expires_at is not None and token.expires_at <= utcnow())
    ):
        session.pop("account", None)
        return None
    return account


def remember(account: Account, token: ApiToken) -> None:
    """Sign this browser in as ``account`` through its sign-in token ``token``."""
    session["account"] = {"id": account.id, "token": token.id}
    session.permanent = True


def sign_out() -> None:
    """Sign this browser out: revoke the token its sign-in made, and forget every seat
    the browser opened (by links and tokens too)."""
    account, held = signed_in(), session.pop("account", None)
    session.pop("seats", None)
    if account is not None and held:
        try:
            accounts.revoke_token(UnitOfWork(), account, held["token"])
        except Exception:  # noqa: BLE001 - already revoked: signed out all the same
            db.session.rollback()


def seat_in(account: Account | None, game) -> int | None:
    """Return the account's seat in ``game`` (the first that owes a move, else the
    first), None when it holds none."""
    if account is None:
        return None
    held = [s.seat for s in game.seats if s.account_id == account.id]
    owing = [s for s in held if s in game.to_act]
    return (owing or held or [None])[0]


def principal() -> Principal | None:
    """Return the signed-in account as the service's caller (its sign-in token's
    scopes and the ones they imply), None when the browser is not signed in."""
    who = signed_in()
    if who is None:
        return None
    token = db.session.get(ApiToken, session["account"]["token"])
    scopes = set(token.scopes)
    for scope in token.scopes:
        scopes |= IMPLIED.get(scope, set())
    return Principal(
        token="",
        token_hash=token.token_hash,
        account=who,
        scopes=frozenset(scopes),
        token_id=token.id,
    )
