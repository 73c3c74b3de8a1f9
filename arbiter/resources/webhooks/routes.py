"""``/v1/me/webhooks``: register, list and delete my web hooks; read their deliveries."""

from __future__ import annotations

from flask.views import MethodView

from arbiter.extensions import db
from arbiter.hooks import webhooks
from arbiter.resources import guard
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.problem import ProblemSchema
from arbiter.resources.webhooks import schemas as s
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "webhooks",
    __name__,
    url_prefix="/v1/me/webhooks",
    description="My web hooks: events POSTed to my URLs, signed per the "
    "Standard Webhooks specification, with a delivery log.",
)

TOKEN = {"security": [{"apiToken": []}]}


def _account():
    return guard.principal().account


@blp.route("")
class Webhooks(MethodView):
    """``/v1/me/webhooks``: my web hooks."""

    @guard.needs("account", "account:write")
    @blp.response(200, s.WebhookSchema(many=True))
    @blp.alt_response(403, schema=ProblemSchema, description="token without account:write")
    @blp.doc(**TOKEN)
    def get(self):
        """List my web hooks, with their failure counts and why any was disabled."""
        return [webhooks.hook_json(h) for h in webhooks.hooks_of(db.session, _account())]

    @guard.needs("account", "account:write")
    @blp.arguments(s.WebhookCreateSchema)
    @blp.response(201, s.WebhookCreatedSchema)
    @blp.alt_response(403, schema=ProblemSchema, description="token without account:write")
    @blp.doc(**TOKEN)
    def post(self, data):
        """Register a URL for some events (turn, game_over, round_paired,
        tournament_over); the answer shows its signing secret this once."""
        made = webhooks.create(UnitOfWork(), _account(), data["url"], data["events"])
        return webhooks.hook_json(made.hook, made.secret)


@blp.route("/<hook_id>")
class WebhookById(MethodView):
    """``/v1/me/webhooks/{id}``: change or delete a web hook."""

    @guard.needs("account", "account:write")
    @blp.arguments(s.WebhookPatchSchema)
    @blp.response(200, s.WebhookSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my web hooks")
    @blp.doc(**TOKEN)
    def patch(self, data, hook_id):
        """Change a web hook's events, or enable it again after it was disabled (or
        disable it)."""
        return webhooks.hook_json(
            webhooks.update(
                UnitOfWork(), _account(), hook_id, data.get("events"), data.get("enabled")
            )
        )

    @guard.needs("account", "account:write")
    @blp.response(204)
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my web hooks")
    @blp.doc(**TOKEN)
    def delete(self, hook_id):
        """Delete one of my web hooks and its delivery log."""
        webhooks.delete(UnitOfWork(), _account(), hook_id)
        return None


@blp.route("/<hook_id>/deliveries")
class Deliveries(MethodView):
    """``/v1/me/webhooks/{id}/deliveries``: the delivery log."""

    @guard.needs("account", "account:write")
    @blp.arguments(s.DeliveriesQuerySchema, location="query")
    @blp.response(200, s.DeliveriesSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my web hooks")
    @blp.doc(**TOKEN)
    def get(self, args, hook_id):
        """Read a web hook's deliveries, newest first: state, tries, last status and
        error, next try."""
        return {
            "deliveries": webhooks.deliveries_of(db.session, _account(), hook_id, args["limit"])
        }
