"""``/v1/auth``: sign-up and sign-in by a one-time link mailed to the address."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields

from arbiter import limits
from arbiter.accounts import accounts
from arbiter.resources import pages
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.me import schemas as s
from arbiter.resources.problem import ProblemSchema
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "auth",
    __name__,
    url_prefix="/v1/auth",
    description="Sign-up and sign-in by a one-time mailed link (no passwords).",
)


@blp.route("/links")
class Links(MethodView):
    """``/v1/auth/links``: ask for a sign-in link."""

    @blp.arguments(s.LinkRequestSchema)
    @blp.response(202, s.LinkSentSchema)
    @blp.alt_response(429, schema=ProblemSchema, description="too many links for this address")
    def post(self, data):
        """Mail a one-time sign-in link to an address (an account is made on first use).
        The answer is the same whether or not the address has an account, and whether
        or not it unsubscribed from every mail (then nothing is mailed)."""
        accounts.request_link(
            UnitOfWork(), data["email"], data["display_name"], client=limits.caller_key(None)
        )
        return {
            "detail": "If the address can receive mail from us, a sign-in link is on its "
            "way; it works once and expires soon. (An address that unsubscribed from "
            "every mail of ours gets none: the unsubscribe page of any earlier mail "
            "has a button to get mail again.)"
        }


@blp.route("/sessions")
class Sessions(MethodView):
    """``/v1/auth/sessions``: use a mailed link."""

    @blp.arguments(s.SessionCreateSchema)
    @blp.response(201, s.SessionSchema)
    @blp.alt_response(400, schema=ProblemSchema, description="bad-link, link-wrong-address")
    @blp.alt_response(409, schema=ProblemSchema, description="link-used")
    @blp.alt_response(410, schema=ProblemSchema, description="link-expired")
    def post(self, data):
        """Use a sign-in link (its ``email`` and ``token``): the answer holds the account
        and a personal token with every scope, shown once."""
        done = accounts.complete_sign_in(UnitOfWork(), data["email"], data["token"])
        return {
            "account": accounts.me(done.account),
            "token": accounts.token_json(done.token, done.plain),
        }


class ConfirmQuerySchema(Schema):
    """The query of a mailed sign-in link."""

    email = fields.String(required=True)
    token = fields.String(required=True)


@blp.route("/confirm")
class Confirm(MethodView):
    """``/v1/auth/confirm``: the page a mailed link opens."""

    @blp.arguments(ConfirmQuerySchema, location="query")
    @blp.doc(
        responses={
            "200": {
                "description": "a page with a sign-in button",
                "content": {"text/html": {"schema": {"type": "string"}}},
            }
        }
    )
    def get(self, args):
        """Show a page whose button uses the link (opening it alone uses nothing, so a
        mail scanner that follows links cannot spend it)."""
        return pages.button_page(
            "Sign in to Arbiter",
            f"Sign in as {args['email']}? The link works once.",
            [("Sign in", "/v1/auth/sessions", {"email": args["email"], "token": args["token"]})],
        )
