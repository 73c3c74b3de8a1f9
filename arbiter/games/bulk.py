"""Bulk creation: many games in one request, all created in one transaction or none.

Every game of a batch goes through the same check and build as a single creation
(:func:`arbiter.games.games.prepare_game`) before anything is written; the first
game that fails makes the whole batch a 422 ``bad-game`` naming its index, and nothing
is written. Then all the games, their events, mails and the idempotent answer are
written in one transaction, committed once; the chance rolls and mails each game needs
are enqueued after that commit, as for a single game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from arbiter import idempotency, limits, settings
from arbiter.accounts import identity, inviters
from arbiter.errors import ArbiterError, Unprocessable
from arbiter.extensions import db
from arbiter.games import games, invitations, reading
from arbiter.games.commit import write
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


def new_games(
    specs: list[GameSpec],
    key: str | None,
    body: Any,
    creator: identity.Principal | None = None,
    start_at: datetime | None = None,
    unfilled: str | None = None,
) -> tuple[int, dict]:
    """Create every game of ``specs`` in one transaction, or none (once per
    Idempotency-Key, scoped to the caller's token as single creation is); return
    ``(201, {"games": [creation answer, ...]})`` in the order given.

    :param creator: the caller; a personal token's account becomes every game's
        creator. Callers without a token (only with ``OPEN_CREATION``) are scoped by
        their client address (:func:`arbiter.idempotency.caller`).
    :param start_at: the batch's start (UTC), for every game that names none: its games
        wait (clocks stopped, no rolls) and the clock sweep starts them all then; a game
        with invited seats starts when they have all accepted, at ``start_at`` at the
        latest (as a single game does). :param unfilled: the batch's policy for seats
        nobody took, replacing each game's.
    :raises ArbiterError: 422 ``bad-start``: the batch's ``start_at`` is not in the
        future, or ``unfilled`` is unknown.
    :raises Unprocessable: ``too-many-games`` (more than ``BULK_GAMES_MAX``),
        ``bad-game`` (one game fails the single creation's checks: ``index`` names it,
        ``problem`` holds that game's own ``code`` and ``detail``). Nothing is written.
    """
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
    scope = f"bulk-games:{idempotency.caller(creator)}"
    account = creator.account if creator else None

    creator_key = limits.caller_key(creator)

    def run(row):
        uow = UnitOfWork()
        staged = stage_games(uow, specs, account, creator_key)
        answer = {"games": [reading.created(game, tokens) for game, tokens in staged]}
        stored = row(201, answer)
        if stored is not None:
            uow.session.add(stored)
        uow.commit()
        return 201, answer

    return idempotency.once(scope, key, body, run)


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
    inviters.check_inviter(account, [p.email for spec in specs for p in spec.players])
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
