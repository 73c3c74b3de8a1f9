"""``/v1/games/{id}/pause|resume|extend|vacation|back``: the game's clock.

Pause, resume and extend need the creator token (``creator_token`` of the creation
answer) as the bearer token; vacation, and taking a seat back from the autopilot
(``back``), need the player's seat token.
"""

from __future__ import annotations

from dataclasses import asdict

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from arbiter import idempotency
from arbiter.games import clock, clock_actions, seat_return
from arbiter.problem import ProblemSchema
from arbiter.resources import guard, headers
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.fields import WholeNumber
from arbiter.uow import UnitOfWork

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

    @guard.needs("creator", idempotent="pause")
    @blp.response(201, ClockEventSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not the creator token")
    @blp.alt_response(409, schema=ProblemSchema, description="game over, already paused")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CREATOR)
    def post(self, game_id, loaded):
        """Pause every clock of the game (Bearer creator token)."""
        command = clock_actions.Pause(game_id, guard.principal())
        return once(loaded, None, "POST pause", clock_actions.pause, command)


@blp.route("/<game_id>/resume")
class Resume(MethodView):
    """``/v1/games/{id}/resume``: restart the clocks."""

    @guard.needs("creator", idempotent="resume")
    @blp.response(201, ClockEventSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not the creator token")
    @blp.alt_response(409, schema=ProblemSchema, description="game over, not paused")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CREATOR)
    def post(self, game_id, loaded):
        """Resume a paused game; deadlines move by the pause's length (creator token)."""
        command = clock_actions.Resume(game_id, guard.principal())
        return once(loaded, None, "POST resume", clock_actions.resume, command)


@blp.route("/<game_id>/extend")
class Extend(MethodView):
    """``/v1/games/{id}/extend``: move a deadline later."""

    @guard.needs("creator", idempotent="extend")
    @blp.arguments(ExtendSchema)
    @blp.response(201, ClockEventSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not the creator token")
    @blp.alt_response(409, schema=ProblemSchema, description="game over, no running clock")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CREATOR)
    def post(self, data, game_id, loaded):
        """Extend a seat's deadline, or every running one (Bearer creator token)."""
        command = clock_actions.Extend(game_id, guard.principal(), data["seconds"], data["seat"])
        return once(loaded, data, "POST extend", clock_actions.extend, command)


@blp.route("/<game_id>/vacation")
class Vacation(MethodView):
    """``/v1/games/{id}/vacation``: a seat's vacation days."""

    @guard.needs("seat", "games:play", idempotent="vacation")
    @blp.arguments(VacationSchema)
    @blp.response(201, ClockEventSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="missing or wrong seat token")
    @blp.alt_response(409, schema=ProblemSchema, description="game over, no clock")
    @blp.alt_response(422, schema=ProblemSchema, description="beyond the yearly allowance")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **SEAT)
    def post(self, data, game_id, loaded):
        """Declare vacation days for your seat: its clock stops (Bearer seat token)."""
        command = clock_actions.Vacation(game_id, guard.principal(), data["days"])
        return once(loaded, data, "POST vacation", clock_actions.vacation, command)


class TookBackSchema(Schema):
    """A seat taken back from the autopilot: the ``autopilot-off`` event's seq, the
    game's version after it, the seat."""

    seq = fields.Integer()
    version = fields.Integer()
    seat = fields.Integer()


@blp.route("/<game_id>/back")
class Back(MethodView):
    """``/v1/games/{id}/back``: "I'm back", a seat taken back from the autopilot."""

    @guard.needs("seat", "games:play", idempotent="back")
    @blp.response(201, TookBackSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="missing or wrong seat token")
    @blp.alt_response(
        409,
        schema=ProblemSchema,
        description="game over, no-autopilot (it does not hold the seat), "
        "autopilot-holds-seat (to the end), stale-version (the bot moved meanwhile)",
    )
    @blp.doc(parameters=[headers.IDEMPOTENCY], **SEAT)
    def post(self, game_id, loaded):
        """Take your seat back from the autopilot that played it while you were away
        (Bearer seat token); your next move is your own."""
        command = seat_return.Back(game_id, guard.principal())
        return once(loaded, None, "POST back", seat_return.back, command)


def once(loaded: guard.Loaded, body, route: str, action, command):
    """Run the clock ``action`` with ``command`` on the game the guard read, once per
    Idempotency-Key (the request's ``body`` and ``route`` are its fingerprint); return
    the view's answer: the recorded event, 201."""
    status, answer = idempotency.answer(
        loaded.scope,
        headers.idempotency_key(),
        body,
        201,
        asdict,
        lambda keeper: action(UnitOfWork(keeper=keeper), command, loaded.game),
        loaded.stored,
        route,
    )
    return answer, status
