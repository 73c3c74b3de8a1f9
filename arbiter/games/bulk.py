"""Bulk creation: many games in one request, all created in one transaction or none.

Every game of a batch goes through the same check and build as a single creation
(:func:`arbiter.games.games.prepare_game`) before anything is written; the first
game that fails makes the whole batch a 422 ``bad-game`` naming its index, and nothing
is written. Then all the games, their events and mails (and the answer the edge
keeps for an Idempotency-Key) are written in one transaction, committed once; the
chance rolls and mails each game needs are enqueued after that commit, as for a
single game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from arbiter import settings
from arbiter.accounts import inviters
from arbiter.errors import ArbiterError, Unprocessable
from arbiter.extensions import db
from arbiter.games import games, invitations, reading
from arbiter.games.commit import write
from arbiter.games.creation import GameCreated
from arbiter.models import Account
from arbiter.uow import UnitOfWork
from engines.base import EngineError


@dataclass
class GameSpec:
    """One game of a batch: what ``POST /v1/games`` takes."""

    engine: str
    players: list[games.NewPlayer]
    options: dict | None = None
    clock: dict | None = None
    rated: bool = False
    start_at: datetime | None = None
    unfilled: str = "cancel"


@dataclass(frozen=True)
class CreateGames:
    """A batch of new games (``POST /v1/bulk-games``).

    :param creator: the creating account (every game's creator), or None.
    :param creator_key: who creates (:func:`arbiter.limits.caller_key`), for the
        invitation limit.
    :param start_at: the batch's start (UTC), for every game that names none: its games
        wait (clocks stopped, no rolls) and the clock sweep starts them all then; a game
        with invited seats starts when they have all accepted, at ``start_at`` at the
        latest (as a single game does). :param unfilled: the batch's policy for seats
        nobody took, replacing each game's.
    """

    specs: list[GameSpec]
    creator: Account | None = None
    creator_key: str = "anonymous"
    start_at: datetime | None = None
    unfilled: str | None = None


@dataclass(frozen=True)
class GamesCreated:
    """A created batch: each game as :func:`arbiter.games.creation.create_game`
    returns it, in the order given."""

    games: list[GameCreated]


def new_games(uow: UnitOfWork, command: CreateGames) -> GamesCreated:
    """Create every game of the batch in ``uow``'s one transaction, or none; commit.

    :returns: the games, in the order given, with their seat and creator tokens
        (shown this once).
    :raises ArbiterError: 422 ``bad-start``: the batch's ``start_at`` is not in the
        future, or ``unfilled`` is unknown.
    :raises Unprocessable: ``too-many-games`` (more than ``BULK_GAMES_MAX``),
        ``bad-game`` (one game fails the single creation's checks: ``index`` names it,
        ``problem`` holds that game's own ``code`` and ``detail``). Nothing is written.
    """
    specs, start_at, unfilled = command.specs, command.start_at, command.unfilled
    limit = settings.current().limits.bulk_games_max
    if len(specs) > limit:
        raise Unprocessable(
            f"A batch holds at most {limit} games; this one has {len(specs)}. Split it.",
            code="too-many-games",
            extra={"limit": limit},
        )
    invitations.check_policy(unfilled or "cancel", start_at)
    specs = [
        replace(spec, start_at=spec.start_at or start_at, unfilled=unfilled or spec.unfilled)
        for spec in specs
    ]
    staged = stage_games(uow, specs, command.creator, command.creator_key)
    created = GamesCreated(
        [GameCreated(g.id, g.version, reading.created(g, tokens)) for g, tokens in staged]
    )
    uow.commit(created)
    return created


def stage_games(
    uow: UnitOfWork, specs: list[GameSpec], account=None, creator_key: str = "anonymous"
) -> list[tuple[Any, list[str]]]:
    """Check every game of ``specs`` as a single creation would, then write them all
    into ``uow``'s transaction (nothing is committed: the caller commits ``uow``). Bulk
    creation and a tournament's rounds (``arbiter/tournaments/tournaments.py``) both create
    their games through this.

    :param account: the creating account (every game's creator), or None.
    :param creator_key: who creates (:func:`arbiter.limits.caller_key`), for the
        invitation limit: a seat whose address is not an account's is invited with
        consent, as in single creation, and its game waits for the answer.
    :returns: ``(game, seat tokens)`` per game, in order.
    :raises arbiter.errors.Unauthorized: ``sign-in-to-invite`` (no account creates,
        and a seat names an address that has no account); :raises
        arbiter.errors.TooManyRequests: ``invitation-budget``: the batch's invited
        addresses together would take the account over ``INVITES_PER_DAY``
        (:func:`arbiter.accounts.inviters.check_inviter`).
    :raises Unprocessable: ``bad-game`` naming the first game that cannot be created;
        nothing was written. :raises arbiter.games.store.RaceLost: a write failed; the
        session has been rolled back.
    """
    inviters.check_inviter(account, [p.email for s in specs for p in s.players if p.bot is None])
    prepared = [_prepare(i, spec, account, creator_key) for i, spec in enumerate(specs)]
    staged = []
    try:
        for tr, tokens, rows in prepared:
            write(uow, tr, rows)
            staged.append((tr.game, tokens))
    except BaseException:
        db.session.rollback()
        raise
    return staged


def _prepare(index: int, spec: GameSpec, account, creator_key: str):
    """Check and build game ``index`` of a batch, as a single creation would
    (invited seats included: such a game waits for its invitations).

    :raises Unprocessable: ``bad-game`` with the game's own problem.
    """
    try:
        return games.prepare_game(
            spec.engine,
            spec.players,
            spec.options,
            spec.clock,
            creator=account,
            rated=spec.rated,
            creator_key=creator_key,
            start_at=spec.start_at,
            unfilled=spec.unfilled,
        )
    except (ArbiterError, EngineError) as err:
        raise Unprocessable(
            f"Game {index + 1} of the batch (index {index}) cannot be "
            f"created: {err.detail} "
            "No game of the batch was created.",
            code="bad-game",
            extra={
                "index": index,
                "problem": {"code": err.code, "detail": err.detail, **(err.extra or {})},
            },
        ) from err
