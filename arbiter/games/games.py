"""Creating, loading and listing games."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import defer

import engines
from arbiter import fairness
from arbiter.accounts import accounts, bot_accounts, ratings
from arbiter.errors import Unprocessable
from arbiter.extensions import db
from arbiter.games import access, bot_seats, events, invitations
from arbiter.games import clock as clocks
from arbiter.games.loading import (  # noqa: F401 - read by many as games.load, get_game
    WITH_SEATS,
    get_game,
    inputs_of,
    load,
    load_record_with_answer,
    load_with_answer,
    renew_snapshot,
    replay,
)
from arbiter.games.transition import Transition, settle
from arbiter.models import Account, Game, Seat
from engines.base import Engine


@dataclass
class NewPlayer:
    """A player at creation: a name and an optional email address; ``open``: a seat
    of a public table that anyone signed in may take (:mod:`arbiter.games.lobby`); or
    a built-in bot: ``bot`` as the request gave it (``{"kind": "mcts", "level": 2}``,
    checked by :func:`arbiter.games.bot_seats.check_bots`), no email; or the id of a
    bot account (``account``, :mod:`arbiter.accounts.bot_accounts`), no email."""

    name: str
    email: str | None = None
    tz: str | None = None
    open: bool = False
    bot: dict | None = None
    account: str | None = None

    @classmethod
    def many(cls, rows: list[dict]) -> list[NewPlayer]:
        """Return the players of a creation request's ``players`` list (dicts with
        ``name`` and optional ``email``, ``tz``, ``open``, ``bot`` and ``account``; an
        open seat without a name gets :func:`open_name`'s)."""
        return [
            cls(
                p.get("name") or open_name(i),
                p.get("email"),
                p.get("tz"),
                bool(p.get("open")),
                p.get("bot"),
                p.get("account"),
            )
            for i, p in enumerate(rows)
        ]


def open_name(seat: int) -> str:
    """Return the placeholder name of an open seat until somebody takes it."""
    return f"Open seat {seat + 1}"


def engine_for(engine_id: str) -> Engine:
    """Return the engine registered as ``engine_id``.

    :raises Unprocessable: ``unknown-engine``.
    """
    try:
        return engines.get(engine_id)
    except engines.UnknownEngine:
        known = ", ".join(engines.ENGINE_MODULES)
        raise Unprocessable(
            f"There is no game called {engine_id!r}; known games: {known}.", code="unknown-engine"
        ) from None


def check_players(players: list[NewPlayer]) -> None:
    """Refuse players that share a name or an email address: seats are told apart by
    name in mails, pages, records and mail commands, so two players called ``Ann`` (or
    ``ann `` and ``Ann``: names are compared without case and surrounding spaces) could
    not be; and one address holding two seats would get both seats' mail (addresses are
    compared as accounts store them: trimmed, lower-cased).

    :raises Unprocessable: ``duplicate-player-name`` or ``duplicate-player-email``,
        naming what is repeated.
    """
    for code, label, keys in (
        (
            "duplicate-player-name",
            "is called",
            [(p.name.strip().casefold(), p.name) for p in players],
        ),
        (
            "duplicate-player-email",
            "has the address",
            [(p.email.strip().lower(), p.email) for p in players if p.email],
        ),
    ):
        seen: dict[str, str] = {}
        repeated: list[str] = []
        for key, shown in keys:
            if key in seen and seen[key] not in repeated:
                repeated.append(seen[key])
            seen.setdefault(key, shown)
        if repeated:
            what = "a name" if code.endswith("name") else "an address"
            raise Unprocessable(
                f"Each player needs {what} of their own; more than one "
                f"{label} {', '.join(repr(r) for r in repeated)}.",
                code=code,
            )


def prepare_game(
    engine_id: str,
    players: list[NewPlayer],
    options: dict | None,
    clock: dict | None = None,
    creator: Account | None = None,
    rated: bool = False,
    creator_key: str = "anonymous",
    start_at: datetime | None = None,
    unfilled: str = "cancel",
) -> tuple[Transition, list[str], list[Any]]:
    """Validate a new game and build it, its seats and its first events, writing
    nothing but the invitations' address rows into the session (the one check of every
    creation: single, bulk, campaign); the caller writes the transition with the rows
    returned (:func:`arbiter.games.creation.create_game`,
    :func:`arbiter.games.bulk.stage_games`), and has checked the inviter of the whole
    request first (:func:`arbiter.accounts.inviters.check_inviter`).

    :param rated: the game updates its players' ratings when it ends
        (:mod:`arbiter.accounts.ratings`).
    :returns: the settled transition of the new game (version 0), the seat tokens,
        and the invitations and invitation mails to write with it.
    :raises: as :func:`arbiter.games.creation.create_game`, Unprocessable
        ``duplicate-player-name``, ``duplicate-player-email`` (:func:`check_players`),
        Unprocessable
        ``unrated-seat`` for a rated game whose seats are not all accounts or built-in
        bots, belong twice to one person (a bot account is its owner's), or are all
        bots (:func:`arbiter.accounts.ratings.check_rated`),
        and ArbiterError 422 ``bad-start`` for a ``start_at`` that is not in the future.
    """
    engine = engine_for(engine_id)
    invitations.check_policy(unfilled, start_at)
    time_control = clocks.load_config(clock)
    loaded = engine.load_options(len(players), options)
    players = bot_accounts.labelled(bot_seats.check_bots(players))
    check_players(players)
    bots = bot_accounts.seated_bots([p.account for p in players], creator)
    state = engine.setup(len(players), loaded)
    seed = fairness.new_seed()
    tokens = [access.new_token() for _ in players]
    game = Game(
        id=secrets.token_hex(8),
        engine=engine.id,
        engine_version=engine.version,
        status="active",
        version=0,
        options=loaded,
        clock=time_control,
        seed=seed,
        seed_commitment=fairness.commitment(seed),
        state=state,
        prompt={},
        prompt_since=0,
    )
    game.creator_token = access.new_token()
    game.creator_token_hash = access.token_hash(game.creator_token)
    game.creator_account_id = creator.id if creator else None
    game.start_at, game.unfilled = start_at, unfilled
    game.seats = [_seat(i, p, t, b) for i, (p, t, b) in enumerate(zip(players, tokens, bots))]
    if rated:
        ratings.check_rated(game.seats)
    game.rated = rated
    invites, invite_mails = invitations.invite_seats(game, creator, creator_key)
    if unfilled == "cancel" and any(i.status != "pending" for i in invites):
        db.session.rollback()
        raise Unprocessable(
            "One of the addresses does not accept invitations; choose "
            "another player or unfilled: start.",
            code="invitation-refused",
        )
    if any(i.status == "pending" for i in invites) or start_at is not None or game.has_open:
        game.status = "waiting"  # until its invited and open seats are taken, or start_at
    tr = Transition(game, engine, state)
    tr.events.append(
        events.GameCreated(
            engine=engine.id,
            engine_version=engine.version,
            options=loaded,
            players=[p.name for p in players],
            seed_commitment=game.seed_commitment,
        )
    )
    tr.events.extend(events.SeatJoined(seat=i, name=p.name) for i, p in enumerate(players))
    if game.status == "waiting" and clocks.config(game)["type"] != "none":
        tr.events.append(events.ClockPaused(by="invitations"))
    settle(tr, set(), roll=False)
    return tr, tokens, [*invites, *invite_mails]


def _seat(number: int, player: NewPlayer, token: str, bot: Account | None = None) -> Seat:
    """Return a new seat; linked to its bot account (``bot``, never mailed), else to
    the account of its email address, if any."""
    account = bot or accounts.account_by_address(player.email)
    return Seat(
        bot_account=bot is not None,
        seat=number,
        name=player.name,
        email=player.email,
        tz=player.tz or (account.tz if account else None),
        token_hash=access.token_hash(token),
        account_id=account.id if account else None,
        mail_off=account.mail_off if account else False,
        digest=account.digest if account else False,
        open=player.open,
        bot=player.bot,
    )


def list_games(
    status: str | None = None, engine: str | None = None, player: str | None = None
) -> Any:
    """Return a select of games, newest first, filtered by status, engine and player
    name (not email: addresses are never shown or searchable).

    :raises Unprocessable: ``unknown-engine`` (naming the known ones) for an engine
        there is none of, rather than an empty list (issue 22, item 15).
    """
    if engine:
        engine_for(engine)
    query = (
        sa.select(Game)
        .options(defer(Game.state))  # summaries never show the state
        .order_by(Game.created_at.desc(), Game.id.desc())
    )  # one index, read backwards
    if status:
        query = query.where(Game.status == status)
    if engine:
        query = query.where(Game.engine == engine)
    if player:
        query = query.where(Game.seats.any(Seat.name == player))
    return query
