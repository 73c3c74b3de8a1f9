"""``/v1/lobby``: the public tables; ``/v1/games/{id}/seats``: take an open seat;
``/v1/games/{id}/rematch``: a new game of a finished one with the same players."""

from __future__ import annotations

from dataclasses import asdict

from flask.views import MethodView

from arbiter import idempotency, limits
from arbiter.games import lobby, rematch
from arbiter.problem import ProblemSchema
from arbiter.resources import guard, headers
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.games import schemas as game_schemas
from arbiter.resources.lobby import schemas as s
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "lobby",
    __name__,
    url_prefix="/v1",
    description="Public tables: list them, take a seat; rematches.",
)

TOKEN = headers.security("apiToken")


@blp.route("/lobby")
class Lobby(MethodView):
    """``/v1/lobby``: the tables waiting for players."""

    @blp.response(200, s.LobbyTableSchema(many=True))
    def get(self):
        """List the games with a seat open to anyone, oldest first."""
        return [lobby.table_json(game) for game in lobby.open_tables()]


@blp.route("/games/<game_id>/seats")
class Seats(MethodView):
    """``/v1/games/{id}/seats``: take an open seat of a public table."""

    @guard.needs("account", "games:play")
    @blp.response(201, s.SeatTakenSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="no personal token")
    @blp.alt_response(404, schema=ProblemSchema, description="no such game")
    @blp.alt_response(
        409,
        schema=ProblemSchema,
        description="table-full (no seat open), already-seated (you hold a seat here), "
        "game-over, game-cancelled",
    )
    @blp.doc(parameters=[headers.IDEMPOTENCY], **TOKEN)
    def post(self, game_id):
        """Take the first open seat of a waiting game as your account (personal token
        with ``games:play``); the game starts when its last seat is taken."""
        who = guard.principal()
        command = lobby.TakeSeat(game_id, who.account)
        status, body = idempotency.answer(
            idempotency.caller_scope(game_id, who),
            headers.idempotency_key(),
            None,
            201,
            asdict,
            lambda keeper: lobby.take_seat(UnitOfWork(keeper=keeper), command),
            route="POST seats",
        )
        return body, status


@blp.route("/games/<game_id>/rematch")
class Rematch(MethodView):
    """``/v1/games/{id}/rematch``: a new game of a finished one."""

    @guard.needs("account", "games:create")
    @blp.response(201, game_schemas.GameCreatedSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="no personal token")
    @blp.alt_response(403, schema=ProblemSchema, description="not-a-player of this game")
    @blp.alt_response(404, schema=ProblemSchema, description="no such game")
    @blp.alt_response(409, schema=ProblemSchema, description="game-not-over")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **TOKEN)
    def post(self, game_id):
        """Start a rematch: the same engine, options, clock and players, a new seed;
        players whose address is no account's are invited as for any new game."""
        who = guard.principal()
        status, body = idempotency.answer(
            idempotency.caller_scope(game_id, who),
            headers.idempotency_key(),
            None,
            201,
            lambda created: created.shown,
            lambda keeper: rematch.rematch(
                game_id, who.account, UnitOfWork(keeper=keeper), limits.caller_key(who)
            ),
            route="POST rematch",
        )
        return body, status
