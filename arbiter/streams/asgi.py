"""The web process: an ASGI application (served by uvicorn) in front of the Flask app.

It serves itself, on its event loop, the requests that wait: ``GET
/v1/games/{id}/stream`` (Server-Sent Events) and ``GET /v1/games/{id}/events`` with
``wait`` > 0 (the long-poll); every other request goes to the Flask app through
:mod:`arbiter.streams.bridge`'s thread pool (``WEB_THREADS`` threads). So a waiting
client costs a socket, a small queue and a coroutine, never a thread. A request body
is read whole here too, bounded in size and time, before the request goes anywhere
(:mod:`arbiter.bodies`): a client sending a byte a second holds no thread either. The
Flask app keeps every route, including a ``/stream`` that answers the backlog and ends
(for a Flask server with no front, and for the OpenAPI contract); the long-poll asks
Flask for the answer (so authentication, validation and filtering stay in one place)
and, when there is nothing new yet, waits for the game's next version on the hub and asks again.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from contextlib import nullcontext
from typing import Any
from urllib.parse import parse_qs, urlencode

import sqlalchemy as sa

from arbiter import bodies, database, limits, metrics, settings, unavailable
from arbiter import create_app as create_flask_app
from arbiter.accounts import identity
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.games import my_games, presence, reading
from arbiter.games.reading import ENDED
from arbiter.models import Game, game_record
from arbiter.problems import problem_body, problem_for
from arbiter.resources import guard
from arbiter.serve import DIRECT_WRITE
from arbiter.streams import publish, talk_notices, wire
from arbiter.streams import resume as resume_stream
from arbiter.streams.bridge import Bridge
from arbiter.streams.hub import END, Hub, Reader
from arbiter.talk import readers as talk_readers
from arbiter.talk import streamed
from arbiter.talk.readers import Reader as TalkReader

GAME_STREAM = re.compile(r"/v1/games/([^/]+)/stream")
GAME_EVENTS = re.compile(r"/v1/games/([^/]+)/events")
GAME_MESSAGES = re.compile(r"/v1/games/([^/]+)/messages")
PAGE_TALK = re.compile(r"/games/([^/]+)/talk")
LONG_POLLS = (GAME_EVENTS, GAME_MESSAGES, PAGE_TALK)
"""The long-polls the front waits for without a thread: a game's events, its
messages, and the game page's talk panel (the last two on the game's talk notices)."""
SSE_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


def create_app(flask_app=None) -> Front:
    """Return the ASGI application around ``flask_app`` (default: a new
    :func:`arbiter.create_app` with the web process's settings,
    ``role="web"``); uvicorn calls it with ``--factory``."""
    if flask_app is None:
        flask_app = create_flask_app(role="web")
    metrics.use_shared_folder(flask_app.instance_path)
    return Front(flask_app)


def header(scope: dict, name: bytes) -> str | None:
    """Return the request header ``name`` (lower case), or None."""
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


def chunked_bodies(wsgi_app):
    """Return ``wsgi_app`` reading ``Transfer-Encoding: chunked`` bodies.

    uvicorn removes the chunking and the bridge's input ends with the body, but it does
    not say so: without ``wsgi.input_terminated`` werkzeug reads a body with no
    ``Content-Length`` as empty. With it, werkzeug reads the body and refuses one over
    ``MAX_CONTENT_LENGTH`` with 413 as it arrives (werkzeug's ``get_input_stream``).
    """

    def app(environ, start_response):
        if (
            "CONTENT_LENGTH" not in environ
            and "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        ):
            environ["wsgi.input_terminated"] = True
        return wsgi_app(environ, start_response)

    return app


class Front:
    """The ASGI application: streams and long-polls here, the rest to Flask."""

    def __init__(self, flask_app) -> None:
        self.flask = flask_app
        self.wsgi = Bridge(
            chunked_bodies(flask_app), workers=settings.of(flask_app).service.web_threads
        )
        self.hub = Hub(flask_app)
        flask_app.extensions["stream_hub"] = self.hub

    async def __call__(self, scope: dict, receive, send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
            return
        data: bytes | None = b""  # the request's whole body, None when left unread
        if scope["type"] == "http" and bodies.announced(scope) is not None:
            read = await self.read_body(scope, receive, send)
            if read is None:
                return
            receive, data = read
        if scope["type"] == "http" and scope["method"] == "GET":
            match = GAME_STREAM.fullmatch(scope["path"])
            if match:
                await self.game_stream(match.group(1), scope, receive, send)
                return
            if scope["path"] == "/v1/me/stream":
                await self.account_stream(scope, receive, send)
                return
            match = next(filter(None, (r.fullmatch(scope["path"]) for r in LONG_POLLS)), None)
            if match and self.long_poll_args(scope) is not None:
                await self.long_poll(match.group(1), scope, send, match.re is not GAME_EVENTS)
                return
        await self.wsgi(scope, receive, self.drained(receive, send), data)

    async def read_body(self, scope: dict, receive, send):
        """Read the request's whole body here, on the event loop, so that no Flask
        thread waits for a slow client (see :mod:`arbiter.bodies`); return the
        ``receive`` that gives it and the body (None when unread), or None when the
        request is over (the client left, or it was too slow: answered 408
        ``body-too-slow`` and closed). A body announced over the route's limit is left
        unread: Flask refuses it at once."""
        config = settings.of(self.flask)
        limit = bodies.body_limit(scope, config.limits)
        if bodies.announced(scope) > limit:
            return receive, None
        try:
            data = await bodies.read_body(receive, limit, bodies.Pace.of(config.connections))
        except bodies.TooSlow:
            await self.send_too_slow(send)
            return None
        return None if data is None else (bodies.replay(data, receive), data)

    async def send_too_slow(self, send) -> None:
        """Answer a body that came too slowly: 408 ``body-too-slow``, and close."""
        pace = bodies.Pace.of(settings.of(self.flask).connections)
        detail = (
            f"The request body arrived too slowly: send it within {pace.seconds:g} s, "
            f"plus a second per {pace.rate:g} bytes, {pace.most:g} s at most."
        )
        data = json.dumps(problem_body(408, "body-too-slow", "Request timeout", detail)).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 408,
                "headers": [
                    (b"content-type", b"application/problem+json"),
                    (b"content-length", b"%d" % len(data)),
                    (b"connection", b"close"),
                ],
            }
        )
        await send(body(data, more=False))

    def drained(self, receive, send):
        """Return ``send``, reading what is left of the request body before a 413.

        Answered and closed while the client still sends, the connection is reset
        (the kernel's answer to unread data), and a client that sends all before it
        reads (python-requests) sees ``ConnectionResetError``, not the 413. So up to
        ``BODY_DRAIN_BYTES`` more, for at most ``BODY_DRAIN_SECONDS``, are read and
        dropped first; past either, the 413 is sent anyway (and the reset may follow).
        """
        connections = settings.of(self.flask).connections

        async def send_after_drain(message: dict) -> None:
            if message["type"] == "http.response.start" and message["status"] == 413:
                try:
                    async with asyncio.timeout(connections.body_drain_seconds):
                        await drain_body(receive, connections.body_drain_bytes)
                except TimeoutError:
                    pass
            await send(message)

        return send_after_drain

    async def lifespan(self, receive, send) -> None:
        """Start the hub's notice sources at startup, stop them at shutdown."""
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.hub.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.hub.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def in_thread(self, func, *args, writes: bool = False) -> Any:
        """Run ``func(*args)`` inside a Flask app context in a worker thread, as a
        reader (streams only read), or as a writer when ``writes``: its transaction then
        begins as a writer's (``BEGIN IMMEDIATE`` on SQLite; a reader's deferred
        ``BEGIN`` fails at once with "database is locked" when it writes after another
        connection's commit)."""

        def run():
            with self.flask.app_context(), nullcontext() if writes else database.reading():
                return func(*args)

        return await asyncio.to_thread(run)

    def page_seat(self, query: dict, game_id: str) -> int | None:
        """Return the seat a game page's ``presence`` token names (its settings' key
        needs the app context; no database), None without a valid one."""
        with self.flask.app_context():
            return presence.seat_of((query.get("presence") or [None])[0], game_id)

    # --------------------------------------------------------------- SSE per game

    async def game_stream(self, game_id: str, scope: dict, receive, send) -> None:
        """``GET /v1/games/{id}/stream``: the backlog after ``Last-Event-ID`` (or
        ``?after=``), then every new event as it is committed, each exactly once; the
        stream ends once the game is over (or cancelled) and its last event sent, or when
        the personal token that opened it is revoked. A game over or cancelled with
        nothing after ``after`` answers 204
        (an EventSource then stops reconnecting); an ``after`` past the game's version
        is refused (400 ``bad-last-event-id``)."""
        try:
            query = parse_qs(scope["query_string"].decode("latin-1"))
            after, talk_after = wire.read_positions(
                header(scope, b"last-event-id"),
                (query.get("after") or [None])[0],
                (query.get("talk") or [None])[0],
            )
            seat, over, version, ended, who, talker = await self.in_thread(
                open_game_stream, game_id, header(scope, b"authorization"), after
            )
            here = seat if seat is not None else self.page_seat(query, game_id)
        except ArbiterError as err:
            await self.send_problem(send, err)
            return
        except unavailable.UNREACHABLE as err:
            await self.send_unavailable(send, err)
            return
        if ended and after >= version:
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send(body(b"", more=False))
            return
        reader = Reader(
            {game_id: seat},
            render_sse,
            settings.of(self.flask).streams.buffer,
            {game_id: after},
            wire.SSE_KEEPALIVE,
            *who,
            until_over=True,
            render_talk=wire.sse_talk,
            talk={game_id: talker},
        )
        self.hub.join(reader, {game_id: over})
        reader_tasks: list[asyncio.Future] = []
        try:
            await self.hub.ready(game_id)  # then no commit after the backlog is missed
            try:
                rows = await self.in_thread(reading.backlog, game_id, after)
                deleted = await self.in_thread(reading.deleted_seats, game_id) if rows else ()
                said = await self.in_thread(streamed.backlog, game_id, talker, talk_after)
            except unavailable.UNREACHABLE as err:
                await self.send_unavailable(send, err)
                return
            await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
            await send(body(b"retry: %d\n\n" % settings.of(self.flask).streams.retry_ms))
            over = over or any(e.kind == "game-over" for e in rows)
            ended = ended or any(e.kind in reading.LAST_KINDS for e in rows)
            version = rows[-1].seq if rows else after
            for event in rows:
                shown = reading.event_json(event, seat, over, deleted)
                await send(body(render_sse(game_id, shown, version, talk_after)))
            for message in said:
                await send(body(wire.sse_talk(game_id, message, version)))
            if ended:  # the backlog holds the game's last events: nothing more comes
                await send(body(b"", more=False))
                return
            reader.last[game_id] = max(reader.last[game_id], version)
            told = said[-1]["talk"] if said else talk_after
            if told:
                reader.talk_shown[game_id] = told
            self.hub.hear(reader, game_id, told)  # the talk, from the end of its backlog
            if here is not None:
                keeper = asyncio.ensure_future(self.keep_present(game_id, here))
                reader_tasks.append(keeper)
            await self.pump(
                reader,
                {game_id: version},
                wire.SSE_KEEPALIVE,
                receive,
                send,
                write=scope.get("extensions", {}).get(DIRECT_WRITE),
            )
        finally:
            self.hub.leave(reader)
            for task in reader_tasks:
                task.cancel()
            await asyncio.gather(*reader_tasks, return_exceptions=True)

    async def keep_present(self, game_id: str, seat: int) -> None:
        """Mark ``seat`` present in ``game_id`` while its stream is open (renewed every
        :data:`arbiter.games.presence.RENEW_SECONDS`), and clear the mark when the
        stream ends (this task is cancelled): :mod:`arbiter.games.presence`. A mark
        still being written when the stream ends lands before the clear, never after
        it (a short read of the stream would else leave its seat present, unmailed,
        for :data:`arbiter.games.presence.TTL_SECONDS`)."""
        marking = None
        try:
            while True:
                marking = asyncio.ensure_future(
                    self.in_thread(presence.mark, game_id, seat, writes=True)
                )
                try:
                    await asyncio.shield(marking)
                except unavailable.UNREACHABLE:
                    pass  # the mark expires by itself; the next renewal tries again
                await asyncio.sleep(presence.RENEW_SECONDS)
        finally:
            try:
                await asyncio.shield(self.leave_present(marking, game_id, seat))
            except (asyncio.CancelledError, *unavailable.UNREACHABLE):
                pass

    async def leave_present(self, marking, game_id: str, seat: int) -> None:
        """Clear ``seat``'s presence mark once the mark in flight (``marking``) is
        written."""
        if marking is not None:
            await asyncio.gather(marking, return_exceptions=True)
        await self.in_thread(presence.clear, game_id, seat, writes=True)

    async def pump(
        self,
        reader: Reader,
        sent: dict[str, int],
        keepalive: bytes,
        receive,
        send,
        decorate=None,
        write=None,
    ) -> None:
        """Send ``reader``'s new events and the hub's keep-alives until the client
        leaves or the reader is cut off or ended (revoked, or its game over: see
        :attr:`arbiter.streams.hub.Reader.ended`).

        With ``write`` (the server's :data:`arbiter.serve.DIRECT_WRITE`) and no
        ``decorate``, the reader goes direct: what waits in its queue is written at
        once and the hub writes every later event straight to the connection, so this
        coroutine only waits for the client to leave. Otherwise its queued messages
        are sent from here (skipping seqs already sent), whatever is queued at a
        wake-up in one write; ``decorate(message, sent)``, when given, finishes each
        message for this reader once ``sent`` counts it (the account stream's cursor).
        """
        queue = reader.queue

        async def forward() -> None:
            while True:
                first = await queue.get()
                chunks = []
                end = False
                for game_id, seq, data in [first, *drain(queue)]:
                    if (game_id, seq, data) == END:
                        end = True
                        break
                    if game_id is None:  # the hub's keep-alive
                        chunks.append(data)
                    elif seq > sent.get(game_id, 0):
                        sent[game_id] = seq
                        chunks.append(data if decorate is None else decorate(data, sent))
                if chunks:
                    reader.quiet_since = time.monotonic()
                    await send(body(b"".join(chunks)))
                if end:
                    reader.end("over")
                    return

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        direct = write is not None and decorate is None
        if direct:
            reader.go_direct(write, sent)  # when it fails, the reader is cut: ends below
        waits = (gone(), reader.cut.wait()) if direct else (forward(), gone(), reader.cut.wait())
        tasks = [asyncio.ensure_future(t) for t in waits]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if reader.cut.is_set():
            self.hub.leave(reader)
            ending = b""
            if keepalive == wire.SSE_KEEPALIVE and reader.ended is None:
                ending = wire.sse_cut("You fell too far behind; reconnect with Last-Event-ID.")
            elif keepalive == wire.SSE_KEEPALIVE and reader.ended == "revoked":
                ending = wire.sse_revoked()
            elif reader.ended == "replaced":
                ending = wire.ndjson_replaced()
            try:  # a stuck client may never take it: give up after a second
                await asyncio.wait_for(send(body(ending, more=False)), 1.0)
            except (TimeoutError, OSError):
                pass

    # --------------------------------------------------------------- ndjson per account

    async def account_stream(self, scope: dict, receive, send) -> None:
        """``GET /v1/me/stream``: one ndjson line per new event of every game the
        account holds a seat in (as that seat may see it), each carrying a ``cursor``;
        an empty line as keep-alive. Reconnecting with a line's cursor
        (``Last-Event-ID`` or ``?cursor=``) first sends every event after it, once.
        One account stream per personal token: opening one ends the token's others
        (their last line ``{"end": "replaced"}``); it counts against the ``read``
        rate limit (429 ``rate-limited`` with ``Retry-After``). Games where the
        account is seated while it is open are followed from their first event."""
        try:
            query = parse_qs(scope["query_string"].decode("latin-1"))
            resume = wire.read_cursor(
                header(scope, b"last-event-id") or (query.get("cursor") or [None])[0]
            )
            stream_id = secrets.token_hex(8)
            games, owing, who, muted = await self.in_thread(
                open_account_stream, header(scope, b"authorization"), stream_id
            )
            talk_after, told = await self.in_thread(
                resume_stream.talk_positions, games, resume, muted
            )
        except ArbiterError as err:
            await self.send_problem(send, err)
            return
        except unavailable.UNREACHABLE as err:
            await self.send_unavailable(send, err)
            return
        after = {**resume_stream.start_positions(games, resume, owing), **talk_after}
        seats = {g: seat for g, (seat, _, _) in games.items()}
        reader = Reader(
            {**seats, **{talk_notices.key(g): seat for g, seat in seats.items()}},
            wire.ndjson,
            settings.of(self.flask).streams.buffer,
            after,
            wire.NDJSON_KEEPALIVE,
            *who,
            stream_id=stream_id,
            render_talk=wire.ndjson_talk,
            talk_muted=muted,
        )
        self.hub.join(reader, {g: over for g, (_, _, over) in games.items()})
        try:
            await self.hub.ready(*games)  # then no commit after the backlog is missed
            try:
                lines, sent = await self.in_thread(
                    resume_stream.missed_lines, games, after, told, muted
                )
            except unavailable.UNREACHABLE as err:
                await self.send_unavailable(send, err)
                return
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [
                        (b"content-type", b"application/x-ndjson"),
                        (b"cache-control", b"no-cache"),
                        (b"x-accel-buffering", b"no"),
                    ],
                }
            )
            await send(body(wire.NDJSON_KEEPALIVE + b"".join(lines)))
            for game_id, seq in sent.items():
                reader.last[game_id] = max(reader.last[game_id], seq)
            await self.pump(
                reader, sent, wire.NDJSON_KEEPALIVE, receive, send, decorate=wire.with_cursor
            )
        finally:
            self.hub.leave(reader)

    # --------------------------------------------------------------- long-poll

    def long_poll_args(self, scope: dict) -> tuple[int, float] | None:
        """Return ``(after, wait)`` of a long-poll request, or None when it does not
        wait or its query is not valid (Flask then answers it, with the problem)."""
        query = parse_qs(scope["query_string"].decode("latin-1"))
        try:
            after = int((query.get("after") or ["0"])[0])
            wait = float((query.get("wait") or ["0"])[0])
        except ValueError:
            return None
        if wait <= 0 or wait > 30 or after < 0:
            return None
        return after, min(wait, settings.of(self.flask).streams.long_poll_max)

    async def long_poll(self, game_id: str, scope: dict, send, talk: bool = False) -> None:
        """``GET .../events?after=N&wait=S``: Flask's answer at once when it has
        events (or is a problem: an N past the game's version is one) or the game is
        over (nothing more will come); else wait on the hub, without a thread, up to S
        seconds for the game to pass version N, and ask Flask again. With ``talk``,
        ``GET .../messages?after=N&wait=S`` likewise, waiting for the game's talk to
        pass entry N (:mod:`arbiter.streams.talk_notices`; talk goes on after the end)."""
        after, wait = self.long_poll_args(scope)
        query = parse_qs(scope["query_string"].decode("latin-1"))
        query["wait"] = ["0"]
        now = {**scope, "query_string": urlencode(query, doseq=True).encode()}
        key = talk_notices.key(game_id) if talk else game_id
        waiter = self.hub.watch(key, after)
        try:
            await self.hub.ready(key)  # then no commit after Flask's answer is missed
            answer = await self.ask_flask(now)
            if answer_is_final(answer, "messages" if talk else "events") or (
                not talk and await self.in_thread(game_over, game_id)
            ):
                await replay(answer, send)
                return
            try:
                await asyncio.wait_for(asyncio.shield(waiter[1]), wait)
            except TimeoutError:
                pass
            await replay(await self.ask_flask(now), send)
        finally:
            self.hub.unwatch(key, waiter)

    async def ask_flask(self, scope: dict) -> list[dict]:
        """Return the ASGI messages of the Flask app's answer to a GET ``scope``."""
        messages: list[dict] = []

        async def no_body() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def keep(message: dict) -> None:
            messages.append(message)

        await self.wsgi(scope, no_body, keep, b"")
        return messages

    # --------------------------------------------------------------- problems

    async def send_problem(self, send, err: ArbiterError) -> None:
        """Answer ``err`` as problem+json (a 429 with its ``Retry-After``), before any
        stream began."""
        response = problem_for(err)
        headers = [(b"content-type", b"application/problem+json")]
        if "Retry-After" in response.headers:
            headers.append((b"retry-after", response.headers["Retry-After"].encode()))
        await send(
            {
                "type": "http.response.start",
                "status": response.status_code,
                "headers": headers,
            }
        )
        await send(body(response.get_data(), more=False))

    async def send_unavailable(self, send, err: Exception) -> None:
        """Answer a database that cannot be reached: 503 problem+json with
        ``Retry-After`` (see :mod:`arbiter.unavailable`), before any stream began."""
        with self.flask.app_context():
            response = unavailable.answer(err)
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [
                    (b"content-type", b"application/problem+json"),
                    (b"retry-after", response.headers["Retry-After"].encode()),
                ],
            }
        )
        await send(body(response.get_data(), more=False))


Who = tuple[str | None, str | None]
"""``(token_id, account_id)`` of a stream's personal token, ``(None, None)`` for a
game token or none: what a revocation notice names (:meth:`Hub.revoke`)."""


def token_of(who) -> Who:
    """Return the :data:`Who` of a principal (or None)."""
    if who is None or who.account is None:
        return None, None
    return who.token_id, who.account.id


def open_game_stream(
    game_id: str, authorization: str | None, after: int
) -> tuple[int | None, bool, int, bool, Who, TalkReader]:
    """Authenticate a game stream's reader as the Flask guard does; return its seat
    (None: spectator), whether the game is over, the game's version, whether its log
    is complete (over or cancelled), the reader's :data:`Who` and its reader of the
    game's talk (:func:`arbiter.talk.readers.reader_of`; runs in a worker thread).

    :raises ArbiterError: as :func:`arbiter.games.reading.stream_reader` (400
        ``bad-last-event-id`` for an ``after`` past the version)."""

    who = identity.authenticate(authorization)
    db.session.commit()  # a personal token's last-used time
    opened = reading.stream_reader(game_id, who, after)
    talker = talk_readers.reader_of(game_record.read(game_id, with_state=False), who)
    return (*opened, token_of(who), talker)


def open_account_stream(
    authorization: str | None, stream_id: str
) -> tuple[dict, set[str], Who, frozenset[str]]:
    """Authenticate an account stream's reader (a personal token with
    ``games:read``), count it against the ``read`` rate limit, and announce it as
    its token's one account stream (:func:`arbiter.streams.publish.stream_opened`:
    the token's older ones end); return :func:`arbiter.games.my_games.followed` of
    its account, the games where it owes a move (:func:`arbiter.games.my_games.owing`),
    the reader's :data:`Who` and the authors its account muted (left out of the talk
    it hears: :func:`arbiter.talk.readers.muted_by`).

    :raises ArbiterError: 401/403 as the guard; 429 ``rate-limited``."""

    who = identity.authenticate(authorization)
    db.session.commit()
    guard.CHECKS["account"](guard.Policy("account", "games:read"), who, {})
    limits.check("read", limits.caller_key(who))
    publish.stream_opened(who.token_id, stream_id)
    return (
        my_games.followed(who.account),
        my_games.owing(who.account),
        token_of(who),
        talk_readers.muted_by(who.account),
    )


def game_over(game_id: str) -> bool:
    """True when ``game_id`` is over or cancelled, :data:`arbiter.games.reading.ENDED`
    (one indexed read; runs in a worker thread)."""

    return db.session.scalar(sa.select(Game.status).where(Game.id == game_id)) in ENDED


def render_sse(game_id: str, event: dict, version: int, talk: int = 0) -> bytes:
    """Render one event of a game stream (see :func:`arbiter.streams.wire.sse`)."""
    return wire.sse(event, version, talk=talk)


async def drain_body(receive, limit: int) -> None:
    """Read and drop the request body until it ends, the client leaves, or ``limit``
    bytes were read."""
    read = 0
    while read <= limit:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body"):
            return
        read += len(message.get("body", b""))


def drain(queue: asyncio.Queue) -> list:
    """Return every item waiting in ``queue`` now, without waiting."""
    items = []
    while not queue.empty():
        items.append(queue.get_nowait())
    return items


def body(data: bytes, more: bool = True) -> dict:
    """Return an ASGI response body message."""
    return {"type": "http.response.body", "body": data, "more_body": more}


def answer_is_final(messages: list[dict], items: str = "events") -> bool:
    """True when a Flask ``/events`` answer is a problem or carries events (``items``:
    ``messages`` for a ``/messages`` answer)."""
    start = next(m for m in messages if m["type"] == "http.response.start")
    if start["status"] != 200:
        return True
    data = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return bool(json.loads(data)[items])


async def replay(messages: list[dict], send) -> None:
    """Send an answer collected by :meth:`Front.ask_flask`."""
    for message in messages:
        await send(message)
