"""Schemas of ``/v1/me`` and ``/v1/auth``: the account, its tokens, sign-in."""

from marshmallow import Schema, fields, validate

from arbiter.accounts.identity import SCOPES
from arbiter.games.clock import check_tz
from arbiter.player_rules import mail_address
from arbiter.resources.fields import JsonBoolean, WholeNumber
from arbiter.resources.games.schemas import GAME_STATUSES
from arbiter.resources.ratings.schemas import RatingSchema, ReliabilitySchema
from arbiter.resources.text import printable

NAME = [validate.Length(min=1, max=80), printable]


class MeSchema(Schema):
    """The caller's account."""

    id = fields.String()
    email = fields.String(metadata={"description": "the verified address"})
    display_name = fields.String()
    tz = fields.String(metadata={"description": "IANA time zone for times in mails"})
    digest = fields.Boolean(
        metadata={
            "description": "one daily digest of the games where "
            "it is my turn instead of a mail each"
        }
    )
    notify = fields.String(
        metadata={
            "description": "how my turns are told in all my games: turn (a mail each "
            "turn), digest (one daily digest) or none"
        }
    )
    digest_hour = fields.Integer(
        allow_none=True,
        metadata={
            "description": "the hour (0-23, in my time zone) the digest goes; null: "
            "as soon as a game is due"
        },
    )
    created_at = fields.String()
    bot = fields.Nested(
        "BotOfSchema",
        allow_none=True,
        metadata={"description": "a bot account: its owner and whether it is public; else null"},
    )
    ratings = fields.List(
        fields.Nested(RatingSchema), metadata={"description": "per engine (GET only)"}
    )
    reliability = fields.Nested(
        ReliabilitySchema, metadata={"description": "timeouts and resignations (GET only)"}
    )


class BotOfSchema(Schema):
    """What makes an account a bot account."""

    owner = fields.String(metadata={"description": "the id of the person who made it"})
    public = fields.Boolean(metadata={"description": "anybody may seat it"})


class MePatchSchema(Schema):
    """``PATCH /v1/me``: any of display name, time zone, digest, notify, digest hour."""

    display_name = fields.String(validate=NAME)
    tz = fields.String(validate=[validate.Length(max=64), check_tz])
    digest = JsonBoolean()
    notify = fields.String(validate=validate.OneOf(["turn", "digest", "none"]))
    digest_hour = WholeNumber(allow_none=True, validate=validate.Range(min=0, max=23))


class NotifySchema(Schema):
    """``PUT /v1/me/games/{game_id}/notify``: how my turns in one game are told."""

    notify = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["turn", "digest", "none"]),
        metadata={"description": "turn, digest or none; null: as in all my games"},
    )


class NotifyAnswerSchema(Schema):
    """How my turns in one game are told."""

    game_id = fields.String()
    notify = fields.String(allow_none=True, metadata={"description": "this game's own choice"})
    effective = fields.String(metadata={"description": "what applies: turn, digest or none"})


class TokenCreateSchema(Schema):
    """``POST /v1/me/tokens``."""

    name = fields.String(
        required=True, validate=NAME, metadata={"description": "what it is for, e.g. 'my bot'"}
    )
    scopes = fields.List(
        fields.String(validate=validate.OneOf(SCOPES)),
        required=True,
        validate=validate.Length(min=1, max=len(SCOPES)),
        metadata={"description": "of " + ", ".join(SCOPES)},
    )
    expires_in = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=60, max=10 * 365 * 86400),
        metadata={"description": "seconds; default: never"},
    )


class TokenSchema(Schema):
    """A personal API token as listed (never the token itself)."""

    id = fields.String()
    name = fields.String()
    scopes = fields.List(fields.String())
    created_at = fields.String()
    last_used_at = fields.String(allow_none=True)
    expires_at = fields.String(allow_none=True)


class TokenCreatedSchema(TokenSchema):
    """A personal API token just made: ``token`` is shown this once."""

    token = fields.String(metadata={"description": "the bearer token (arb_...), shown once"})


class LinkRequestSchema(Schema):
    """``POST /v1/auth/links``: mail me a sign-in (or sign-up) link."""

    email = fields.Email(required=True, validate=[validate.Length(max=254), mail_address])
    display_name = fields.String(
        load_default=None,
        allow_none=True,
        validate=NAME,
        metadata={"description": "for a new account"},
    )


class LinkSentSchema(Schema):
    """The answer to a link request (the same whether or not the account exists)."""

    detail = fields.String()


class SessionCreateSchema(Schema):
    """``POST /v1/auth/sessions``: use a mailed link's ``email`` and ``token``."""

    email = fields.Email(required=True, validate=[validate.Length(max=254), mail_address])
    token = fields.String(required=True, validate=validate.Length(min=1, max=200))


class SessionSchema(Schema):
    """A completed sign-in: the account and a personal token with every scope."""

    account = fields.Nested(MeSchema)
    token = fields.Nested(TokenCreatedSchema)


class MyGamesQuerySchema(Schema):
    """``GET /v1/me/games`` filters."""

    to_act = fields.Boolean(
        load_default=False, metadata={"description": "only games waiting for my move"}
    )
    status = fields.String(
        load_default=None,
        validate=validate.OneOf(GAME_STATUSES),
        metadata={"description": "only games of this status, as GET /v1/games filters them"},
    )


class MyGameSchema(Schema):
    """One of my games: its summary and my seat(s) in it."""

    id = fields.String()
    engine = fields.String()
    status = fields.String()
    version = fields.Integer()
    seats = fields.List(fields.Integer(), metadata={"description": "my seats"})
    to_act = fields.List(fields.Integer(), metadata={"description": "my seats owing a move"})
    deadline = fields.String(allow_none=True)
    updated_at = fields.String()


class MyGamesSchema(Schema):
    """``GET /v1/me/games``."""

    games = fields.List(fields.Nested(MyGameSchema))
