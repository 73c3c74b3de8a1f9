"""Telling the stream hubs that a game's talk has a new entry, so that a long-poll of
``GET /v1/games/{id}/messages?wait=S`` answers at once, without a thread held while it
waits (:meth:`arbiter.streams.asgi.Front.long_poll`), and the game's streams send the
new message to each reader that may read it (:meth:`arbiter.streams.hub.Hub.deliver_talk`).

The notice travels as a game's does (:func:`arbiter.streams.publish.committed`: Redis
pub/sub, or this process's hubs), under the key :func:`key` and with the entry's ``n``
for its version. A notice that is lost costs a waiting reader nothing but time: the
long-poll asks again when its wait is over.
"""

from __future__ import annotations

from arbiter.streams import publish
from arbiter.talk.log import TalkAppended
from arbiter.uow import Committed


def key(game_id: str) -> str:
    """Return the hubs' key of ``game_id``'s talk (a game id never holds a colon)."""
    return f"talk:{game_id}"


def is_key(key: str) -> bool:
    """True when ``key`` is a hub key made by :func:`key` (not a game id)."""
    return key.startswith("talk:")


def game_of(key: str) -> str:
    """Return the game id of a hub key made by :func:`key`."""
    return key.removeprefix("talk:")


def tell(done: Committed) -> None:
    """Committed handler (:mod:`arbiter.follow_ups`): announce each game's last talk
    entry committed in the transaction."""
    last: dict[str, int] = {}
    for notice in done.notices:
        if isinstance(notice, TalkAppended):
            last[notice.game_id] = max(notice.n, last.get(notice.game_id, 0))
    if last:
        publish.committed_many([(key(g), n) for g, n in last.items()])
