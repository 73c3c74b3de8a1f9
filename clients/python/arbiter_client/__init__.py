"""A small typed client for the Arbiter REST API, for scripts and bots.

::

    from arbiter_client import Client, random_move

    with Client("http://127.0.0.1:8000") as arbiter:
        game = arbiter.games.create("space-worm", ["Ann", "Bob"])
        ann = arbiter.with_token(game["seats"][0]["token"])
        for event in arbiter.events.stream(game["id"]):
            legal = ann.moves.legal(game["id"])
            if legal["moves"]:
                ann.moves.play(game["id"], random_move(legal), expected_version=legal["version"])

Every POST that takes an ``Idempotency-Key`` gets one (kept across its retries); 429
and 503 are retried after ``Retry-After`` (:class:`Retry`); refusals are raised as
typed errors carrying the problem's ``code`` (:mod:`arbiter_client.errors`).
"""

from arbiter_client.client import DEFAULT_URL, Client
from arbiter_client.errors import (
    ApiError,
    ArbiterError,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    StreamReplaced,
    TransportError,
    Unauthorized,
    Unavailable,
    Unprocessable,
)
from arbiter_client.moves import random_move
from arbiter_client.session import IDEMPOTENT_POSTS, NO_RETRY, Retry, Session

__all__ = [
    "DEFAULT_URL",
    "IDEMPOTENT_POSTS",
    "NO_RETRY",
    "ApiError",
    "ArbiterError",
    "BadRequest",
    "Client",
    "Conflict",
    "Forbidden",
    "NotFound",
    "RateLimited",
    "Retry",
    "Session",
    "StreamReplaced",
    "TransportError",
    "Unauthorized",
    "Unavailable",
    "Unprocessable",
    "random_move",
]
