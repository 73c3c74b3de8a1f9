"""Who is calling: one entry point that turns a bearer token into a principal.

A bearer token is either a **personal API token** of an account (``arb_...``, made by
``POST /v1/me/tokens`` or by signing in; it carries scopes and acts for every seat its
account holds) or a **game token** (a seat token or a creator token shown once at game
creation, meaningful only inside its game). :func:`authenticate` finds out which, once
per request and before the request's body is read; :func:`seat_for` then says which
seat of a game the principal holds.

Scopes (``SCOPES``): ``games:read`` (views and legal moves), ``games:play`` (moves,
resignations, vacation; implies ``games:read``), ``games:create`` (create games, and
as their creator pause, resume, extend), ``tournaments:write``, ``account:write``
(change or delete the account, make and revoke tokens).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

import sqlalchemy as sa

from arbiter.errors import Forbidden, Unauthorized
from arbiter.extensions import db
from arbiter.models import Account, ApiToken, Game, Seat
from arbiter.models.timestamps import utcnow

SCOPES = ("games:read", "games:play", "games:create", "tournaments:write", "account:write")
"""Every scope a personal API token may carry."""

IMPLIED = {"games:play": {"games:read"}}
"""Scopes that grant others."""

TOKEN_PREFIX = "arb_"
"""Personal API tokens start with this, so that people (and secret scanners) can tell
them from game tokens."""

LAST_USED_GRANULARITY = timedelta(seconds=60)
"""``last_used_at`` is written at most this often per token (not on every request)."""


def token_hash(token: str) -> str:
    """Return the SHA-256 hex digest under which any bearer token is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Principal:
    """An authenticated caller.

    :param token: the bearer token as sent (kept to open game tokens).
    :param token_hash: its SHA-256 hex; the caller's identity for idempotency scopes
        and rate limits.
    :param account: the account of a personal API token, None for a game token.
    :param scopes: the personal token's scopes (with the ones they imply); empty for
        a game token, whose power is its seat or its game.
    """

    token: str = field(repr=False)
    token_hash: str
    account: Account | None = None
    scopes: frozenset[str] = frozenset()
    token_id: str | None = None
    touched: bool = False
    """True when authenticating wrote the token's last-used time (to be committed)."""

    @property
    def is_account(self) -> bool:
        """True for a personal API token (an account), False for a game token."""
        return self.account is not None

    def has(self, scope: str) -> bool:
        """True when this principal's token carries ``scope``."""
        return scope in self.scopes

    def require_account(self) -> None:
        """:raises Unauthorized: ``not-an-account-token`` for a game token."""
        if not self.is_account:
            raise Unauthorized(
                "This needs a personal API token (arb_...), not a game's seat or creator token.",
                code="not-an-account-token",
            )

    def require(self, scope: str) -> None:
        """:raises Forbidden: ``missing-scope`` when the token lacks ``scope``;
        :raises Unauthorized: ``not-an-account-token`` for a game token."""
        self.require_account()
        if not self.has(scope):
            if self.account.is_bot:
                raise Forbidden(
                    f"A bot account's token carries only what a bot does (play its "
                    f"games), not the scope {scope!r}; its owner does the rest with "
                    "their own token.",
                    code="missing-scope",
                )
            raise Forbidden(
                f"This token does not carry the scope {scope!r}; make one that "
                "does (your account's tokens: /me/tokens in a browser, POST /v1/me/tokens "
                "over the API).",
                code="missing-scope",
            )


@dataclass(frozen=True)
class SeatGrant(Principal):
    """A seat authenticated by other means than its bearer token: the web session set
    from a signed seat link (``arbiter/accounts/links.py``) or a seat token typed into
    the page. It opens that one seat of that one game; its ``token_hash`` (for
    idempotency scopes) is derived from the game and the seat. Make it with
    :func:`seat_grant`."""

    game_id: str = ""
    seat: int = -1


def seat_grant(game_id: str, seat: int) -> SeatGrant:
    """Return the principal of a web session holding ``seat`` of ``game_id``."""
    return SeatGrant(
        token="",
        token_hash=token_hash(f"seat-grant\n{game_id}\n{seat}"),
        game_id=game_id,
        seat=seat,
    )


def bearer(header: str | None) -> str | None:
    """Return the token of an ``Authorization: Bearer <token>`` header, or None.

    :raises Unauthorized: ``bad-token`` for another scheme or an empty token.
    """
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("The Authorization header must read 'Bearer <token>'.", code="bad-token")
    return token.strip()


def authenticate(header: str | None) -> Principal | None:
    """Return the principal of an ``Authorization`` header, None when there is none.

    A personal token (``arb_...``) is looked up (one indexed query) and must be
    neither revoked nor expired; any other token is a game token, checked later
    against its game (game tokens are never made with the ``arb_`` prefix).

    :raises Unauthorized: ``bad-token`` (malformed header, unknown ``arb_`` token),
        ``token-revoked``, ``token-expired``.
    """
    token = bearer(header)
    return None if token is None else principal_of_token(token)


def principal_of_token(token: str) -> Principal:
    """Return the principal of a bearer token (see :func:`authenticate`). A game token
    (no ``arb_`` prefix) costs no query here; a personal token, one SELECT."""
    digest = token_hash(token)
    if not token.startswith(TOKEN_PREFIX):
        return Principal(token=token, token_hash=digest)
    found = db.session.execute(
        sa.select(ApiToken, Account)
        .join(Account, Account.id == ApiToken.account_id)
        .where(ApiToken.token_hash == digest)
    ).first()
    if found is None:
        raise Unauthorized("That personal API token is not known.", code="bad-token")
    row, account = found
    now = utcnow()
    if row.revoked_at is not None or account.deleted_at is not None:
        raise Unauthorized("That personal API token has been revoked.", code="token-revoked")
    if row.expires_at is not None and row.expires_at <= now:
        raise Unauthorized(
            "That personal API token has expired; sign in again.", code="token-expired"
        )
    touched = _touch(row, now)
    scopes = set(row.scopes)
    for scope in row.scopes:
        scopes |= IMPLIED.get(scope, set())
    return Principal(
        token=token,
        token_hash=digest,
        account=account,
        scopes=frozenset(scopes),
        token_id=row.id,
        touched=touched,
    )


def _touch(row: ApiToken, now) -> bool:
    """Record that a token was used (at most once per ``LAST_USED_GRANULARITY``), in
    the caller's transaction (the request guard commits it at once); return whether
    it wrote.

    On SQLite a reading request's transaction is deferred (:mod:`arbiter.database`):
    when another connection holds the write lock, the time is not written now (the
    token's next use writes it) rather than the read failing.
    """
    if row.last_used_at is not None and now - row.last_used_at < LAST_USED_GRANULARITY:
        return False
    try:
        db.session.execute(
            sa.update(ApiToken)
            .where(ApiToken.id == row.id)
            .values(last_used_at=now)
            .execution_options(synchronize_session=False)
        )
    except sa.exc.OperationalError as err:
        if db.session.get_bind().dialect.name != "sqlite" or "locked" not in str(err.orig):
            raise
        return False
    return True


def as_principal(who: Principal | str | None) -> Principal | None:
    """Return ``who`` as a principal: a principal as is, a raw bearer token
    authenticated, None as None (for callers such as inbound mail that hold a token)."""
    if who is None or isinstance(who, Principal):
        return who
    return principal_of_token(who)


def seat_for(
    game: Game, who: Principal | str | None, scope: str = "games:play", required: bool = True
) -> Seat | None:
    """Return the seat of ``game`` that the caller holds (None for no caller when not
    ``required``).

    A game token opens the seat whose token it is. A personal token needs ``scope``
    and opens the account's seat in the game (of several, the first that owes a move,
    else the first); when not ``required``, an account without a seat here reads as a
    spectator (None).

    :raises Unauthorized: ``missing-token`` (none, when required), ``bad-token`` (a
        game token of no seat of this game).
    :raises Forbidden: ``missing-scope``, ``no-seat`` (the account holds no seat here).
    """
    principal = as_principal(who)
    if principal is None:
        if required:
            raise Unauthorized(
                "This needs your token: send 'Authorization: Bearer "
                "<token>' (your personal API token, or the seat token given "
                "when the game was created).",
                code="missing-token",
            )
        return None
    if isinstance(principal, SeatGrant):
        for seat in game.seats:
            if principal.game_id == game.id and seat.seat == principal.seat:
                return seat
        raise Unauthorized("That seat is not a seat of this game.", code="bad-token")
    if principal.is_account:
        principal.require(scope)
        held = [s for s in game.seats if s.account_id == principal.account.id]
        if not held:
            if not required:
                return None
            raise Forbidden("Your account holds no seat in this game.", code="no-seat")
        to_act = [s for s in held if s.seat in game.to_act]
        return (to_act or held)[0]
    for seat in game.seats:
        if secrets.compare_digest(seat.token_hash, principal.token_hash):
            return seat
    raise Unauthorized("That token is not a seat token of this game.", code="bad-token")


def is_creator(game: Game, who: Principal | str | None) -> bool:
    """True when the caller created ``game``: its creator token, or a personal token
    of the creating account with ``games:create``."""
    principal = as_principal(who)
    if principal is None:
        return False
    if principal.is_account:
        return game.creator_account_id == principal.account.id and principal.has("games:create")
    return bool(game.creator_token_hash) and secrets.compare_digest(
        game.creator_token_hash, principal.token_hash
    )
