"""Telling the stream hubs that a game has new committed events, and that a personal
token was revoked or an account deleted (the hubs then close the streams it opened).

:func:`tell` (a committed handler, :mod:`arbiter.follow_ups`) announces the games'
new versions in whatever process committed (web or worker). With ``STREAM_REDIS_URL``
set (by default the Celery broker when it is Redis) it publishes the game's new version
on the Redis channel ``<STREAM_CHANNEL>:game:<id>``, to which the hubs with readers or
waiters of that game subscribe (:mod:`arbiter.streams.subscriptions`); without it, the
hubs of this process are told directly (the embedded default: the hubs' poll of
watched games finds what other processes, such as the worker, wrote).

:func:`close_revoked` (a committed handler too) announces the token revocations and
account deletions that :mod:`arbiter.accounts.accounts` announced to its unit of work
(:class:`~arbiter.accounts.accounts.TokenRevoked`,
:class:`~arbiter.accounts.accounts.AccountDeleted`), once committed: it publishes
``token:<id>`` or ``account:<id>`` on ``<STREAM_CHANNEL>:revoked`` (or tells this
process's hubs), and every hub closes at once the streams opened with that token or by
that account. The hubs' periodic re-check of their readers' tokens catches a notice
that was lost.

The same channel carries the account streams' own notices: ``seat:<account>:<game>:<seat>``
(:func:`follow_seats`: an account got a seat in a new game; its open account streams
follow that game from its first event) and ``stream:<token>:<stream id>``
(:func:`stream_opened`: a personal token opened an account stream; every other account
stream of that token ends, ``replaced``: one account stream per token).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

import redis

from arbiter import settings
from arbiter.accounts.accounts import AccountDeleted, TokenRevoked
from arbiter.games.followers import SeatTaken
from arbiter.uow import Committed

log = logging.getLogger(__name__)

Listener = Callable[[str, int], None]
LISTENERS: list[Listener] = []
"""In-process hubs: each is called with ``(game_id, version)`` from the committing
thread (it must hand the notice over to its own event loop)."""

Revocation = Callable[[str, str], None]
REVOCATION_LISTENERS: list[Revocation] = []
"""In-process hubs: each is called with ``(kind, id)`` (``"token"`` or ``"account"``)
from the revoking thread (it must hand the notice over to its own event loop)."""
_clients: dict[tuple[int, str], object] = {}


def channel(prefix: str, game_id: str) -> str:
    """Return the Redis channel on which the versions of ``game_id`` are published."""
    return f"{prefix}:game:{game_id}"


def revocation_channel(prefix: str) -> str:
    """Return the Redis channel on which revoked tokens and deleted accounts are
    published (``token:<id>`` or ``account:<id>``)."""
    return f"{prefix}:revoked"


def redis_client(url: str):
    """Return this process's Redis client for ``url`` (one connection pool per process)."""
    key = (os.getpid(), url)
    if key not in _clients:
        _clients[key] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return _clients[key]


def committed(game_id: str, version: int) -> None:
    """Announce that ``game_id`` has committed events up to ``version``.

    A failure to publish is logged, not raised: the hubs' poll finds the events within
    ``STREAM_POLL_SECONDS``.
    """
    _announce(
        LISTENERS,
        (game_id, version),
        lambda prefix: channel(prefix, game_id),
        str(version),
        f"version {version} of game {game_id}",
    )


def _announce(
    listeners: list, args: tuple, channel_of: Callable[[str], str], message: str, what: str
) -> None:
    """Call this process's ``listeners`` with ``args`` (no ``STREAM_REDIS_URL``), or
    publish ``message`` on ``channel_of(STREAM_CHANNEL)``; a Redis failure is logged
    (as "could not publish ``what``"), never raised."""
    url = settings.current().streams.redis_url
    if not url:
        for listener in list(listeners):
            listener(*args)
        return
    try:
        redis_client(url).publish(channel_of(settings.current().streams.channel), message)
    except Exception:  # noqa: BLE001 - any Redis failure: the poll or re-check catches up
        log.warning("could not publish %s", what, exc_info=True)


def committed_many(versions: list[tuple[str, int]]) -> None:
    """Announce several ``(game_id, version)`` at once (one Redis round trip, a
    pipeline); a failure is logged, not raised, as in :func:`committed`."""
    url = settings.current().streams.redis_url
    if not url or not versions:
        for game_id, version in versions:
            committed(game_id, version)
        return
    prefix = settings.current().streams.channel
    try:
        pipe = redis_client(url).pipeline(transaction=False)
        for game_id, version in versions:
            pipe.publish(channel(prefix, game_id), str(version))
        pipe.execute()
    except Exception:  # noqa: BLE001 - any Redis failure: the poll catches up
        log.warning("could not publish the versions of %d games", len(versions), exc_info=True)


def revoked(kind: str, ident: str) -> None:
    """Announce that the personal token ``ident`` was revoked (``kind`` ``"token"``) or
    the account ``ident`` deleted (``"account"``): every stream it opened is closed
    (or one of the account streams' notices above, ``"seat"`` or ``"stream"``).
    Call it after the commit. A failure to publish is logged, not raised: the hubs'
    re-check of their readers' tokens (``STREAM_REVOKE_CHECK_SECONDS``) closes them.
    """
    _announce(
        REVOCATION_LISTENERS,
        (kind, ident),
        revocation_channel,
        f"{kind}:{ident}",
        f"the revocation of {kind} {ident}",
    )


def tell(done: Committed) -> None:
    """Committed handler (:mod:`arbiter.follow_ups`): announce the games' new versions
    (:func:`committed_many`)."""
    committed_many([(a.game_id, a.version) for a in done.appended])


def close_revoked(done: Committed) -> None:
    """Committed handler (:mod:`arbiter.follow_ups`): announce each token revoked and
    account deleted in the transaction (:func:`revoked`), so that every stream it
    opened is closed."""
    for notice in done.notices:
        if isinstance(notice, TokenRevoked):
            revoked("token", notice.token_id)
        elif isinstance(notice, AccountDeleted):
            revoked("account", notice.account_id)


def follow_seats(done: Committed) -> None:
    """Committed handler (:mod:`arbiter.follow_ups`): announce each seat an account
    was given in the transaction (:class:`arbiter.games.followers.SeatTaken`), so that
    the account's open streams follow its game. A lost notice is logged: the account's
    next connection follows the game."""
    for notice in done.notices:
        if isinstance(notice, SeatTaken):
            revoked("seat", f"{notice.account_id}:{notice.game_id}:{notice.seat}")


def stream_opened(token_id: str, stream_id: str) -> None:
    """Announce that the personal token ``token_id`` opened the account stream
    ``stream_id``: the hubs end that token's other account streams (one per token).
    A failure to publish is logged, not raised (the older stream then stays open in
    another process until it ends by itself)."""
    revoked("stream", f"{token_id}:{stream_id}")
