"""``/v1/games/{id}/pause|resume|extend|vacation``: the game's clock.

Pause, resume and extend need the creator token (``creator_token`` of the creation
answer) as the bearer token; vacation needs the player's seat token.
"""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from arbiter.games import clock, clock_actions
from arbiter.problem import ProblemSchema
from arbiter.resources import guard, headers
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.fields import WholeNumber

blp = Blueprint(
    "clock",
    __name__,
    url_prefix="/v1/games",
    description="The clock: pause, resume, extend deadlines, vacation.",
)

CREATOR = headers.security("creatorToken", "apiToken")
SEAT = headers.security("seatToken", "apiToken")


class ClockEventSchema(Schema):
    """A recorded clock event: its seq, kind and the game's version after it."""

    seq = fields.Integer()
    version = fields.Integer()
    kind = fields.String()


class ExtendSchema(Schema):
    """``POST .../extend``: move a deadline later by ``seconds``."""

    seconds = WholeNumber(required=True, validate=validate.Range(min=1, max=clock.MAX_SECONDS))
    seat = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=15),
        metadata={"description": "default: every seat that owes a move"},
    )


class VacationSchema(Schema):
    """``POST .../vacation``: stop your clock for ``days`` days."""

    days = WholeNumber(required=True, validate=validate.Range(min=1, max=366))


@blp.route("/<game_id>/pause")
class Pause(MethodView):
    """``/v1/games/{id}/pause``: stop every clock."""

    @guard.needs("creator")
    @blp.response(201, ClockEventSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not the creator token")
    @blp.alt_response(409, schema=ProblemSchema, description="game over, already paused")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CREATOR)
    def post(self, game_id):
        """Pause every clock of the game (Bearer creator token)."""
        status, body = clock_actions.pause(game_id, guard.principal(), headers.idempotency_key())
        return body, status


@blp.route("/<game_id>/resume")
class Resume(MethodView):
    """``/v1/games/{id}/resume``: restart the clocks."""

    @guard.needs("creator")
    @blp.response(201, ClockEventSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not the creator token")
    @blp.alt_response(409, schema=ProblemSchema, description="game over, not paused")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CREATOR)
    def post(self, game_id):
        """Resume a paused game; deadlines move by the pause's length (creator token)."""
        status, body = clock_actions.resume(game_id, guard.principal(), headers.idempotency_key())
        return body, status


@blp.route("/<game_id>/extend")
class Extend(MethodView):
    """``/v1/games/{id}/extend``: move a deadline later."""

    @guard.needs("creator")
    @blp.arguments(ExtendSchema)
    @blp.response(201, ClockEventSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not the creator token")
    @blp.alt_response(409, schema=ProblemSchema, description="game over, no running clock")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CREATOR)
    def post(self, data, game_id):
        """Extend a seat's deadline, or every running one (Bearer creator token)."""
        status, body = clock_actions.extend(
            game_id, guard.principal(), data["seconds"], data["seat"], headers.idempotency_key()
        )
        return body, status


@blp.route("/<game_id>/vacation")
class Vacation(MethodView):
    """``/v1/games/{id}/vacation``: a seat's vacation days."""

    @guard.needs("seat", "games:play")
    @blp.arguments(VacationSchema)
    @blp.response(201, ClockEventSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="missing or wrong seat token")
    @blp.alt_response(409, schema=ProblemSchema, description="game over, no clock")
    @blp.alt_response(422, schema=ProblemSchema, description="beyond the yearly allowance")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **SEAT)
    def post(self, data, game_id):
        """Declare vacation days for your seat: its clock stops (Bearer seat token)."""
        status, body = clock_actions.vacation(
            game_id, guard.principal(), data["days"], headers.idempotency_key()
        )
        return body, status
