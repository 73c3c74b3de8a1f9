"""``/v1/me``: my account, my personal API tokens, my games."""

from __future__ import annotations

from flask import Response, request
from flask.views import MethodView

from arbiter.accounts import accounts, ratings
from arbiter.contract import link, links
from arbiter.games import my_games, preferences
from arbiter.models import ApiToken
from arbiter.resources import dumped, guard, paging
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.me import schemas as s
from arbiter.resources.problem import ProblemSchema
from arbiter.streams import resume as resume_stream
from arbiter.streams import wire
from arbiter.talk import readers as talk_readers
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "me",
    __name__,
    url_prefix="/v1/me",
    description="My account: profile, personal API tokens, my games.",
)

TOKEN = {"security": [{"apiToken": []}]}
TOKEN_LINKS = links(
    201,
    ListTokens=link(
        "/v1/me/tokens",
        "get",
        "my tokens, the new one among them",
        header__Authorization="$request.header.Authorization",
    ),
    RevokeToken=link(
        "/v1/me/tokens/{token_id}",
        "delete",
        "revoke the new token",
        path__token_id="$response.body#/id",
        header__Authorization="$request.header.Authorization",
    ),
)


class TokenPage(paging.SelectPage):
    """A page of an account's tokens."""

    model = ApiToken

    def summary(self, row) -> dict:
        """Return a token as listed (never the token itself)."""
        return accounts.token_json(row)


def _account():
    """Return the account of the request's personal token (checked by the guard)."""
    return guard.principal().account


@blp.route("")
class Me(MethodView):
    """``/v1/me``: read, change, delete my account."""

    @guard.needs("account")
    @blp.response(200, s.MeSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="missing, revoked or game token")
    @blp.doc(**TOKEN)
    def get(self):
        """Read my account (any personal token), with my ratings and reliability."""
        account = _account()
        return {
            **accounts.me(account),
            "ratings": ratings.of_account(account),
            "reliability": ratings.reliability(account),
        }

    @guard.needs("account", "account:write")
    @blp.arguments(s.MePatchSchema, required=False)
    @blp.response(200, s.MeSchema)
    @blp.alt_response(403, schema=ProblemSchema, description="token without account:write")
    @blp.doc(**TOKEN)
    def patch(self, data):
        """Change my display name, time zone or digest option (scope account:write).

        Fields left out, or no body at all, stay as they are.
        """
        return accounts.me(accounts.update(UnitOfWork(), _account(), data))

    @guard.needs("account", "account:write")
    @blp.response(204)
    @blp.alt_response(403, schema=ProblemSchema, description="token without account:write")
    @blp.doc(**TOKEN)
    def delete(self):
        """Delete my account: address and name erased, tokens revoked; my seats keep a
        placeholder name and the game logs are untouched (scope account:write)."""
        accounts.delete(UnitOfWork(), _account())
        return None


@blp.route("/tokens")
class Tokens(MethodView):
    """``/v1/me/tokens``: my personal API tokens."""

    @guard.needs("account", "account:write")
    @blp.response(200, s.TokenSchema(many=True))
    @blp.paginate(TokenPage, page_size=50, max_page_size=100)
    @blp.doc(**TOKEN)
    def get(self):
        """List my tokens that are not revoked, oldest first (never the tokens
        themselves), a page at a time (``X-Pagination``)."""
        return accounts.tokens_of(_account())

    @guard.needs("account", "account:write")
    @blp.arguments(s.TokenCreateSchema)
    @blp.response(201, s.TokenCreatedSchema)
    @blp.alt_response(
        403,
        schema=ProblemSchema,
        description="token without account:write (missing-scope), or asking for a scope "
        "the token itself lacks (scope-not-held)",
    )
    @blp.alt_response(
        409,
        schema=ProblemSchema,
        description="the account already holds TOKENS_PER_ACCOUNT live tokens "
        "(too-many-tokens, with limit)",
    )
    @blp.doc(**TOKEN, **TOKEN_LINKS)
    def post(self, data):
        """Make a personal API token with some scopes; the answer shows it this once.

        A token makes only tokens whose scopes it holds itself (a scope implied by
        one it holds counts: ``games:play`` may make ``games:read``)."""
        made = accounts.create_token(
            UnitOfWork(),
            _account(),
            data["name"],
            data["scopes"],
            data["expires_in"],
            held=guard.principal().scopes,
        )
        return accounts.token_json(made.token, made.plain)


@blp.route("/tokens/<token_id>")
class TokenById(MethodView):
    """``/v1/me/tokens/{id}``: revoke a token."""

    @guard.needs("account", "account:write")
    @blp.response(204)
    @blp.alt_response(404, schema=ProblemSchema, description="not one of my tokens")
    @blp.doc(**TOKEN)
    def delete(self, token_id):
        """Revoke one of my tokens: from now on it opens nothing."""
        accounts.revoke_token(UnitOfWork(), _account(), token_id)
        return None


@blp.route("/games")
class MyGames(MethodView):
    """``/v1/me/games``: the games where my account holds a seat."""

    @guard.needs("account", "games:read")
    @blp.arguments(s.MyGamesQuerySchema, location="query")
    @blp.response(200, s.MyGamesSchema)
    @blp.doc(**TOKEN)
    def get(self, args):
        """List my games, most recently moved first; ``to_act=true``: only those where it
        is my turn, across all my games."""
        return dumped.response(  # already the schema's shape: 500 games, no dump
            {"games": my_games.games_of(_account(), args["to_act"], args["status"])}
        )


@blp.route("/games/<game_id>/notify")
class MyGameNotify(MethodView):
    """``/v1/me/games/{game_id}/notify``: how my turns in one game are told."""

    @guard.needs("account", "account:write")
    @blp.arguments(s.NotifySchema)
    @blp.response(200, s.NotifyAnswerSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="I hold no seat in the game")
    @blp.doc(**TOKEN)
    def put(self, data, game_id):
        """Choose how my turns in this game are told: ``turn`` (a mail each turn),
        ``digest`` (in the daily digest), ``none``, or null for my choice for all
        games (``notify`` of ``PATCH /v1/me``) (scope account:write)."""
        command = preferences.SetForGame(_account(), game_id, data["notify"])
        return preferences.set_for_game(UnitOfWork(), command)


CURSOR = {
    "in": "query",
    "name": "cursor",
    "required": False,
    "schema": {"type": "string"},
    "description": "the cursor of the last line you received: resume after it "
    "(when there is no Last-Event-ID)",
}
LAST_CURSOR = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    "schema": {"type": "string"},
    "description": "the cursor of the last line you received: resume after it",
}


@blp.route("/stream")
class MyStream(MethodView):
    """``/v1/me/stream``: every event of my games, as newline-delimited JSON."""

    @guard.needs("account", "games:read")
    @blp.doc(
        responses={
            "200": {
                "description": "application/x-ndjson: one line per new event of any game where "
                'my account holds a seat, ``{"game", "seq", "version", '
                '"kind", "seat", "payload", "at", "cursor"}`` as my '
                "seat may see it, and one per message of their talk that seat "
                'may read, ``{"game", "kind": "message", "talk", "n", "channel", '
                '"seat", "to", "name", "text", "hidden", "at", "cursor"}`` (no '
                "``seq``); an empty line as keep-alive. Send a line's "
                "``cursor`` back to resume after it. The stream ends when "
                "its token is revoked or the account deleted",
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            }
        },
        parameters=[LAST_CURSOR, CURSOR],
        **TOKEN,
    )
    @blp.alt_response(
        400,
        schema=ProblemSchema,
        description="a cursor no line carried (bad-cursor), or a request "
        "line or header the server cannot read",
    )
    def get(self):
        """Follow all my games at once (personal token with games:read), as Lichess's
        event stream: served live by the web process's event loop; a Flask server
        alone answers one keep-alive line and the events after the cursor, and ends."""
        resume = wire.read_cursor(
            request.headers.get("Last-Event-ID") or request.args.get("cursor")
        )
        games = my_games.followed(_account())
        start = resume_stream.start_positions(games, resume, my_games.owing(_account()))
        muted = talk_readers.muted_by(_account())
        talk, told = resume_stream.talk_positions(games, resume, muted)
        lines, _ = resume_stream.missed_lines(games, {**start, **talk}, told, muted)
        return Response(wire.NDJSON_KEEPALIVE + b"".join(lines), mimetype="application/x-ndjson")
