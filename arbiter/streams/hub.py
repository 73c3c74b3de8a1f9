"""The fan-out of committed events to the readers of one web process (asyncio).

A :class:`Hub` keeps a :class:`Feed` per game that has readers (SSE or ndjson
:class:`Reader` objects) or long-poll waiters. A notice "game G is at version V"
(from Redis pub/sub, from this process's own commits, or from the poll of watched
games) makes the feed read the events after the lowest seq its readers hold, once
per game, in a worker thread, and hand them to every reader as the bytes that reader
may see (hidden payloads stay hidden until the game is over, as ``/events`` does).
Each event is rendered once per audience (a spectator, or each seat) and the same
bytes go to every reader of that audience.

A reader is fed in one of two ways:

- **direct** (the web process's own HTTP protocol offers a writer, see
  :class:`arbiter.serve.DirectWriter`): once its backlog is sent, the hub writes the
  new events straight to its connection, all of one notice in one write, with no
  coroutine woken per reader. A reader whose connection holds more than its limit
  of unsent bytes is cut off.
- **queued** (any other ASGI server, and the account stream, whose lines carry a
  per-reader cursor): the bytes go into the reader's bounded queue, which its own
  coroutine sends; a reader whose queue is full is cut off.

A reader cut off reconnects with ``Last-Event-ID``, so one stuck client never delays
the others. A game stream ends once it was sent the game's last event (the
``seed-revealed`` after ``game-over``, or a cancelled game's ``game-cancelled``:
nothing more can come). A notice that a
personal token was revoked or an account deleted (Redis ``<STREAM_CHANNEL>:revoked``,
or in-process) ends every stream opened with that token or by that account; every
``STREAM_REVOKE_CHECK_SECONDS`` one query per 500 open tokens re-checks them (a notice
lost, a token expired): no database work per reader or per event. A notice that an
account was seated in a new game (``seat``) adds it to that account's open account
streams; each poll also looks for the games created since the last one with a seat
of an account streaming here (one query per 500 accounts), for a notice lost or
told only to another process. Keep-alives come from one ticker
per hub, not from a timer per reader.
An idle reader is a socket and a coroutine waiting for the client to leave, no thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import redis.asyncio as aioredis
import sqlalchemy as sa

from arbiter import database, metrics, settings
from arbiter.extensions import db
from arbiter.games.reading import LAST_KINDS, event_json
from arbiter.games.store import events_after
from arbiter.models import Account, ApiToken, Game, Seat
from arbiter.models.timestamps import utcnow
from arbiter.streams import publish, talk_notices
from arbiter.streams.subscriptions import Subscriptions
from arbiter.talk import streamed
from arbiter.talk.readers import Reader as TalkReader

log = logging.getLogger(__name__)

Render = Callable[..., bytes]
"""``(game_id, event as /events shows it, version[, talk]) -> bytes`` (SSE or ndjson;
``talk``, the reader's talk position, is passed only when it is not 0)."""
RenderTalk = Callable[[str, dict, int], bytes]
"""``(game_id, message event, the reader's seq in that game) -> bytes``."""

READ_LIMIT = 1000
DIRECT_BYTES_PER_MESSAGE = 1024
"""A direct reader's limit of unsent bytes is its ``buffer`` times this (256 messages
by default: 256 KiB waiting in its connection, past what the socket took)."""

LAST_KIND = "seed-revealed"
"""The last event of a game that is over: it follows ``game-over`` in the same commit
(:meth:`arbiter.games.transition.Transition.settle`); nothing comes after it. A
cancelled game's last is ``game-cancelled`` (both:
:data:`arbiter.games.reading.LAST_KINDS`)."""
END = (None, -1, b"")
"""The queue item after a game stream's last event: the stream ends there."""
SEAT_OVERLAP = timedelta(seconds=30)
"""How far back each look for new seats reaches before the previous one (a game's
``created_at`` is set before its transaction commits)."""
REVOKED_MEMORY = 120.0
"""Seconds a revocation notice is remembered, for the readers that authenticated
just before it and join just after."""

Write = Callable[[bytes], "int | None"]
"""A direct writer: sends bytes now; returns the bytes still unsent (None: the
connection is gone). See :class:`arbiter.serve.DirectWriter`."""


class Reader:
    """One open stream: the games it follows (each with the reader's seat, None for a
    spectator), how it renders events, a queue of at most ``buffer`` messages, and
    the ``keepalive`` bytes sent when it has been quiet for a while.

    ``last[game]`` is the highest seq queued or written; ``cut`` is set when the
    reader must stop: ``ended`` then says why (None: it fell too far behind;
    ``"revoked"``: its token was revoked or its account deleted; ``"over"``: it was
    sent its game's last event, :data:`LAST_KIND`); ``write`` is its direct writer once
    :meth:`go_direct` was called (None while queued); ``quiet_since`` is when it last
    got bytes (``time.monotonic()`` seconds).

    :param token_id: the personal token it authenticated with (None: a game token
        or none); :param account_id: that token's account.
    :param until_over: end the stream once the game's last event is sent (a game
        stream, not the account stream, which follows other games too).
    :param stream_id: an account stream's own id (one account stream per token: a
        newer one of the same token ends it, ``ended`` ``"replaced"``); None for a
        game stream.
    :param render_talk: how it renders a message event; None: it hears no talk.
        A reader that hears talk follows, beside each game ``G``, the key
        :func:`arbiter.streams.talk_notices.key` of ``G`` (in ``seats``, ``last``),
        whose position is a talk entry ``n``; ``talk_shown[G]`` is the last entry
        that brought it a message (what its ids and cursors carry: entries it may not
        read tell it nothing). ``talk[G]`` is its talk reader in ``G``
        (:class:`arbiter.talk.readers.Reader`); a game without one (an account
        stream's, followed since) reads as its seat with ``talk_muted``.
    """

    def __init__(
        self,
        seats: dict[str, int | None],
        render: Render,
        buffer: int,
        after: dict[str, int],
        keepalive: bytes = b"",
        token_id: str | None = None,
        account_id: str | None = None,
        until_over: bool = False,
        stream_id: str | None = None,
        render_talk: RenderTalk | None = None,
        talk: dict[str, TalkReader] | None = None,
        talk_muted: frozenset[str] = frozenset(),
    ) -> None:
        self.seats = seats
        self.render = render
        self.queue: asyncio.Queue = asyncio.Queue(buffer)
        self.last = dict(after)
        self.cut = asyncio.Event()
        self.keepalive = keepalive
        self.write: Write | None = None
        self.limit = buffer * DIRECT_BYTES_PER_MESSAGE
        self.quiet_since = time.monotonic()
        self.token_id = token_id
        self.account_id = account_id
        self.until_over = until_over
        self.stream_id = stream_id
        self.ended: str | None = None
        self.render_talk = render_talk
        self.talk = dict(talk or {})
        self.talk_muted = talk_muted
        self.talk_shown: dict[str, int] = {}

    def talk_reader(self, game_id: str) -> TalkReader:
        """Return this reader's talk reader in ``game_id`` (see the class)."""
        found = self.talk.get(game_id)
        if found is None:
            found = self.talk[game_id] = streamed.seat_reader(
                self.seats.get(game_id), self.talk_muted
            )
        return found

    def end(self, why: str) -> None:
        """Stop the reader now (``why``: ``"revoked"``, ``"replaced"`` or ``"over"``)."""
        if not self.cut.is_set():
            self.ended = why
            self.cut.set()

    def finish(self) -> None:
        """End the reader once what it was given is sent: at once when direct (the
        bytes are written), else after its queue (:data:`END`); a full queue cuts it
        (it reconnects and gets the rest at once)."""
        if self.write is not None:
            self.end("over")
            return
        try:
            self.queue.put_nowait(END)
        except asyncio.QueueFull:
            self.cut.set()

    def offer(self, game_id: str, seq: int, data: bytes) -> bool:
        """Queue one message (or write it, when direct: ``data`` may then hold several
        events, ``seq`` the last); return False (and set ``cut``) when the reader is
        too far behind."""
        if self.write is not None:
            if not self.write_now(data):
                return False
        else:
            try:
                self.queue.put_nowait((game_id, seq, data))
            except asyncio.QueueFull:
                self.cut.set()
                return False
        self.last[game_id] = seq
        return True

    def write_now(self, data: bytes) -> bool:
        """Write ``data`` with the direct writer; return False (and set ``cut``) when
        the connection is gone or holds more than ``limit`` unsent bytes."""
        unsent = self.write(data)
        if unsent is None or unsent > self.limit:
            self.cut.set()
            return False
        self.quiet_since = time.monotonic()
        return True

    def go_direct(self, write: Write, sent: dict[str, int]) -> bool:
        """Switch to direct writes: first write what waits in the queue (skipping the
        seqs ``sent`` already counts, and counting the rest there), then let the hub
        write the next events at once. Runs without yielding to the loop, so nothing
        the hub delivers meanwhile can overtake the queue. Return False when cut."""
        chunks, over = [], False
        while not self.queue.empty():
            game_id, seq, data = self.queue.get_nowait()
            if (game_id, seq, data) == END:
                over = True
            elif game_id is None or seq > sent.get(game_id, 0):
                if game_id is not None:
                    sent[game_id] = seq
                chunks.append(data)
        for game_id, seq in sent.items():
            self.last[game_id] = max(self.last.get(game_id, 0), seq)
        self.write = write
        if chunks and not self.write_now(b"".join(chunks)):
            return False
        if over:
            self.end("over")
        return True

    def ping(self) -> None:
        """Send the keep-alive (queued readers: only when their queue is empty)."""
        if self.write is not None:
            self.write_now(self.keepalive)
        elif self.queue.empty():
            self.queue.put_nowait((None, 0, self.keepalive))


@dataclass
class Feed:
    """The readers and long-poll waiters of one game, and whether a read is running."""

    readers: set = field(default_factory=set)
    waiters: list = field(default_factory=list)
    reading: bool = False
    again: bool = False
    over: bool = False


def visible(event: Any, seat: int | None, over: bool) -> bool:
    """Return True when ``seat`` may read ``event``'s payload (see
    :func:`arbiter.games.reading.event_json`)."""
    return over or event.visible_to is None or seat in event.visible_to


class Hub:
    """Fan-out for one process's event loop; ``flask_app`` gives the database.

    :param flask_app: its settings' ``streams`` group says where notices come from
        and how often to poll (:func:`arbiter.settings.of`).
    """

    def __init__(self, flask_app) -> None:
        self.app = flask_app
        self.feeds: dict[str, Feed] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: list[asyncio.Task] = []
        self.open_readers = 0
        self.readers: set[Reader] = set()
        self.revoked: dict[tuple[str, str], float] = {}
        """Recent revocation notices: ``(kind, id) -> time.monotonic()``."""
        streams = settings.of(flask_app).streams
        self.subscriptions = Subscriptions(streams.channel, bool(streams.redis_url))

    # ----------------------------------------------------------------- life cycle

    def start(self) -> None:
        """Start the notice sources on the running loop (once): Redis or in-process
        notices, the poll of watched games, and the keep-alive ticker."""
        if self.loop is not None:
            return
        self.loop = asyncio.get_running_loop()
        if settings.of(self.app).streams.redis_url:
            self.tasks.append(self.loop.create_task(self._listen_redis()))
        else:
            publish.LISTENERS.append(self.notify_threadsafe)
            publish.REVOCATION_LISTENERS.append(self.revoke_threadsafe)
        self.tasks.append(self.loop.create_task(self._poll()))
        self.tasks.append(self.loop.create_task(self._recheck()))
        self.tasks.append(self.loop.create_task(self._keep_alive()))

    async def stop(self) -> None:
        """Cancel the notice sources."""
        if self.notify_threadsafe in publish.LISTENERS:
            publish.LISTENERS.remove(self.notify_threadsafe)
        if self.revoke_threadsafe in publish.REVOCATION_LISTENERS:
            publish.REVOCATION_LISTENERS.remove(self.revoke_threadsafe)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks.clear()
        self.loop = None

    # ----------------------------------------------------------------- readers

    def join(self, reader: Reader, over: dict[str, bool]) -> None:
        """Add ``reader`` to the feeds of its games (``over``: which are finished)."""
        self.start()
        self.open_readers += 1
        self.readers.add(reader)
        metrics.metrics().open_streams.inc()
        for game_id in reader.seats:
            feed = self._feed(game_id)
            feed.readers.add(reader)
            feed.over = feed.over or over.get(game_id, False)
        if ("token", reader.token_id) in self.revoked or (
            "account",
            reader.account_id,
        ) in self.revoked:
            reader.end("revoked")  # revoked while it was being authenticated

    def leave(self, reader: Reader) -> None:
        """Remove ``reader`` from its feeds (idempotent)."""
        for game_id in reader.seats:
            feed = self.feeds.get(game_id)
            if feed is not None and reader in feed.readers:
                feed.readers.discard(reader)
                self._drop_if_idle(game_id, feed)
        self.readers.discard(reader)
        if reader.seats:
            self.open_readers -= 1
            metrics.metrics().open_streams.dec()
            reader.seats = {}

    def watch(self, game_id: str, after: int) -> tuple[int, asyncio.Future]:
        """Return a long-poll waiter: its future is resolved with the version once
        ``game_id`` is past ``after`` (no thread is held while it waits). Pass it to
        :meth:`unwatch` when done."""
        self.start()
        waiter = (after, self.loop.create_future())
        self._feed(game_id).waiters.append(waiter)
        return waiter

    def unwatch(self, game_id: str, waiter: tuple[int, asyncio.Future]) -> None:
        """Forget a waiter made by :meth:`watch` (idempotent)."""
        feed = self.feeds.get(game_id)
        if feed is not None and waiter in feed.waiters:
            feed.waiters.remove(waiter)
            self._drop_if_idle(game_id, feed)

    async def ready(self, *keys: str) -> None:
        """Return once notices of ``keys`` reach this hub (their Redis subscriptions
        answered, :meth:`arbiter.streams.subscriptions.Subscriptions.ready`): a
        reader joins or watches, waits on this, then reads its backlog."""
        await self.subscriptions.ready(*keys)

    def _feed(self, key: str) -> Feed:
        """Return the feed of ``key`` (a game id or a talk key), made and subscribed
        to if it is new."""
        feed = self.feeds.get(key)
        if feed is None:
            feed = self.feeds[key] = Feed()
            self.subscriptions.want(key)
        return feed

    def _drop_if_idle(self, game_id: str, feed: Feed) -> None:
        if not feed.readers and not feed.waiters and not feed.reading:
            if self.feeds.get(game_id) is feed:
                del self.feeds[game_id]
                self.subscriptions.drop(game_id)

    # ----------------------------------------------------------------- notices

    def notify_threadsafe(self, game_id: str, version: int) -> None:
        """:meth:`notify` from another thread (the in-process publisher)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.notify, game_id, version)

    def notify(self, game_id: str, version: int) -> None:
        """``game_id`` has committed events up to ``version``: wake its long-poll
        waiters and read the new events for its readers."""
        feed = self.feeds.get(game_id)
        if feed is None:
            return
        for after, future in list(feed.waiters):
            if version > after and not future.done():
                future.set_result(version)
        if not any(r.last.get(game_id, 0) < version for r in feed.readers):
            return
        self._read_soon(game_id, feed)

    def _read_soon(self, game_id: str, feed: Feed) -> None:
        """Read the events ``feed``'s readers lack (once more if a read is running)."""
        if feed.reading:
            feed.again = True
            return
        feed.reading = True
        self.loop.create_task(self._refresh(game_id, feed))

    def revoke_threadsafe(self, kind: str, ident: str) -> None:
        """:meth:`on_notice` from another thread (the in-process publisher)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.on_notice, kind, ident)

    def on_notice(self, kind: str, ident: str) -> int:
        """Act on a notice of the revocation channel (:mod:`arbiter.streams.publish`):
        ``seat`` (:meth:`follow`), ``stream`` (:meth:`replace`), else :meth:`revoke`;
        return how many readers it touched."""
        if kind == "seat":
            account_id, game_id, seat = ident.split(":")
            return self.follow(account_id, game_id, int(seat))
        if kind == "stream":
            token_id, stream_id = ident.split(":")
            return self.replace(token_id, stream_id)
        return self.revoke(kind, ident)

    def follow(self, account_id: str, game_id: str, seat: int) -> int:
        """The account ``account_id`` got ``seat`` of the new game ``game_id``: its
        open account streams follow that game from its first event; return how many."""
        readers = [
            r
            for r in self.readers
            if r.account_id == account_id and r.stream_id and game_id not in r.seats
        ]
        if not readers:
            return 0
        feed = self._feed(game_id)
        for reader in readers:
            reader.seats[game_id] = seat
            reader.last.setdefault(game_id, 0)
            feed.readers.add(reader)
            if reader.render_talk is not None:
                self.hear(reader, game_id, 0)
        self._read_soon(game_id, feed)
        return len(readers)

    def hear(self, reader: Reader, game_id: str, after: int) -> None:
        """Let ``reader`` (one with ``render_talk``) hear ``game_id``'s talk after
        entry ``after`` (a game stream, once its backlog is sent; a game an account
        stream follows since), reading at once what was committed meanwhile."""
        if not reader.seats or reader.cut.is_set():
            return  # it left
        key = talk_notices.key(game_id)
        reader.seats[key] = reader.seats.get(game_id)
        reader.last[key] = max(reader.last.get(key, 0), after)
        feed = self._feed(key)
        feed.readers.add(reader)
        self._read_soon(key, feed)

    def replace(self, token_id: str, stream_id: str) -> int:
        """The token ``token_id`` opened the account stream ``stream_id``: end its
        other account streams (``"replaced"``); return how many ended."""
        ended = [
            r
            for r in self.readers
            if r.token_id == token_id and r.stream_id and r.stream_id != stream_id
        ]
        for reader in ended:
            reader.end("replaced")
            self.leave(reader)
        return len(ended)

    def revoke(self, kind: str, ident: str) -> int:
        """The personal token ``ident`` was revoked (``kind`` ``"token"``) or the
        account ``ident`` deleted (``"account"``): end every reader it opened, now
        and for :data:`REVOKED_MEMORY` seconds of late joiners; return how many ended.
        One pass over this process's readers (a revocation is rare)."""
        now = time.monotonic()
        self.revoked = {k: t for k, t in self.revoked.items() if now - t < REVOKED_MEMORY}
        self.revoked[(kind, ident)] = now
        attr = "token_id" if kind == "token" else "account_id"
        ended = [r for r in self.readers if getattr(r, attr) == ident]
        for reader in ended:
            reader.end("revoked")
            self.leave(reader)
        return len(ended)

    async def _refresh(self, game_id: str, feed: Feed) -> None:
        """Read the events its readers miss, as often as notices asked, and deliver
        (a talk key's: :meth:`_refresh_talk`)."""
        if talk_notices.is_key(game_id):
            await self._refresh_talk(game_id, feed)
            return
        try:
            while feed.readers:
                feed.again = False
                after = min(r.last.get(game_id, 0) for r in feed.readers)
                rows = await asyncio.to_thread(self._read, game_id, after)
                if rows:
                    self.deliver(game_id, feed, rows)
                if not feed.again and len(rows) < READ_LIMIT:
                    break
        except Exception:  # noqa: BLE001 - the next notice or poll tries again
            log.exception("reading the events of game %s for its streams failed", game_id)
        finally:
            feed.reading = False
            self._drop_if_idle(game_id, feed)

    async def _refresh_talk(self, key: str, feed: Feed) -> None:
        """Read a game's talk after the lowest position of its readers, filter it for
        each reader as ``/messages`` does (:func:`arbiter.talk.streamed.for_readers`,
        in a worker thread) and deliver each its message events."""
        game_id = talk_notices.game_of(key)
        try:
            while feed.readers:
                feed.again = False
                readers = list(feed.readers)
                after = min(r.last.get(key, 0) for r in readers)
                wants = [(r.talk_reader(game_id), r.last.get(key, 0)) for r in readers]
                last, found = await asyncio.to_thread(self._read_talk, game_id, after, wants)
                for reader, messages in zip(readers, found, strict=True):
                    if reader in feed.readers:
                        self.deliver_talk(game_id, key, reader, messages, last)
                if not feed.again:
                    break
        except Exception:  # noqa: BLE001 - the next notice or poll tries again
            log.exception("reading the talk of game %s for its streams failed", game_id)
        finally:
            feed.reading = False
            self._drop_if_idle(key, feed)

    def _read_talk(self, game_id: str, after: int, wants: list) -> tuple[int, list]:
        """:func:`arbiter.talk.streamed.for_readers` (runs in a worker thread)."""
        with self.app.app_context(), database.reading():
            return streamed.for_readers(game_id, after, wants)

    def deliver_talk(
        self, game_id: str, key: str, reader: Reader, messages: list[dict], last: int
    ) -> None:
        """Hand ``reader`` the message events it lacks, then count the talk read up to
        ``last`` as its own (entries it may not read are passed silently)."""
        held = reader.last.get(key, 0)
        for message in messages:
            if message["talk"] <= held:
                continue
            data = reader.render_talk(game_id, message, reader.last.get(game_id, 0))
            if not reader.offer(key, message["talk"], data):
                self.leave(reader)
                return
            reader.talk_shown[game_id] = message["talk"]
        reader.last[key] = max(reader.last.get(key, 0), last)

    def _read(self, game_id: str, after: int) -> list:
        """Return the events of ``game_id`` after ``after`` (runs in a worker thread)."""
        with self.app.app_context(), database.reading():
            return events_after(game_id, after, limit=READ_LIMIT)

    def deliver(self, game_id: str, feed: Feed, rows: list) -> None:
        """Hand ``rows`` to each reader as that reader may see them: a direct reader
        gets the events it lacks in one write, a queued one a message per event; cut
        off readers that are too far behind.

        Each event is rendered once per (renderer, visibility), and each direct write
        is joined once per (renderer, seat, seq already held): readers of one audience
        share the very same bytes."""
        feed.over = over = feed.over or any(e.kind == "game-over" for e in rows)
        version = rows[-1].seq
        rendered: dict[tuple, bytes] = {}
        joined: dict[tuple, bytes] = {}

        def frame(render: Render, event, seat: int | None, talk: int) -> bytes:
            key = (render, event.seq, visible(event, seat, over), talk)
            data = rendered.get(key)
            if data is None:
                shown = event_json(event, seat, over)
                data = rendered[key] = (
                    render(game_id, shown, version, talk)
                    if talk
                    else render(game_id, shown, version)
                )
            return data

        ends = any(e.kind in LAST_KINDS for e in rows)  # over, or cancelled
        for reader in list(feed.readers):
            seat = reader.seats.get(game_id)
            last = reader.last.get(game_id, 0)
            talk = reader.talk_shown.get(game_id, 0)
            if reader.write is not None:
                key = (reader.render, seat, last, talk)
                data = joined.get(key)
                if data is None:
                    data = joined[key] = b"".join(
                        frame(reader.render, event, seat, talk)
                        for event in rows
                        if event.seq > last
                    )
                if data and not reader.offer(game_id, version, data):
                    self.leave(reader)
                    continue
            else:
                for event in rows:
                    if event.seq <= last:
                        continue
                    if not reader.offer(
                        game_id, event.seq, frame(reader.render, event, seat, talk)
                    ):
                        self.leave(reader)
                        break
            if ends and reader.until_over and not reader.cut.is_set():
                reader.finish()

    # ----------------------------------------------------------------- sources

    async def _poll(self) -> None:
        """Every ``STREAM_POLL_SECONDS``, read the versions of the watched games (and
        the last entry of their talk, for the readers that hear it) and notify those
        that moved (catches notices lost or sent by other processes)."""
        every = settings.of(self.app).streams.poll_seconds

        def versions(keys: list[str]) -> list[tuple[str, int]]:
            ids = [k for k in keys if not talk_notices.is_key(k)]
            talks = [talk_notices.game_of(k) for k in keys if talk_notices.is_key(k)]
            with self.app.app_context(), database.reading():
                out = []
                for i in range(0, len(ids), 500):
                    out += db.session.execute(
                        sa.select(Game.id, Game.version).where(Game.id.in_(ids[i : i + 500]))
                    ).all()
                if talks:  # the games' talk: its last entry
                    out += [
                        (talk_notices.key(g), n)
                        for g, n in streamed.last_entries(talks).items()
                        if n
                    ]
                return out

        since = utcnow()
        while True:
            await asyncio.sleep(every)
            since = await self._new_seats(since)
            ids = [  # a talk only for its streams: its long-polls wait for notices
                k for k, f in self.feeds.items() if f.readers or not talk_notices.is_key(k)
            ]
            if not ids:
                continue
            try:
                for game_id, version in await asyncio.to_thread(versions, ids):
                    feed = self.feeds.get(game_id)
                    if not talk_notices.is_key(game_id):
                        self.notify(game_id, version)
                    elif feed and any(r.last.get(game_id, 0) < version for r in feed.readers):
                        self._read_soon(game_id, feed)
            except Exception:  # noqa: BLE001 - try again at the next tick
                log.warning("the stream poll failed", exc_info=True)

    async def _new_seats(self, since):
        """Follow, in the account streams open here, the games created since ``since``
        (UTC, less :data:`SEAT_OVERLAP`) with a seat of their account (one query per
        500 accounts): the backstop of a lost ``seat`` notice, or one told only to
        another web process on the embedded default. Return the time to pass next."""
        accounts = sorted({r.account_id for r in self.readers if r.stream_id and r.account_id})
        if not accounts:
            return utcnow()

        def seated(now) -> list[tuple[str, str, int]]:
            with self.app.app_context(), database.reading():
                out = []
                for i in range(0, len(accounts), 500):
                    out += db.session.execute(
                        sa.select(Seat.account_id, Seat.game_id, sa.func.min(Seat.seat))
                        .join(Game, Game.id == Seat.game_id)
                        .where(
                            Seat.account_id.in_(accounts[i : i + 500]),
                            Game.created_at > since - SEAT_OVERLAP,
                            Game.created_at <= now,
                        )
                        .group_by(Seat.account_id, Seat.game_id)
                    ).all()
                return out

        now = utcnow()
        try:
            for account_id, game_id, seat in await asyncio.to_thread(seated, now):
                self.follow(account_id, game_id, seat)
        except Exception:  # noqa: BLE001 - try again at the next tick
            log.warning("the stream look for new seats failed", exc_info=True)
            return since
        return now

    async def _recheck(self) -> None:
        """Every ``STREAM_REVOKE_CHECK_SECONDS`` (default 30), look up the personal
        tokens of the open readers (one query per 500 tokens, not per reader) and end
        the readers of those revoked, expired, or of a deleted account: the backstop
        for a revocation notice that was lost, or published where this hub does not
        hear it (another process on the embedded default)."""

        every = settings.of(self.app).streams.revoke_check_seconds

        def dead(ids: list[str]) -> set[str]:
            with self.app.app_context(), database.reading():
                now, out = utcnow(), set()
                for i in range(0, len(ids), 500):
                    out |= set(
                        db.session.scalars(
                            sa.select(ApiToken.id)
                            .join(Account, Account.id == ApiToken.account_id)
                            .where(
                                ApiToken.id.in_(ids[i : i + 500]),
                                sa.or_(
                                    ApiToken.revoked_at.is_not(None),
                                    Account.deleted_at.is_not(None),
                                    ApiToken.expires_at <= now,
                                ),
                            )
                        )
                    )
                return out

        while True:
            await asyncio.sleep(every)
            ids = sorted({r.token_id for r in self.readers if r.token_id is not None})
            if not ids:
                continue
            try:
                gone = await asyncio.to_thread(dead, ids)
            except Exception:  # noqa: BLE001 - try again at the next tick
                log.warning("the stream token re-check failed", exc_info=True)
                continue
            for reader in [r for r in self.readers if r.token_id in gone]:
                reader.end("revoked")
                self.leave(reader)

    async def _keep_alive(self) -> None:
        """Send the keep-alive to every reader quiet for ``STREAM_KEEPALIVE_SECONDS``
        (checked ten times a period, so a quiet reader hears one within 1.1
        periods); one timer for the process, not one per reader."""
        every = settings.of(self.app).streams.keepalive_seconds
        while True:
            await asyncio.sleep(every / 10)
            quiet = time.monotonic() - every
            for reader in [r for r in self.readers if r.quiet_since <= quiet]:
                reader.ping()
                if reader.cut.is_set():
                    self.leave(reader)

    async def _listen_redis(self) -> None:
        """Follow ``<STREAM_CHANNEL>:revoked`` and the channels of the games this hub
        has feeds for (:mod:`arbiter.streams.subscriptions`) on Redis; reconnect
        after a failure."""
        url = settings.of(self.app).streams.redis_url
        revocations = publish.revocation_channel(settings.of(self.app).streams.channel)
        while True:
            client = aioredis.Redis.from_url(url)
            sending = None
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(revocations)
                    sending = asyncio.ensure_future(self.subscriptions.run(pubsub))
                    async for message in pubsub.listen():
                        if sending.done():
                            sending.result()  # its failure ends the connection
                        self._on_redis(message, revocations)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the poll covers the gap; reconnect
                log.warning("Redis stream subscription lost; reconnecting", exc_info=True)
                self.subscriptions.lost = True
                await asyncio.sleep(1.0)
            finally:
                if sending is not None:
                    sending.cancel()
                    await asyncio.gather(sending, return_exceptions=True)
                await client.aclose()

    def _on_redis(self, message: dict, revocations: str) -> None:
        """Act on one message of the Redis subscription: a revocation or account
        notice, a game's (or talk's) new version, or the answer to a SUBSCRIBE."""
        channel = message["channel"].decode()
        if message["type"] == "subscribe":
            self.subscriptions.answered(channel)
        elif message["type"] != "message":
            return
        elif channel == revocations:
            kind, _, ident = message["data"].decode().partition(":")
            self.on_notice(kind, ident)
        elif (key := self.subscriptions.key(channel)) is not None:
            self.notify(key, int(message["data"]))
