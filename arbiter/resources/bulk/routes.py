"""``/v1/bulk-games``: many games in one request, all or none."""

from __future__ import annotations

from flask import request
from flask.views import MethodView

from arbiter import idempotency, limits, settings
from arbiter.games import bulk, games
from arbiter.resources import guard, headers
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.bulk import schemas as s
from arbiter.resources.games.routes import CREATE, CREATE_LIMITS
from arbiter.resources.problem import ProblemSchema
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "bulk",
    __name__,
    url_prefix="/v1/bulk-games",
    description="Bulk creation: up to BULK_GAMES_MAX games in one transaction.",
)


@blp.before_request
def larger_body() -> None:
    """Let this route's body be up to ``BULK_BODY_BYTES`` (64 KiB elsewhere)."""
    request.max_content_length = settings.current().limits.bulk_body_bytes


@blp.route("")
class BulkGames(MethodView):
    """``/v1/bulk-games``: create many games at once."""

    @guard.needs("create")
    @blp.arguments(s.BulkCreateSchema)
    @blp.response(201, s.BulkCreatedSchema)
    @blp.alt_response(
        401,
        schema=ProblemSchema,
        description="no personal token with games:create (OPEN_CREATION off), or "
        "sign-in-to-invite: no personal token and a player's address is no account's",
    )
    @blp.alt_response(413, schema=ProblemSchema, description="body over BULK_BODY_BYTES")
    @blp.alt_response(
        422,
        schema=ProblemSchema,
        description="too-many-games, or bad-game: the index of the first game "
        "that cannot be created (nothing was created)",
    )
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CREATE)
    @blp.doc(**CREATE_LIMITS)
    def post(self, data):
        """Create every game of the batch in one transaction, or none: each is checked
        as ``POST /v1/games`` checks it, and one bad game is a 422 ``bad-game`` naming
        its ``index``. The answer carries every seat's token, shown only this once."""
        specs = [
            bulk.GameSpec(
                g["engine"],
                games.NewPlayer.many(g["players"]),
                g["options"],
                g["clock"],
                g["rated"],
                g["start_at"],
                g["unfilled"],
            )
            for g in data["games"]
        ]
        creator = guard.principal()
        command = bulk.CreateGames(
            specs,
            creator.account if creator else None,
            limits.caller_key(creator),
            data["start_at"],
            data["unfilled"],
        )
        # once per Idempotency-Key, scoped to the caller as a single creation is
        status, body = idempotency.answer(
            f"bulk-games:{idempotency.caller(creator)}",
            headers.idempotency_key(),
            data,
            201,
            lambda created: {"games": [game.shown for game in created.games]},
            lambda keeper: bulk.new_games(UnitOfWork(keeper=keeper), command),
        )
        return body, status
