"""``/v1/invitations``: answer an invitation to a seat; ``/v1/unsubscribe``: the
one-click unsubscribe link every mail carries (RFC 8058)."""

from __future__ import annotations

from dataclasses import asdict

from flask import request
from flask.views import MethodView
from marshmallow import Schema, fields

from arbiter.extensions import db
from arbiter.games import invitations
from arbiter.games.naming import engine_title
from arbiter.guards import FORM_ENDPOINTS
from arbiter.mail import consent
from arbiter.models import Game
from arbiter.resources import guard, pages
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.me.schemas import MeSchema
from arbiter.resources.problem import ProblemSchema
from arbiter.uow import UnitOfWork
from arbiter.web import CSP, invitation_routes

blp = Blueprint(
    "invitations",
    __name__,
    url_prefix="/v1",
    description="Invitations with consent, and one-click unsubscribe.",
)

OPTIONAL_ACCOUNT = {"security": [{}, {"apiToken": []}]}


class LinkTokenSchema(Schema):
    """The secret of a mailed invitation link (or none, with an account's token)."""

    token = fields.String(
        load_default=None, allow_none=True, metadata={"description": "the token of the mailed link"}
    )


class AcceptedSchema(Schema):
    """An accepted invitation: the game, the seat, the account and (by link) a token."""

    game_id = fields.String()
    seat = fields.Integer()
    account = fields.Nested(MeSchema)
    token = fields.String(
        allow_none=True,
        metadata={
            "description": "a personal token with every scope, shown once (accepted by link)"
        },
    )


class DeclinedSchema(Schema):
    """A declined (or blocked) invitation."""

    game_id = fields.String()
    seat = fields.Integer()
    status = fields.String()
    blocked = fields.Boolean()


class InvitationSchema(Schema):
    """An invitation as its address sees it."""

    id = fields.String()
    game_id = fields.String()
    seat = fields.Integer()
    status = fields.String(metadata={"description": "pending | accepted | declined | expired"})
    mailed = fields.Boolean()
    created_at = fields.String()


@blp.route("/invitations/<invitation_id>")
class InvitationPage(MethodView):
    """``/v1/invitations/{id}``: the page the invitation mail links to."""

    @blp.arguments(LinkTokenSchema, location="query")
    @blp.doc(
        responses={
            "200": {
                "description": "a page with accept, decline, block buttons "
                "while the invitation waits for an answer; "
                "once answered (or too late), its state "
                "and no buttons",
                "content": {"text/html": {"schema": {"type": "string"}}},
            }
        }
    )
    @blp.alt_response(
        403,
        schema=ProblemSchema,
        description="bad-invitation-link: no token, or not this invitation's",
    )
    @blp.alt_response(404, schema=ProblemSchema, description="no such invitation")
    def get(self, args, invitation_id):
        """Show the invitation its mailed link opens, with its buttons while it waits
        (opening the page answers nothing)."""
        row, game = invitations.by_link(invitation_id, args["token"])
        page = invitation_routes.render_invitation(row, game, args["token"])
        return page, 200, {"Content-Security-Policy": CSP}


def _answer(action, invitation_id: str, data: dict, block: bool = False) -> dict:
    """Run one answer with the link's token or the caller's account token; return the
    result as its body. (No Idempotency-Key: an invitation is answered once, and a
    second answer is refused ``invitation-answered``.)"""
    command = invitations.Answer(invitation_id, data["token"], guard.principal(), block=block)
    return asdict(action(UnitOfWork(), command))


@blp.route("/invitations/<invitation_id>/accept")
class Accept(MethodView):
    """``/v1/invitations/{id}/accept``."""

    @guard.needs("anyone")
    @blp.arguments(LinkTokenSchema)
    @blp.response(201, AcceptedSchema)
    @blp.alt_response(403, schema=ProblemSchema, description="bad-invitation-link")
    @blp.alt_response(
        409, schema=ProblemSchema, description="invitation-answered, game-started, game-cancelled"
    )
    @blp.doc(**OPTIONAL_ACCOUNT)
    def post(self, data, invitation_id):
        """Accept (the link's ``token``, or a personal token of the invited address):
        the seat joins your account (made now if needed); the game starts when every
        seat has accepted."""
        return _answer(invitations.accept, invitation_id, data)


@blp.route("/invitations/<invitation_id>/decline")
class Decline(MethodView):
    """``/v1/invitations/{id}/decline``."""

    @guard.needs("anyone")
    @blp.arguments(LinkTokenSchema)
    @blp.response(200, DeclinedSchema)
    @blp.alt_response(409, schema=ProblemSchema, description="invitation-answered")
    @blp.doc(**OPTIONAL_ACCOUNT)
    def post(self, data, invitation_id):
        """Decline: nothing more is mailed about this game; the seat is unfilled."""
        return _answer(invitations.decline, invitation_id, data)


@blp.route("/invitations/<invitation_id>/block")
class Block(MethodView):
    """``/v1/invitations/{id}/block``."""

    @guard.needs("anyone")
    @blp.arguments(LinkTokenSchema)
    @blp.response(200, DeclinedSchema)
    @blp.doc(**OPTIONAL_ACCOUNT)
    def post(self, data, invitation_id):
        """Decline and block every later invitation to this address (one click)."""
        return _answer(invitations.decline, invitation_id, data, block=True)


@blp.route("/me/invitations")
class MyInvitations(MethodView):
    """``/v1/me/invitations``: invitations waiting for my answer."""

    @guard.needs("account")
    @blp.response(200, InvitationSchema(many=True))
    @blp.doc(security=[{"apiToken": []}])
    def get(self):
        """List the pending invitations to my address (answer them with my token)."""
        email = guard.principal().account.email
        return [invitations.invitation_json(i) for i in invitations.pending_for(email)]


class UnsubscribeQuerySchema(Schema):
    """The signed token of an unsubscribe link."""

    t = fields.String(required=True, metadata={"description": "signed; from the mail"})


class UnsubscribedSchema(Schema):
    """What was stopped."""

    scope = fields.String(metadata={"description": "game | all"})
    game_id = fields.String(allow_none=True)


@blp.route("/unsubscribe")
class Unsubscribe(MethodView):
    """``/v1/unsubscribe``: RFC 8058 one-click unsubscribe."""

    @blp.arguments(UnsubscribeQuerySchema, location="query")
    @blp.doc(
        responses={
            "200": {
                "description": "a page with an unsubscribe button",
                "content": {"text/html": {"schema": {"type": "string"}}},
            }
        }
    )
    def get(self, args):
        """Show a page with the unsubscribe button (opening it stops nothing)."""
        email, game_id = consent.read_token(args["t"])
        game = db.session.get(Game, game_id) if game_id else None
        # the game by its engine alone: the reader may be an invited address that has
        # not agreed, and the players' names are typed by the inviter (issue 22)
        named = f"your game of {engine_title(game.engine)}" if game else "that game"
        what = f"mail about {named}" if game_id else "every mail from Arbiter"
        again = (
            f"mail about {named}"
            if game_id
            else "mail from Arbiter (sign-in links, invitations, game mail)"
        )
        return pages.button_page(
            "Unsubscribe",
            f"Stop {what} to {email}? "
            + ("" if game_id else "You will get no mail from us at all, not even sign-in links. ")
            + f"Changed your mind later? This page can also turn {again} back on.",
            [
                ("Unsubscribe", request.full_path, {}),
                ("Mail me again", f"/v1/resubscribe?t={args['t']}", {}),
            ],
        )

    @blp.arguments(UnsubscribeQuerySchema, location="query")
    @blp.response(200, UnsubscribedSchema)
    @blp.alt_response(400, schema=ProblemSchema, description="bad-unsubscribe-link")
    def post(self, args):
        """One click (``List-Unsubscribe=One-Click``, form-encoded, as RFC 8058 mail
        clients send it, or JSON): stop mail for that game, or for everything."""
        done = consent.unsubscribe(args["t"])
        return {"scope": done["scope"], "game_id": done["game_id"]}


@blp.route("/resubscribe")
class Resubscribe(MethodView):
    """``/v1/resubscribe``: undo an unsubscribe ("Mail me again")."""

    @blp.arguments(UnsubscribeQuerySchema, location="query")
    @blp.response(200, UnsubscribedSchema)
    @blp.alt_response(400, schema=ProblemSchema, description="bad-unsubscribe-link")
    def post(self, args):
        """Turn mail back on, with the signed token of an unsubscribe link: for that
        game, or for everything (sign-in links and invitations included)."""
        done = consent.resubscribe(args["t"])
        return {"scope": done["scope"], "game_id": done["game_id"]}


FORM_ENDPOINTS.add("invitations.Unsubscribe")
