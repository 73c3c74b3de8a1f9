"""Schemas of ``POST /v1/bulk-games``."""

from marshmallow import Schema, fields, validate

from arbiter.resources.games.schemas import GameCreateSchema, GameCreatedSchema


class BulkCreateSchema(Schema):
    """``POST /v1/bulk-games``: the games to create, each as ``POST /v1/games`` takes
    it. At most ``BULK_GAMES_MAX`` (default 500) games."""

    games = fields.List(fields.Nested(GameCreateSchema), required=True,
                        validate=validate.Length(min=1),
                        metadata={"description": "each as POST /v1/games takes it; at most "
                                                 "BULK_GAMES_MAX (default 500)"})


class BulkCreatedSchema(Schema):
    """The answer: every game's creation answer (tokens shown this once), in order."""

    games = fields.List(fields.Nested(GameCreatedSchema))
