"""``/v1/games``: create, list, read, move, resign, events, record."""

from __future__ import annotations

from dataclasses import asdict

from flask import Response, request
from flask.views import MethodView
from sqlalchemy.orm import joinedload

from arbiter import idempotency, limits, settings
from arbiter.contract import link, links
from arbiter.games import creation, games, moves, reading
from arbiter.models import Game, game_record
from arbiter.problem import ProblemSchema
from arbiter.resources import guard, headers, paging
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.games import schemas as s
from arbiter.streams import wire
from arbiter.talk import streamed
from arbiter.talk.readers import reader_of
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/v1/games",
    description="Games: create them, read them, move in them.",
)

SEAT = headers.security("seatToken", "apiToken")
OPTIONAL_SEAT = headers.security("seatToken", "apiToken", optional=True)
CREATE = headers.security("apiToken", optional=True)
CREATE_LIMITS = {
    "responses": {
        429: {
            "description": "too many games created (rate-limited, limit RATELIMIT_CREATE), "
            "or invitation-budget: the account would invite more new addresses than "
            "INVITES_PER_DAY; retry after Retry-After seconds"
        }
    }
}
"""The 429 answers of game creation (single and bulk)."""

GAME = "/v1/games/{game_id}"
SEAT0 = "Bearer {$response.body#/seats/0/token}"
CREATED_LINKS = links(
    201,
    GetGame=link(GAME, "get", "the new game's summary", path__game_id="$response.body#/id"),
    GetView=link(
        GAME + "/view",
        "get",
        "seat 0's view",
        path__game_id="$response.body#/id",
        header__Authorization=SEAT0,
    ),
    GetLegalMoves=link(
        GAME + "/legal-moves",
        "get",
        "seat 0's legal moves",
        path__game_id="$response.body#/id",
        header__Authorization=SEAT0,
    ),
    GetEvents=link(GAME + "/events", "get", "the log", path__game_id="$response.body#/id"),
    Pause=link(
        GAME + "/pause",
        "post",
        "pause the clock (creator token)",
        path__game_id="$response.body#/id",
        header__Authorization="Bearer {$response.body#/creator_token}",
    ),
)
LEGAL_LINKS = links(
    200,
    SubmitMove=link(
        GAME + "/moves",
        "post",
        "play the first legal move",
        body={"move": "$response.body#/moves/0", "expected_version": "$response.body#/version"},
        path__game_id="$request.path.game_id",
        header__Authorization="$request.header.Authorization",
    ),
)
MOVED_LINKS = links(
    201,
    GetGame=link(GAME, "get", "the game after the move", path__game_id="$request.path.game_id"),
    GetLegalMoves=link(
        GAME + "/legal-moves",
        "get",
        "the next legal moves",
        path__game_id="$request.path.game_id",
        header__Authorization="$request.header.Authorization",
    ),
)

IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "an ETag this route gave you: 304 while it still holds",
}
NOT_MODIFIED = "not modified since the ETag given in If-None-Match (empty body)"


def answer(tag: str, body: dict | None):
    """Return the view's answer: ``body`` with ``tag`` as ETag, or 304 when None."""
    if body is None:
        return headers.not_modified(tag)
    return body, 200, headers.etag_header(tag)


class GamePage(paging.SelectPage):
    """A page of games: each with its seats, in the same statement."""

    model = Game
    options = (joinedload(Game.seats),)

    def summary(self, row) -> dict:
        """Return a game's public summary."""
        return reading.summary(row)


@blp.route("")
class Games(MethodView):
    """``/v1/games``: list and create games."""

    @blp.arguments(s.GameQuerySchema, location="query")
    @blp.response(200, s.GameSchema(many=True))
    @blp.paginate(GamePage)
    def get(self, args):
        """List games, newest first; filter by status, engine or player."""
        return games.list_games(**args)

    @guard.needs("create")
    @blp.arguments(s.GameCreateSchema)
    @blp.response(201, s.GameCreatedSchema)
    @blp.alt_response(
        401,
        schema=ProblemSchema,
        description="no personal token with games:create (OPEN_CREATION off), or "
        "sign-in-to-invite: no personal token and a player's address is no account's",
    )
    @blp.alt_response(
        422,
        schema=ProblemSchema,
        description="invalid engine, count or options; bad-bot (a seat's bot, or the autopilot's)",
    )
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CREATE, **CREATED_LINKS)
    @blp.doc(**CREATE_LIMITS)
    def post(self, data):
        """Create a game; the answer carries each seat's token, shown only this once.

        Needs a personal token with ``games:create`` unless the server runs with
        ``OPEN_CREATION``; seats whose email is an account's are linked to it."""
        # once per Idempotency-Key, scoped to the caller (its token, or its client
        # address without one): another caller's replay of a key creates its own game
        # and never sees these tokens
        creator = guard.principal()
        command = creation.CreateGame(
            data["engine"],
            games.NewPlayer.many(data["players"]),
            data["options"],
            data["clock"],
            creator.account if creator else None,
            data["rated"],
            limits.caller_key(creator),
            data["start_at"],
            data["unfilled"],
            talk=data["talk"],
        )
        status, body = idempotency.answer(
            f"games:{idempotency.caller(creator)}",
            headers.idempotency_key(),
            data,
            201,
            shown,
            lambda keeper: creation.create_game(UnitOfWork(keeper=keeper), command),
        )
        return body, status, headers.etag(body["version"])


def shown(created: creation.GameCreated) -> dict:
    """Return a creation's answer: what it shows this once (seat and creator tokens)."""
    return created.shown


@blp.route("/<game_id>")
class GameById(MethodView):
    """``/v1/games/{id}``: a game's public summary."""

    @blp.response(200, s.GameSchema)
    @blp.alt_response(304, description=NOT_MODIFIED)
    @blp.alt_response(404, schema=ProblemSchema, description="no such game")
    @blp.doc(parameters=[IF_NONE_MATCH])
    def get(self, game_id):
        """Read a game's public summary (ETag: its version; If-None-Match: 304)."""
        guard.read_without_transaction()  # one SELECT: no BEGIN and ROLLBACK around it
        return answer(*reading.summary_if_changed(game_id, headers.cached))


@blp.route("/<game_id>/view")
class GameView(MethodView):
    """``/v1/games/{id}/view``: what the caller may see."""

    @guard.needs("seat", "games:read", optional=True, state=True)
    @blp.response(200, s.ViewSchema)
    @blp.alt_response(304, description=NOT_MODIFIED)
    @blp.alt_response(401, schema=ProblemSchema, description="a token of no seat")
    @blp.doc(parameters=[IF_NONE_MATCH], **OPTIONAL_SEAT)
    def get(self, game_id):
        """Read what your seat may see (Bearer seat token), or the spectator's view
        (ETag: version and seat; If-None-Match: 304)."""
        return answer(*reading.view_if_changed(game_id, guard.principal(), headers.cached))


@blp.route("/<game_id>/board.svg")
class Board(MethodView):
    """``/v1/games/{id}/board.svg``: the board as a picture."""

    @blp.doc(
        responses={
            "200": {
                "description": "the board as SVG",
                "content": {"image/svg+xml": {"schema": {"type": "string"}}},
            }
        },
        **OPTIONAL_SEAT,
    )
    @blp.alt_response(404, schema=ProblemSchema, description="no such game, or no board")
    @guard.needs("seat", "games:read", optional=True, state=True)
    def get(self, game_id):
        """Draw the board as your seat (or a spectator) sees it, as SVG."""
        picture = reading.board_svg(game_id, guard.principal())
        return Response(picture, mimetype="image/svg+xml")


@blp.route("/<game_id>/legal-moves")
class LegalMoves(MethodView):
    """``/v1/games/{id}/legal-moves``: the caller's legal moves."""

    @guard.needs("seat", "games:read", state=True)
    @blp.response(200, s.LegalMovesSchema)
    @blp.alt_response(304, description=NOT_MODIFIED)
    @blp.alt_response(401, schema=ProblemSchema, description="missing or wrong token")
    @blp.doc(parameters=[IF_NONE_MATCH], **SEAT, **LEGAL_LINKS)
    def get(self, game_id):
        """List every legal move of your seat now (Bearer seat token; ETag: version
        and seat; If-None-Match: 304)."""
        return answer(*reading.legal_moves_if_changed(game_id, guard.principal(), headers.cached))


@blp.route("/<game_id>/moves")
class Moves(MethodView):
    """``/v1/games/{id}/moves``: submit a move."""

    @guard.needs("seat", "games:play", idempotent="moves", record=True)
    @blp.arguments(s.MoveSchema)
    @blp.response(201, s.MoveAcceptedSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="missing or wrong token")
    @blp.alt_response(
        409, schema=ProblemSchema, description="stale version, not your turn, game over"
    )
    @blp.alt_response(422, schema=ProblemSchema, description="an illegal or unreadable move")
    @blp.doc(parameters=[headers.IDEMPOTENCY, headers.IF_MATCH], **SEAT, **MOVED_LINKS)
    def post(self, data, game_id, loaded):
        """Submit a move (Bearer seat token; expected_version or If-Match; Idempotency-Key)."""
        command = moves.SubmitMove(
            game_id,
            guard.principal(),
            moves.move_of(data),
            headers.expected_version(data.get("expected_version")),
        )
        status, body = idempotency.answer(
            loaded.scope,
            headers.idempotency_key(),
            data,
            201,
            asdict,
            lambda keeper: moves.submit_move(UnitOfWork(keeper=keeper), command, loaded.game),
            loaded.stored,
            "POST moves",
        )
        return body, status, headers.etag(body["version"])


@blp.route("/<game_id>/resign")
class Resign(MethodView):
    """``/v1/games/{id}/resign``: resign a seat."""

    @guard.needs("seat", "games:play", idempotent="resign")
    @blp.response(201, s.ResignedSchema)
    @blp.alt_response(409, schema=ProblemSchema, description="game over, already resigned")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **SEAT)
    def post(self, game_id, loaded):
        """Resign your seat (Bearer seat token): it ranks last and moves no more."""
        command = moves.Resign(game_id, guard.principal())
        status, body = idempotency.answer(
            loaded.scope,
            headers.idempotency_key(),
            None,
            201,
            asdict,
            lambda keeper: moves.resign(UnitOfWork(keeper=keeper), command, loaded.game),
            loaded.stored,
            "POST resign",
        )
        return body, status


@blp.route("/<game_id>/events")
class Events(MethodView):
    """``/v1/games/{id}/events``: the log, long-polled."""

    @guard.needs("seat", "games:read", optional=True)
    @blp.arguments(s.EventsQuerySchema, location="query")
    @blp.response(200, s.EventsSchema)
    @blp.alt_response(
        400,
        schema=ProblemSchema,
        description="a request line, header or body the server cannot "
        "read, or ``after`` past the game's version "
        "(after-past-version)",
    )
    @blp.doc(**OPTIONAL_SEAT)
    def get(self, args, game_id):
        """Read the log after seq N as you may see it; ``wait`` long-polls for news.

        A game that is over answers at once (nothing more will come)."""
        return reading.events(game_id, guard.principal(), args["after"], args["wait"])


LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    "schema": {"type": "string"},
    "description": "the id of the last message you received (``12``, or ``12-5``: game "
    "event 12 and talk entry 5): resume after it",
}
AFTER = {
    "in": "query",
    "name": "after",
    "required": False,
    "schema": {"type": "integer"},
    "description": "start after this seq (when there is no Last-Event-ID)",
}
TALK = {
    "in": "query",
    "name": "talk",
    "required": False,
    "schema": {"type": "integer"},
    "description": "start the talk (messages) after this talk entry (when there is no "
    "Last-Event-ID; default 0: every message)",
}


@blp.route("/<game_id>/stream")
class Stream(MethodView):
    """``/v1/games/{id}/stream``: the log as Server-Sent Events."""

    @guard.needs("seat", "games:read", optional=True)
    @blp.doc(
        responses={
            "200": {
                "description": "Server-Sent Events: one message per event, ``id`` its seq, "
                "``event`` its kind, ``data`` the event as ``/events`` shows it "
                "with the game's ``version``; each message of the game's talk the "
                'reader may read as ``event: talk``, ``data`` ``{"kind": "message", '
                '"talk", "n", "channel", "seat", "to", "name", "text", "hidden", '
                '"at"}`` (no ``seq``), after which every ``id`` is ``seq-talk``; '
                "a ``: keep-alive`` comment when idle; "
                "``event: cut`` when the reader fell too far behind; the stream "
                "ends once the game is over and its last event sent, and when the token that "
                "opened it is revoked (after an ``event: revoked`` message)",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            "204": {
                "description": "the game is over and nothing is after Last-Event-ID "
                "(an EventSource stops reconnecting)"
            },
        },
        parameters=[LAST_EVENT_ID, AFTER, TALK],
        **OPTIONAL_SEAT,
    )
    @blp.alt_response(
        400,
        schema=ProblemSchema,
        description="a Last-Event-ID (or after, or talk) that is no id this stream "
        "sent, or is past the game's version (bad-last-event-id)",
    )
    @blp.alt_response(401, schema=ProblemSchema, description="a token of no seat")
    @blp.alt_response(404, schema=ProblemSchema, description="no such game")
    def get(self, game_id):
        """Stream the log as you may see it: the events after ``Last-Event-ID`` (or
        ``after``), then each new one as it is committed (served by the web process's
        event loop; a Flask server alone answers the backlog and ends, and the client
        reconnects with its Last-Event-ID). The stream ends after the game's last event;
        a game over or cancelled with nothing after ``Last-Event-ID`` answers 204."""
        args = request.args
        after, talk = wire.read_positions(
            request.headers.get("Last-Event-ID"), args.get("after"), args.get("talk")
        )
        seat, over, known, ended = reading.stream_reader(game_id, guard.principal(), after)
        if ended and after >= known:
            return Response(status=204)
        rows = reading.backlog(game_id, after)
        deleted = reading.deleted_seats(game_id) if rows else frozenset()
        over = over or any(e.kind == "game-over" for e in rows)
        version = rows[-1].seq if rows else after
        said = streamed.backlog(
            game_id, reader_of(game_record.read(game_id, with_state=False), guard.principal()), talk
        )
        text = b"retry: %d\n\n" % settings.current().streams.retry_ms + b"".join(
            [wire.sse(reading.event_json(e, seat, over, deleted), version, talk=talk) for e in rows]
            + [wire.sse_talk(game_id, m, version) for m in said]
        )
        return Response(text, mimetype="text/event-stream", headers={"Cache-Control": "no-cache"})


@blp.route("/<game_id>/record")
class Record(MethodView):
    """``/v1/games/{id}/record``: the full record once over."""

    @blp.response(200, s.RecordSchema)
    @blp.alt_response(409, schema=ProblemSchema, description="the game is not over")
    def get(self, game_id):
        """Read the full record of a finished game, with its seed revealed."""
        guard.read_without_transaction()  # a finished game's: no BEGIN and ROLLBACK
        return reading.record(game_id)
