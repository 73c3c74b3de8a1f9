"""Schemas of ``POST /v1/bulk-games``."""

from marshmallow import Schema, fields, validate

from arbiter.resources.games.schemas import GameCreatedSchema, GameCreateSchema


class BulkCreateSchema(Schema):
    """``POST /v1/bulk-games``: the games to create, each as ``POST /v1/games`` takes
    it. At most ``BULK_GAMES_MAX`` (default 500) games."""

    games = fields.List(
        fields.Nested(GameCreateSchema),
        required=True,
        validate=validate.Length(min=1),
        metadata={
            "description": "each as POST /v1/games takes it; at most BULK_GAMES_MAX (default 500)"
        },
    )
    start_at = fields.AwareDateTime(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "when the batch's games start (UTC, ISO 8601), for each game that "
            "names no start_at of its own: they wait until then, clocks "
            "stopped; a game with invited seats starts once they have all "
            "accepted, at start_at at the latest (422 bad-start if past, or further "
            "ahead than the server's MAX_START_AHEAD, default 365 days)"
        },
    )
    unfilled = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(["cancel", "start"]),
        metadata={
            "description": "for every game: seats nobody took (declined, or unanswered at "
            "start_at) cancel the game or start it without them; default: "
            "each game's own (cancel)"
        },
    )


class BulkCreatedSchema(Schema):
    """The answer: every game's creation answer (tokens shown this once), in order."""

    games = fields.List(fields.Nested(GameCreatedSchema))
