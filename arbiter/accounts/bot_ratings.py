"""Built-in bots' ratings: one player per engine, bot kind and level.

A rated game may seat built-in bots (:mod:`arbiter.games.bot_seats`); each is rated like
an account (:func:`arbiter.accounts.ratings.game_over`, the same model and ranking) in
``bot_ratings``, keyed by engine, ``kind`` and ``level``: ``mcts`` at level 3 is one
player across all games, ``mcts`` at level 4 another. A bot that holds several seats of
one game (a bot against itself) is not rated by it (the others are, against it). The
autopilot playing for an absent player is not rated as a bot: the seat stays its
player's, and the game's result lists it under ``autopilot``.
"""

from __future__ import annotations

from collections import Counter

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import BotRating
from arbiter.models.timestamps import iso

Key = tuple[str, int]
"""A bot's identity: its kind and level."""


def key(bot: dict) -> Key:
    """Return the identity of a seat's bot (``{"kind", "level"}``)."""
    return bot["kind"], int(bot["level"])


def mirrored(bots: list[dict]) -> set[Key]:
    """Return the bots that hold more than one of ``bots``' seats."""
    return {k for k, n in Counter(key(b) for b in bots).items() if n > 1}


def rows_of(engine: str, bots: list[dict], mu: float, sigma: float) -> dict[Key, BotRating]:
    """Return the rating row of each of ``bots`` at ``engine`` (read ``FOR UPDATE``; a
    bot's first rated game starts from ``mu`` and ``sigma``, the model's default)."""
    wanted = {key(b) for b in bots}
    found = {
        (r.kind, r.level): r
        for r in db.session.scalars(
            sa.select(BotRating).where(BotRating.engine == engine).with_for_update()
        )
        if (r.kind, r.level) in wanted
    }
    for kind, level in wanted - set(found):
        found[(kind, level)] = BotRating(
            engine=engine, kind=kind, level=level, games=0, mu=mu, sigma=sigma
        )
    return found


def leaderboard(engine: str) -> list[dict]:
    """Return the built-in bots' ratings at ``engine``, best ordinal first."""
    rows = db.session.scalars(
        sa.select(BotRating)
        .where(BotRating.engine == engine)
        .order_by((BotRating.mu - 3 * BotRating.sigma).desc(), BotRating.kind, BotRating.level)
    )
    return [
        {
            "bot": {"kind": r.kind, "level": r.level},
            "engine": r.engine,
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "ordinal": round(r.mu - 3 * r.sigma, 3),
            "games": r.games,
            "updated_at": iso(r.updated_at),
        }
        for r in rows
    ]
