"""Telling the stream hubs that a game has new committed events.

:func:`committed` is called by :func:`arbiter.service.commit.after_commit` in whatever
process committed (web or worker). With ``STREAM_REDIS_URL`` set (by default the
Celery broker when it is Redis) it publishes the game's new version on the Redis
channel ``<STREAM_CHANNEL>:game:<id>``, which every web process's hub subscribes to;
without it, the hubs of this process are told directly (the embedded default: the
hubs' poll of watched games finds what other processes, such as the worker, wrote).
"""

from __future__ import annotations

import logging
import os
from typing import Callable

from flask import current_app

log = logging.getLogger(__name__)

Listener = Callable[[str, int], None]
LISTENERS: list[Listener] = []
"""In-process hubs: each is called with ``(game_id, version)`` from the committing
thread (it must hand the notice over to its own event loop)."""

_clients: dict[tuple[int, str], object] = {}


def channel(prefix: str, game_id: str) -> str:
    """Return the Redis channel on which the versions of ``game_id`` are published."""
    return f"{prefix}:game:{game_id}"


def redis_client(url: str):
    """Return this process's Redis client for ``url`` (one connection pool per process)."""
    import redis

    key = (os.getpid(), url)
    if key not in _clients:
        _clients[key] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return _clients[key]


def committed(game_id: str, version: int) -> None:
    """Announce that ``game_id`` has committed events up to ``version``.

    A failure to publish is logged, not raised: the hubs' poll finds the events within
    ``STREAM_POLL_SECONDS``.
    """
    url = current_app.config.get("STREAM_REDIS_URL")
    if not url:
        for listener in list(LISTENERS):
            listener(game_id, version)
        return
    try:
        redis_client(url).publish(channel(current_app.config["STREAM_CHANNEL"], game_id),
                                  str(version))
    except Exception:  # noqa: BLE001 - any Redis failure: the poll catches up
        log.warning("could not publish version %s of game %s", version, game_id,
                    exc_info=True)


def committed_many(versions: list[tuple[str, int]]) -> None:
    """Announce several ``(game_id, version)`` at once (one Redis round trip, a
    pipeline); a failure is logged, not raised, as in :func:`committed`."""
    url = current_app.config.get("STREAM_REDIS_URL")
    if not url or not versions:
        for game_id, version in versions:
            committed(game_id, version)
        return
    prefix = current_app.config["STREAM_CHANNEL"]
    try:
        pipe = redis_client(url).pipeline(transaction=False)
        for game_id, version in versions:
            pipe.publish(channel(prefix, game_id), str(version))
        pipe.execute()
    except Exception:  # noqa: BLE001 - any Redis failure: the poll catches up
        log.warning("could not publish the versions of %d games", len(versions),
                    exc_info=True)
