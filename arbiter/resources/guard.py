"""Authentication before anything else: one ``before_request`` hook that checks the
caller of every route that takes a token, before the body or any validated header is
read (so a wrong token gets 401, or 404 for a game that does not exist, never a 400 or
422 about a body it may not send, and a 10 MB body is never read for it).

A view method declares what it needs with :func:`needs`; routes without a declaration
ignore the Authorization header. The principal is left in ``flask.g.principal``
(:func:`principal`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from flask import current_app, g, request

from arbiter import idempotency, limits, quotas, settings
from arbiter.accounts import identity
from arbiter.errors import Unauthorized
from arbiter.extensions import db
from arbiter.games import campaigns, games
from arbiter.models import game_record
from arbiter.resources import headers


@dataclass(frozen=True)
class Loaded:
    """What the guard read for a write (:class:`Policy` ``idempotent``), passed to the
    view as ``loaded``: the game, its engine and state (``game``), the caller's
    idempotency ``scope``, and the answer stored for the request's key, if any."""

    game: tuple
    scope: str
    stored: object


@dataclass(frozen=True)
class Policy:
    """What a route needs from its caller.

    :param kind: ``anyone`` (a token is optional but checked), ``seat`` (a seat of
        the route's game), ``creator`` (the game's
        creator), ``account`` (a personal token), ``create`` (game creation: a token
        with ``games:create`` unless ``OPEN_CREATION``), ``organiser`` (a campaign's
        organiser token).
    :param scope: the scope a personal token must carry.
    :param optional: for ``seat``: no token (or an account without a seat here) reads
        as a spectator.
    :param idempotent: the idempotency route name (``moves``, ``resign``, ``pause``
        ...) of a write that takes the game as read: the guard reads it with its
        stored answer in one SELECT (:func:`arbiter.games.games.load_with_answer`) and
        passes both to the view as its ``loaded`` argument (:class:`Loaded`), which
        hands them on. The scope is the caller's on the game
        (:func:`arbiter.idempotency.caller_scope`); on ``creator`` routes, the
        game's creator's (``creator:<game>``, whichever of its tokens is sent).
    :param record: with ``idempotent``: the write takes the game as a record
        (:func:`arbiter.games.loading.load_record_with_answer`), for a write that
        changes nothing of the game but through the store (a move: its events, the
        snapshot, a seat's autopilot).
    :param state: a read (``games:read``) whose answer needs the game's state unless
        it is a 304 (``/view``, ``/legal-moves``; ``/board.svg``, which has no ETag):
        without ``If-None-Match`` the guard reads the state with the game and its
        seats, in the same SELECT (one statement instead of two); with it, the state
        is left unread until the ETag is found stale (a poller's 304 stays one
        statement).
    """

    kind: str
    scope: str | None = None
    optional: bool = False
    idempotent: str | None = None
    state: bool = False
    record: bool = False


def needs(
    kind: str,
    scope: str | None = None,
    optional: bool = False,
    idempotent: str | None = None,
    state: bool = False,
    record: bool = False,
):
    """Decorate a view method (named after its HTTP method: ``get``, ``post`` ...)
    with the :class:`Policy` its caller must meet, and declare in its contract the
    429 ``rate-limited`` answer of the limit the guard counts it against
    (:func:`limit_name`), so the contract follows the guard.

    Put it above flask-smorest's decorators (it adds to their ``_apidoc``)."""

    def mark(view):
        view.guard_policy = Policy(kind, scope, optional, idempotent, state, record)
        name = limit_name(kind, view.__name__)
        view._apidoc = copy.deepcopy(getattr(view, "_apidoc", {}))
        manual = view._apidoc.setdefault("manual_doc", {})
        manual.setdefault("responses", {}).setdefault(
            429,
            {
                "description": f"too many {quotas.WHAT[name]} (rate-limited, limit "
                f"RATELIMIT_{name.upper()}); retry after Retry-After seconds"
            },
        )
        return view

    return mark


def limit_name(kind: str, method: str) -> str:
    """Return the rate limit (:mod:`arbiter.limits`) a request of policy ``kind`` and
    HTTP ``method`` (any case) counts against: ``create``, ``read`` or ``write``."""
    if kind == "create":
        return "create"
    return "read" if method.upper() in ("GET", "HEAD") else "write"


def policy_of_request() -> Policy | None:
    """Return the policy of the view that will answer this request, if any."""
    view = current_app.view_functions.get(request.endpoint or "")
    cls = getattr(view, "view_class", None)
    method = getattr(cls, request.method.lower(), None) if cls else view
    return getattr(method, "guard_policy", None)


def principal() -> identity.Principal | None:
    """Return the authenticated caller of this request (None: no token)."""
    return g.get("principal")


def check_request() -> None:
    """``before_request``: authenticate the caller and check the route's policy.

    :raises Unauthorized, Forbidden, NotFound: see :mod:`arbiter.accounts.identity`.
    """
    policy = policy_of_request()
    if policy is None:
        return
    who = identity.authenticate(request.headers.get("Authorization"))
    if who is not None and who.touched:
        db.session.commit()  # the token's last-used time, before anything can fail
    g.principal = who
    CHECKS[policy.kind](policy, who, request.view_args or {})
    limits.check(limit_of(policy), limits.caller_key(who))
    if has_body() and db.engine.dialect.name == "sqlite":
        release_before_body()


def has_body() -> bool:
    """Whether this request sends a body (a length, or ``Transfer-Encoding``)."""
    return request.method in ("POST", "PUT", "PATCH") and bool(
        request.content_length or request.headers.get("Transfer-Encoding")
    )


def release_before_body() -> None:
    """End the guard's transaction before the body is read (by the view's argument
    parsing, which reads it in full before the view's first query).

    On SQLite every transaction takes the database's one write lock (``BEGIN
    IMMEDIATE``, :mod:`arbiter.database`): held while a client is slow to send its
    body, it would stop every other write of the service. So the guard's reads are
    committed first, without expiring what they loaded: the view uses the game as
    the guard read it, in its own transaction, and a write made meanwhile is caught
    by the version every write checks (``arbiter.games.store.append``: a move retries,
    as on PostgreSQL, where reading locks nothing and the transaction stays open).
    """
    session = db.session()
    session.expire_on_commit = False
    records = session.info.get(game_record.HELD)
    try:
        session.commit()
    finally:
        session.expire_on_commit = True
    if records:
        session.info[game_record.HELD] = records  # kept, as the rows are


def limit_of(policy: Policy) -> str:
    """Return the rate limit this request of ``policy`` counts against."""
    return limit_name(policy.kind, request.method)


def _game(policy: Policy, who, game_id: str):
    """Read the route's game once for the guard and the service (see Policy). The game
    is kept in ``g`` for the request: the session's identity map holds objects weakly,
    and while it lives the service's read of it costs no second SELECT."""
    if policy.idempotent:
        # the creator's writes share one scope, whichever of its tokens sends them
        scope = (
            f"creator:{game_id}"
            if policy.kind == "creator"
            else idempotency.caller_scope(game_id, who)
        )
        load = games.load_record_with_answer if policy.record else games.load_with_answer
        game, engine, state, stored = load(game_id, scope, headers.idempotency_key())
        request.view_args["loaded"] = Loaded((game, engine, state), scope, stored)
    elif policy.scope == "games:read" and request.method in ("GET", "HEAD"):
        read_without_transaction()  # reads only (issue 26: the long-poll's too)
        # the read routes' services read the game as a record (arbiter.models.game_record)
        with_state = policy.state and "If-None-Match" not in request.headers
        game = game_record.read(game_id, with_state=with_state)
    else:
        game = games.get_game(game_id)
    g.arbiter_game = game
    return game


def read_without_transaction() -> None:
    """On PostgreSQL, run this request's statements in autocommit (the session's
    connection, until it goes back to the pool, which restores the isolation level):
    a read of ``/view``, ``/legal-moves`` or the summary is one SELECT (two after a
    stale ETag; ``/events``, ``/notes`` and ``/record`` a few, each its own
    snapshot), and
    a transaction around it would cost two round trips more, its ``BEGIN`` and its
    ``ROLLBACK``, for nothing (under READ COMMITTED each statement reads its own
    snapshot either way). Left alone when the session has already begun (a personal
    token was looked up) and on SQLite (whose transactions the service begins itself,
    ``arbiter.database``)."""
    session = db.session()
    if db.engine.dialect.name == "postgresql" and not session.in_transaction():
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


def _seat(policy: Policy, who, args: dict) -> None:
    game = _game(policy, who, args["game_id"])
    identity.seat_for(game, who, policy.scope or "games:play", required=not policy.optional)


def _creator(policy: Policy, who, args: dict) -> None:
    game = _game(policy, who, args["game_id"])
    if who is None:
        raise Unauthorized(
            "This needs the creator token given when the game was created "
            "(or a personal token of the creating account): send "
            "'Authorization: Bearer <token>'.",
            code="missing-token",
        )
    if not identity.is_creator(game, who):
        raise Unauthorized(
            "Only the game's creator may do this, with the creator token.", code="not-creator"
        )


def _account(policy: Policy, who, args: dict) -> None:
    if who is None:
        raise Unauthorized(
            "This needs your personal API token: send 'Authorization: "
            "Bearer arb_...' (sign in to get one).",
            code="missing-token",
        )
    if policy.scope:
        who.require(policy.scope)
    else:
        who.require_account()


def _create(policy: Policy, who, args: dict) -> None:
    if who is None:
        if settings.current().service.open_creation:
            return
        raise Unauthorized(
            "Creating games on this server needs a personal API token with "
            "the scope games:create (OPEN_CREATION is off).",
            code="missing-token",
        )
    who.require("games:create")


def _organiser(policy: Policy, who, args: dict) -> None:
    campaigns.organised(args["campaign_id"], who.token if who else None)


def _anyone(policy: Policy, who, args: dict) -> None:
    """Any caller (a token, if given, has been authenticated)."""


CHECKS = {
    "anyone": _anyone,
    "seat": _seat,
    "creator": _creator,
    "account": _account,
    "create": _create,
    "organiser": _organiser,
}
