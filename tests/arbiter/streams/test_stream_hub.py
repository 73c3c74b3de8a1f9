"""The stream hub on its own event loop: bounded buffers, cut-off of a reader that
falls behind, shared delivery to the others, long-poll waiters (real Event rows from
a real game on SQLite)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace

from arbiter import settings as arbiter_settings
from arbiter.games.chance import advance_chance
from arbiter.games.store import events_after
from arbiter.streams.asgi import render_sse
from arbiter.streams.hub import Hub, Reader


def played(app, client) -> tuple[str, list]:
    """A Dark Horse game with its opening chance rolled; its id and its events."""
    made = client.post(
        "/v1/games", json={"engine": "dark-horse", "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
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
        readers = [
            Reader({game_id: seat}, render_sse, 100, {game_id: 0}) for seat in (None, None, 0, 1)
        ]
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


class Connection:
    """A direct writer (as :class:`arbiter.serve.DirectWriter`) into a list; reports
    ``unsent`` bytes waiting, or None once ``gone``."""

    def __init__(self, unsent: int = 0) -> None:
        self.writes: list[bytes] = []
        self.unsent = unsent
        self.gone = False

    def __call__(self, data: bytes) -> int | None:
        if self.gone:
            return None
        self.writes.append(data)
        return self.unsent


def direct_reader(
    game_id: str, seat, connection: Connection, after: int = 0, buffer: int = 100
) -> Reader:
    reader = Reader({game_id: seat}, render_sse, buffer, {game_id: after}, b": ka\n\n")
    reader.go_direct(connection, {game_id: after})
    return reader


def secret_draw(seq: int, seat: int) -> SimpleNamespace:
    """An event as the store returns it: a card drawn that only ``seat`` may see."""
    return SimpleNamespace(
        seq=seq,
        kind="chance",
        seat=None,
        visible_to=[seat],
        payload={"spec": {"kind": "draw"}, "outcome": [f"card-of-{seat}"]},
        at=datetime.now(UTC),
    )


def test_direct_readers_share_one_write_per_audience_and_see_only_their_secrets(app, client):
    """Written straight to their connections: each reader gets every event it lacks in
    one write; two spectators get the very same bytes object, each seat its own, and
    neither the spectator nor the other seat sees a seat's secret."""
    game_id, rows = played(app, client)
    private = [secret_draw(rows[-1].seq + 1, 0), secret_draw(rows[-1].seq + 2, 1)]
    rows = rows + private

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        connections = [Connection() for _ in range(4)]
        for seat, connection in zip((None, None, 0, 1), connections):
            hub.join(direct_reader(game_id, seat, connection), {})
        hub.deliver(game_id, hub.feeds[game_id], rows)
        return connections

    spectator, other, seat0, seat1 = [c.writes for c in asyncio.run(scenario())]
    assert all(len(w) == 1 for w in (spectator, other, seat0, seat1))
    assert spectator[0] is other[0]
    assert seat0[0] != seat1[0] and seat0[0] != spectator[0]
    for got in (spectator, seat0, seat1):
        assert got[0].count(b"\nid: ") + got[0].startswith(b"id: ") == len(rows)
    for event in private:
        (owner,) = event.visible_to
        mine, theirs = (seat0, seat1) if owner == 0 else (seat1, seat0)
        secret = event.payload["outcome"][0].encode()
        assert secret in mine[0]
        assert secret not in theirs[0] and secret not in spectator[0]
    assert spectator[0].count(b'"hidden":true') == 1 + len(private)  # and the shuffle


def test_direct_reader_gets_only_what_it_lacks_once_and_the_queue_first(app, client):
    """Events queued before a reader goes direct are written first (minus those its
    backlog sent); a later delivery writes only the events after what it holds."""
    game_id, rows = played(app, client)
    first, rest = rows[:2], rows[2:]

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        reader = Reader({game_id: None}, render_sse, 100, {game_id: 0}, b": ka\n\n")
        hub.join(reader, {})
        hub.deliver(game_id, hub.feeds[game_id], first)  # queued: backlog still going
        connection = Connection()
        reader.go_direct(connection, {game_id: first[0].seq})  # the backlog sent seq 1
        hub.deliver(game_id, hub.feeds[game_id], rows)  # overlaps: only the rest is new
        return connection.writes

    writes = asyncio.run(scenario())
    seqs = [[int(line[4:]) for line in w.split(b"\n") if line.startswith(b"id: ")] for w in writes]
    assert seqs == [[first[1].seq], [e.seq for e in rest]]


def test_direct_reader_too_far_behind_or_gone_is_cut_off(app, client):
    """A connection holding more unsent bytes than the reader's limit, or closed, gets
    the reader cut off and removed; the others still get the events."""
    game_id, rows = played(app, client)

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        stuck, gone, fine = Connection(unsent=10**9), Connection(), Connection()
        gone.gone = True
        readers = [direct_reader(game_id, None, c) for c in (stuck, gone, fine)]
        for reader in readers:
            hub.join(reader, {})
        hub.deliver(game_id, hub.feeds[game_id], rows)
        return hub, readers, fine

    hub, (stuck, gone, fine_reader), fine = asyncio.run(scenario())
    assert stuck.cut.is_set() and gone.cut.is_set() and not fine_reader.cut.is_set()
    assert hub.feeds[game_id].readers == {fine_reader} and hub.open_readers == 1
    assert len(fine.writes) == 1


def test_keep_alive_ticker_pings_quiet_readers_only(app):
    """The hub's one ticker writes the keep-alive to a direct reader quiet for a
    period and queues it for a queued reader; a reader just written to hears none."""
    arbiter_settings.override(app, STREAM_KEEPALIVE_SECONDS=0.2)

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        quiet, busy = Connection(), Connection()
        readers = [
            direct_reader("g", None, quiet),
            direct_reader("g", None, busy),
            Reader({"g": None}, render_sse, 4, {"g": 0}, b": ka\n\n"),
        ]
        for reader in readers:
            hub.join(reader, {})
        ticker = asyncio.ensure_future(hub._keep_alive())
        for _ in range(5):  # 0.25 s: busy is written to every 0.05 s
            await asyncio.sleep(0.05)
            readers[1].write_now(b"data\n\n")
        ticker.cancel()
        return quiet.writes, busy.writes, readers[2].queue.get_nowait()

    try:
        quiet, busy, queued = asyncio.run(scenario())
    finally:
        arbiter_settings.override(app, STREAM_KEEPALIVE_SECONDS=15.0)
    assert quiet == [b": ka\n\n"]
    assert b": ka\n\n" not in busy
    assert queued == (None, 0, b": ka\n\n")


def test_a_revocation_ends_the_readers_of_that_token_or_account_only(app):
    """A "token revoked" notice ends the readers that authenticated with it, an
    "account deleted" one every reader of that account (``ended == "revoked"``); the
    others, and readers with no personal token, go on. A reader that joins just after
    the notice (authenticated just before it) is ended at once."""

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        readers = [
            Reader({"g": None}, render_sse, 4, {"g": 0}, b"", token, account)
            for token, account in (("t1", "a1"), ("t2", "a1"), ("t3", "a2"), (None, None))
        ]
        for reader in readers:
            hub.join(reader, {})
        first = hub.revoke("token", "t1")
        ended_first = [r.ended for r in readers]
        second = hub.revoke("account", "a1")
        late = Reader({"g": None}, render_sse, 4, {"g": 0}, b"", "t9", "a1")
        hub.join(late, {})
        return hub, readers, late, first, ended_first, second

    hub, readers, late, first, ended_first, second = asyncio.run(scenario())
    assert (first, second) == (1, 1)
    assert ended_first == ["revoked", None, None, None]
    assert [r.cut.is_set() for r in readers] == [True, True, False, False]
    assert [r.ended for r in readers] == ["revoked", "revoked", None, None]
    assert late.ended == "revoked"
    assert hub.feeds["g"].readers == {readers[2], readers[3], late}
    assert hub.open_readers == 3  # late is ended; it leaves when its pump ends


def test_a_game_stream_ends_after_the_last_event_the_account_stream_goes_on(app, client):
    """Delivering the last event of a game over (``seed-revealed``) finishes the readers made
    ``until_over``: a queued
    one gets :data:`END` after the event, a direct one is ended once it is written;
    a reader not ``until_over`` (the account stream) is not."""
    from arbiter.streams.hub import END

    made = client.post(
        "/v1/games", json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    game = made.get_json()
    answer = client.post(
        f"/v1/games/{game['id']}/resign",
        headers={"Authorization": f"Bearer {game['seats'][1]['token']}"},
    )
    assert answer.status_code == 201 and answer.get_json()["status"] == "over"
    with app.app_context():
        rows = events_after(game["id"], 0)
    assert [e.kind for e in rows[-2:]] == ["game-over", "seed-revealed"]

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        queued = Reader({game["id"]: None}, render_sse, 100, {game["id"]: 0}, b"", until_over=True)
        account = Reader({game["id"]: None}, render_sse, 100, {game["id"]: 0}, b"")
        connection = Connection()
        direct = direct_reader(game["id"], None, connection)
        direct.until_over = True
        for reader in (queued, account, direct):
            hub.join(reader, {})
        hub.deliver(game["id"], hub.feeds[game["id"]], rows)
        items = [queued.queue.get_nowait() for _ in range(queued.queue.qsize())]
        plain = [account.queue.get_nowait() for _ in range(account.queue.qsize())]
        return items, plain, account, direct, connection

    items, plain, account, direct, connection = asyncio.run(scenario())
    assert items[-1] == END and [i[1] for i in items[:-1]] == [e.seq for e in rows]
    assert END not in plain and not account.cut.is_set()
    assert direct.ended == "over" and b"event: seed-revealed" in connection.writes[-1]


def test_the_recheck_ends_readers_of_tokens_revoked_without_a_notice(app, client):
    """Every ``STREAM_REVOKE_CHECK_SECONDS`` the hub looks up its readers' personal
    tokens (one query): a token revoked where no notice reached this hub ends its
    reader; a live token's reader goes on."""
    import sqlalchemy as sa

    from arbiter.extensions import db
    from arbiter.models import ApiToken
    from arbiter.models.timestamps import utcnow
    from tests.helpers import sign_in

    sign_in(client, app, "ann@example.org", "Ann")
    sign_in(client, app, "bob@example.org", "Bob")
    with app.app_context():
        rows = db.session.execute(
            sa.select(ApiToken.id, ApiToken.account_id).order_by(ApiToken.created_at)
        ).all()
        (dead_id, dead_account), (live_id, live_account) = rows[:2]
        db.session.execute(
            sa.update(ApiToken).where(ApiToken.id == dead_id).values(revoked_at=utcnow())
        )
        db.session.commit()
    arbiter_settings.override(app, STREAM_REVOKE_CHECK_SECONDS=0.05)

    async def scenario():
        hub = Hub(app)
        hub.loop = asyncio.get_running_loop()
        dead = Reader({"g": None}, render_sse, 4, {"g": 0}, b"", dead_id, dead_account)
        live = Reader({"g": None}, render_sse, 4, {"g": 0}, b"", live_id, live_account)
        hub.join(dead, {})
        hub.join(live, {})
        task = asyncio.ensure_future(hub._recheck())
        await asyncio.wait_for(dead.cut.wait(), 5)
        task.cancel()
        return dead, live

    try:
        dead, live = asyncio.run(scenario())
    finally:
        arbiter_settings.override(app, STREAM_REVOKE_CHECK_SECONDS=30.0)
    assert dead.ended == "revoked" and not live.cut.is_set()
