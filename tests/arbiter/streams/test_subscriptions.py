"""A hub on Redis subscribes only to the games it has readers or waiters for
(arbiter/streams/subscriptions.py): once ``ready`` returns, a notice reaches the
waiter; a game nobody here watches is not subscribed; the last waiter gone, the
channel is left; a channel left and taken again at once still hears its notices."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
import redis

from arbiter.streams import publish
from arbiter.streams.hub import Hub
from tests.conftest import REDIS_URL, make_app, need


@pytest.fixture
def redis_app(sqlite_url):
    """An app whose hub listens on Redis, on a channel prefix of its own."""
    url = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    channel = f"t{uuid.uuid4().hex[:8]}"
    app = make_app(sqlite_url, STREAM_REDIS_URL=url, STREAM_CHANNEL=channel)
    client = redis.Redis.from_url(url)
    yield app, client, lambda key: publish.channel(channel, key)
    client.close()


def subscribers(client, channel: str) -> int:
    """Return how many connections Redis has subscribed to ``channel``."""
    return dict(client.pubsub_numsub(channel))[channel.encode()]


async def until(check, seconds: float = 5.0) -> bool:
    """Return True once ``check()`` is true (polled), False after ``seconds``."""
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.01)
    return True


def test_a_hub_hears_the_games_it_watches_and_only_those(redis_app):
    app, client, channel = redis_app

    async def scenario():
        hub = Hub(app)
        heard: list[str] = []
        notify = hub.notify
        hub.notify = lambda key, version: (heard.append(key), notify(key, version))
        hub.start()
        try:
            waiter = hub.watch("g1", 5)
            await hub.ready("g1")
            on_g1 = subscribers(client, channel("g1"))
            on_g2 = subscribers(client, channel("g2"))
            client.publish(channel("g2"), "9")  # nobody here watches g2
            client.publish(channel("g1"), "6")
            version = await asyncio.wait_for(waiter[1], 5)
            hub.unwatch("g1", waiter)
            left = await until(lambda: subscribers(client, channel("g1")) == 0)
            return on_g1, on_g2, version, heard, left
        finally:
            await hub.stop()

    on_g1, on_g2, version, heard, left = asyncio.run(scenario())
    assert (on_g1, on_g2, version) == (1, 0, 6)
    assert heard == ["g1"]
    assert left


def test_a_channel_left_and_taken_again_at_once_still_hears(redis_app):
    app, client, channel = redis_app

    async def scenario():
        hub = Hub(app)
        hub.start()
        try:
            first = hub.watch("g", 1)
            await hub.ready("g")
            hub.unwatch("g", first)  # UNSUBSCRIBE queued
            again = hub.watch("g", 1)  # SUBSCRIBE queued after it
            await hub.ready("g")
            subscribed = subscribers(client, channel("g"))
            client.publish(channel("g"), "2")
            version = await asyncio.wait_for(again[1], 5)
            hub.unwatch("g", again)
            return subscribed, version
        finally:
            await hub.stop()

    assert asyncio.run(scenario()) == (1, 2)


def test_ready_waits_for_nothing_without_redis(app):
    """The embedded default (no STREAM_REDIS_URL) subscribes to nothing: ``ready``
    returns at once and notices come in process."""

    async def scenario():
        hub = Hub(app)
        hub.start()
        try:
            waiter = hub.watch("g", 1)
            start = time.monotonic()
            await hub.ready("g")
            waited = time.monotonic() - start
            publish.committed("g", 2)  # the in-process publisher
            version = await asyncio.wait_for(waiter[1], 5)
            return waited, version
        finally:
            await hub.stop()

    with app.app_context():
        waited, version = asyncio.run(scenario())
    assert waited < 0.5 and version == 2
