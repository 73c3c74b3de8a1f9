"""The Redis channels a web process's hub listens on: only those of the games (and
game talks) it has readers or long-poll waiters for.

Every commit publishes its game's new version (:mod:`arbiter.streams.publish`). A hub
that followed every game (one pattern for all) would read and parse every commit of
the whole service in every web process, streams or not: 26-32 µs of its event loop's
CPU per notice (measured with 20,000 notices of games it did not watch), so at 1,000
commits a second each web process would spend about 3 % of a core discarding them,
however many there are. So the hub subscribes to a game's channel when the game's
first reader or waiter arrives and unsubscribes when its last one leaves.

A reader must not miss a commit made between its read of the backlog and its
subscription: :meth:`Subscriptions.ready` waits until Redis has answered the
subscription (a round trip on loopback) before the reader reads. Redis answers one
connection's commands in order, and one task sends them in the order they were asked
for, so a channel subscribed, left and subscribed again is ready at the answer to its
last SUBSCRIBE. While Redis is unreachable nothing is subscribed and nothing waits:
the hub's poll of watched games (``STREAM_POLL_SECONDS``) covers the gap, and the
next connection subscribes every channel still wanted in one command.
"""

from __future__ import annotations

import asyncio

from arbiter.streams import publish

READY_SECONDS = 2.0
"""The longest :meth:`Subscriptions.ready` waits for Redis's answer (then the poll of
watched games covers a notice missed)."""


class Subscriptions:
    """The game channels one hub wants, and the SUBSCRIBEs Redis has not answered yet.

    :param prefix: ``STREAM_CHANNEL`` (a key's channel is
        :func:`arbiter.streams.publish.channel`).
    :param on_redis: False when notices come in process (no ``STREAM_REDIS_URL``):
        then nothing is subscribed and nothing waits.
    """

    def __init__(self, prefix: str, on_redis: bool) -> None:
        self.prefix = prefix
        self.on_redis = on_redis
        self.wanted: set[str] = set()
        self.unanswered: dict[str, int] = {}
        """channel -> SUBSCRIBEs sent or queued and not answered yet."""
        self.waiting: dict[str, asyncio.Future] = {}
        self.commands: asyncio.Queue | None = None
        """The commands to send, while connected (:meth:`run`); None otherwise."""
        self.connected = asyncio.Event()
        self.lost = False
        """True once a connection failed, until the next one is made: then
        :meth:`ready` does not wait for Redis."""

    def channel(self, key: str) -> str:
        """Return the channel of a hub key (a game id, or a talk key)."""
        return publish.channel(self.prefix, key)

    def key(self, channel: str) -> str | None:
        """Return the hub key of a game channel (None: not one of ours)."""
        head = publish.channel(self.prefix, "")
        return channel[len(head) :] if channel.startswith(head) else None

    def want(self, key: str) -> None:
        """Subscribe to ``key``'s channel (its feed was just made)."""
        channel = self.channel(key)
        self.wanted.add(channel)
        if self.commands is not None:
            self.unanswered[channel] = self.unanswered.get(channel, 0) + 1
            self.commands.put_nowait(("subscribe", channel))

    def drop(self, key: str) -> None:
        """Unsubscribe from ``key``'s channel (its feed was just dropped)."""
        channel = self.channel(key)
        self.wanted.discard(channel)
        self._release(channel)
        if self.commands is not None:
            self.commands.put_nowait(("unsubscribe", channel))

    async def ready(self, *keys: str) -> None:
        """Return once Redis has answered the subscriptions of ``keys``: while the
        first connection is being made, once it is made and has answered; at once
        while Redis is unreachable; after :data:`READY_SECONDS` at most."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        if not self.on_redis:
            return
        if self.commands is None and not self.lost:
            try:
                await asyncio.wait_for(self.connected.wait(), READY_SECONDS)
            except TimeoutError:
                return
        futures = []
        for channel in map(self.channel, keys):
            if self.unanswered.get(channel):
                if channel not in self.waiting:
                    self.waiting[channel] = loop.create_future()
                futures.append(self.waiting[channel])
        if futures:
            await asyncio.wait(futures, timeout=max(0.0, start + READY_SECONDS - loop.time()))

    def answered(self, channel: str) -> None:
        """Redis answered a SUBSCRIBE of ``channel``."""
        left = self.unanswered.get(channel, 0) - 1
        if left > 0:
            self.unanswered[channel] = left
            return
        self.unanswered.pop(channel, None)
        self._release(channel)

    def _release(self, channel: str) -> None:
        """Wake whoever waits on ``channel`` (answered, dropped or disconnected)."""
        future = self.waiting.pop(channel, None)
        if future is not None and not future.done():
            future.set_result(None)

    async def run(self, pubsub) -> None:
        """Send the subscriptions on ``pubsub`` (redis-py's asyncio ``PubSub``, whose
        answers another task reads) until cancelled or the connection fails: first
        every wanted channel in one SUBSCRIBE, then each change in the order asked."""
        self.commands = asyncio.Queue()
        self.unanswered = dict.fromkeys(self.wanted, 1)
        self.lost = False
        self.connected.set()
        try:
            if self.wanted:
                await pubsub.subscribe(*self.wanted)
            while True:
                command, channel = await self.commands.get()
                await getattr(pubsub, command)(channel)
        finally:
            self.commands = None
            self.connected.clear()
            for channel in list(self.unanswered):
                self._release(channel)
            self.unanswered.clear()
