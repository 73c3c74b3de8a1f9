"""Creating games once per Idempotency-Key: plain games and a campaign's next game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter import idempotency, limits
from arbiter.accounts import identity
from arbiter.games import access, campaigns, games, reading
from arbiter.models import Game


def _once(
    scope: str,
    key: str | None,
    body: Any,
    create: Callable[[Callable[[Game, list[str]], Any]], Game],
) -> tuple[int, dict]:
    """Run ``create`` once per ``(scope, key)``; return ``(201, creation answer)``."""

    def run(row):
        answer: dict = {}

        def stored(game: Game, tokens: list[str]):
            answer.update(reading.created(game, tokens))
            return row(201, answer)

        create(stored)
        return 201, answer

    return idempotency.once(scope, key, body, run)


def new_game(
    engine_id: str,
    players: list[games.NewPlayer],
    options: dict | None,
    clock: dict | None,
    key: str | None,
    body: Any,
    creator: identity.Principal | None = None,
    rated: bool = False,
    start_at=None,
    unfilled: str = "cancel",
) -> tuple[int, dict]:
    """Create a game (once per Idempotency-Key, scoped to the creating token: another
    caller's replay of the key creates its own game and never sees these tokens);
    return ``(201, answer with tokens)``.

    :param creator: the caller; a personal token's account becomes the game's creator
        (it may pause, resume, extend with that token). Callers without a token (only
        with ``OPEN_CREATION``) are scoped by their client address
        (:func:`arbiter.idempotency.caller`).

    :raises arbiter.errors.Unprocessable, engines.base.InvalidOptions: see
        :func:`arbiter.games.games.create_game`.
    """
    scope = f"games:{idempotency.caller(creator)}"
    account = creator.account if creator else None
    return _once(
        scope,
        key,
        body,
        lambda stored: games.create_game(
            engine_id,
            players,
            options,
            clock,
            stored,
            creator=account,
            rated=rated,
            creator_key=limits.caller_key(creator),
            start_at=start_at,
            unfilled=unfilled,
        )[0],
    )


def next_campaign_game(
    campaign_id: str,
    token: str | None,
    options: dict | None,
    clock: dict | None,
    key: str | None,
    body: Any,
) -> tuple[int, dict]:
    """Start a campaign's next game (organiser token; once per Idempotency-Key, scoped to
    the organiser); return ``(201, answer with tokens)``.

    :raises arbiter.errors.Unauthorized, arbiter.errors.Conflict: see
        :mod:`arbiter.games.campaigns`.
    """
    campaign = campaigns.organised(campaign_id, token)
    scope = f"campaign:{campaign.id}:{access.token_hash(token)}"
    return _once(
        scope, key, body, lambda stored: campaigns.start_next_game(campaign, options, clock, stored)
    )
