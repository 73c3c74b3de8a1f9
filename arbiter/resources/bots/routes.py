"""``/v1/me/bots``: the bot accounts a person makes for their programs (issue 25)."""

from __future__ import annotations

from flask.views import MethodView

from arbiter.accounts import bot_accounts
from arbiter.extensions import db
from arbiter.hooks import webhooks
from arbiter.resources import guard
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.bots import schemas as s
from arbiter.resources.problem import ProblemSchema
from arbiter.resources.webhooks.schemas import (
    WebhookCreatedSchema,
    WebhookCreateSchema,
    WebhookSchema,
)
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "bots",
    __name__,
    url_prefix="/v1/me/bots",
    description="My bot accounts: accounts for programs that play, with play-scoped tokens.",
)

TOKEN = {"security": [{"apiToken": []}]}


def _owner():
    """Return the account of the request's personal token (checked by the guard)."""
    return guard.principal().account


@blp.route("")
class Bots(MethodView):
    """``/v1/me/bots``: make and list my bot accounts."""

    @guard.needs("account", "account:write")
    @blp.response(200, s.BotSchema(many=True))
    @blp.doc(**TOKEN)
    def get(self):
        """List my bot accounts, oldest first (never their tokens)."""
        return [bot_accounts.bot_json(b) for b in bot_accounts.bots_of(_owner())]

    @guard.needs("account", "account:write")
    @blp.arguments(s.BotCreateSchema)
    @blp.response(201, s.BotMadeSchema)
    @blp.alt_response(
        403,
        schema=ProblemSchema,
        description="token without account:write (missing-scope), or a bot account's "
        "token (bot-account)",
    )
    @blp.alt_response(
        409,
        schema=ProblemSchema,
        description="I already hold BOTS_PER_ACCOUNT bot accounts (too-many-bots, with limit)",
    )
    @blp.doc(**TOKEN)
    def post(self, data):
        """Make a bot account: no address, never mailed, marked as a bot in games;
        the answer shows its play-scoped token (``games:play``) this once."""
        made = bot_accounts.create_bot(UnitOfWork(), _owner(), data["name"], data["public"])
        return bot_accounts.bot_json(made.account, made)


@blp.route("/<bot_id>")
class BotById(MethodView):
    """``/v1/me/bots/{id}``: delete one of my bot accounts."""

    @guard.needs("account", "account:write")
    @blp.response(204)
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my bots (bot-not-found)")
    @blp.doc(**TOKEN)
    def delete(self, bot_id):
        """Delete one of my bot accounts: its tokens are revoked (its streams end); its
        seats keep a placeholder name and the game logs are untouched."""
        bot_accounts.delete_bot(UnitOfWork(), _owner(), bot_id)
        return None


@blp.route("/<bot_id>/token")
class BotToken(MethodView):
    """``/v1/me/bots/{id}/token``: a new token for a bot."""

    @guard.needs("account", "account:write")
    @blp.response(201, s.BotMadeSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my bots (bot-not-found)")
    @blp.doc(**TOKEN)
    def post(self, bot_id):
        """Give a bot a new token (shown this once) and revoke its others: for a token
        lost or leaked. Its open streams end."""
        made = bot_accounts.new_token(UnitOfWork(), _owner(), bot_id)
        return bot_accounts.bot_json(made.account, made)


@blp.route("/<bot_id>/webhooks")
class BotWebhooks(MethodView):
    """``/v1/me/bots/{id}/webhooks``: a bot's web hooks, kept by its owner (a bot's
    token administers nothing)."""

    @guard.needs("account", "account:write")
    @blp.response(200, WebhookSchema(many=True))
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my bots (bot-not-found)")
    @blp.doc(**TOKEN)
    def get(self, bot_id):
        """List a bot's web hooks, as ``GET /v1/me/webhooks`` lists mine."""
        bot = bot_accounts.bot_of(_owner(), bot_id)
        return [webhooks.hook_json(h) for h in webhooks.hooks_of(db.session, bot)]

    @guard.needs("account", "account:write")
    @blp.arguments(WebhookCreateSchema)
    @blp.response(201, WebhookCreatedSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my bots (bot-not-found)")
    @blp.doc(**TOKEN)
    def post(self, data, bot_id):
        """Register a URL told of the bot's events (``turn``: one of its seats is to
        act; ``game_over``), as ``POST /v1/me/webhooks``; the signing secret is shown
        this once."""
        bot = bot_accounts.bot_of(_owner(), bot_id)
        made = webhooks.create(UnitOfWork(), bot, data["url"], data["events"])
        return webhooks.hook_json(made.hook, made.secret)


@blp.route("/<bot_id>/webhooks/<hook_id>")
class BotWebhookById(MethodView):
    """``/v1/me/bots/{id}/webhooks/{hook_id}``: delete a bot's web hook."""

    @guard.needs("account", "account:write")
    @blp.response(204)
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my bots or its hooks")
    @blp.doc(**TOKEN)
    def delete(self, bot_id, hook_id):
        """Delete one of a bot's web hooks and its delivery log."""
        webhooks.delete(UnitOfWork(), bot_accounts.bot_of(_owner(), bot_id), hook_id)
        return None
