"""Schemas of ``/v1/me/bots``: my bot accounts."""

from marshmallow import Schema, fields

from arbiter.resources.fields import JsonBoolean
from arbiter.resources.me.schemas import NAME, TokenCreatedSchema


class BotCreateSchema(Schema):
    """``POST /v1/me/bots``."""

    name = fields.String(
        required=True, validate=NAME, metadata={"description": "its display name, e.g. 'Robo'"}
    )
    public = JsonBoolean(
        load_default=False,
        metadata={"description": "anybody may seat it in a game (default: only you)"},
    )


class BotSchema(Schema):
    """A bot account as its owner sees it."""

    id = fields.String(
        metadata={"description": 'seat it with {"name": ..., "account": "<this id>"}'}
    )
    display_name = fields.String()
    public = fields.Boolean()
    created_at = fields.String()


class BotMadeSchema(BotSchema):
    """A bot account with a token just made (shown this once)."""

    token = fields.Nested(
        TokenCreatedSchema,
        metadata={"description": "its play-scoped token (games:play), shown this once"},
    )
