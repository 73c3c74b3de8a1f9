"""The stream hub on its own event loop: bounded buffers, cut-off of a reader that
falls behind, shared delivery to the others, long-poll waiters (real Event rows from
a real game on SQLite)."""

from __future__ import annotations

import asyncio

from arbiter.service.chance import advance_chance
from arbiter.store import events_after
from arbiter.streams.asgi import render_sse
from arbiter.streams.hub import Hub, Reader


def played(app, client) -> tuple[str, list]:
    """A Dark Horse game with its opening chance rolled; its id and its events."""
    made = client.post("/v1/games", json={"engine": "dark-horse",
                                          "players": [{"name": "Ann"}, {"name": "Bob"}]})
    game_id = made.get_json()["id"]
    with app.app_context():
        advance_chance(game_id, 3)
        return game_id, events_after(game_id, 0)


def test_a_reader_that_falls_behind_is_cut_off_and_the_others_get_everything(app, client):
    """A reader whose buffer (2 messages) overflows is cut off and removed; a reader
    with room gets every event, once, in order."""
    game_id, rows = played(app, client)
    assert len(rows) > 3

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()  # no notice sources: deliver by hand
        slow = Reader({game_id: None}, render_sse, 2, {game_id: 0})
        fast = Reader({game_id: 0}, render_sse, 100, {game_id: 0})
        hub.join(slow, {})
        hub.join(fast, {})
        hub.deliver(game_id, hub.feeds[game_id], rows)
        got = [fast.queue.get_nowait()[1] for _ in range(fast.queue.qsize())]
        return hub, slow, fast, got

    hub, slow, fast, got = asyncio.run(scenario())
    assert slow.cut.is_set() and slow not in hub.feeds[game_id].readers
    assert not fast.cut.is_set()
    assert got == [e.seq for e in rows]
    assert hub.open_readers == 1


def test_readers_share_rendering_but_see_only_their_own_secrets(app, client):
    """Two spectators get the very same bytes; a seat gets its own view of events only
    it may see, never another seat's."""
    game_id, rows = played(app, client)

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        readers = [Reader({game_id: seat}, render_sse, 100, {game_id: 0})
                   for seat in (None, None, 0, 1)]
        for reader in readers:
            hub.join(reader, {})
        hub.deliver(game_id, hub.feeds[game_id], rows)
        return [[r.queue.get_nowait()[2] for _ in range(r.queue.qsize())] for r in readers]

    spectator, other, seat0, seat1 = asyncio.run(scenario())
    assert spectator == other and all(a is b for a, b in zip(spectator, other))
    private = [i for i, e in enumerate(rows) if e.visible_to is not None]
    assert private  # the Goal deck shuffle is seen by nobody
    for i in private:
        for seat, got in ((0, seat0), (1, seat1)):
            shows = b'"hidden":true' not in got[i]
            assert shows == (seat in rows[i].visible_to)
        assert b'"hidden":true' in spectator[i]


def test_long_poll_waiter_wakes_on_a_later_version_only(app):
    """A waiter for "after 5" is not woken by version 5, and is by version 6."""
    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        waiter = hub.watch("g", 5)
        hub.notify("g", 5)
        early = waiter[1].done()
        hub.notify("g", 6)
        late = waiter[1].done() and waiter[1].result() == 6
        hub.unwatch("g", waiter)
        return early, late, dict(hub.feeds)

    early, late, feeds = asyncio.run(scenario())
    assert not early and late and feeds == {}
