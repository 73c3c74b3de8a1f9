"""Schemas of ``/v1/ratings`` and of the ratings shown on ``/v1/me``."""

from marshmallow import Schema, fields, validate


class ReliabilitySchema(Schema):
    """A player's reliability over all its games."""

    timeouts = fields.Integer(
        metadata={
            "description": "games in which its own clock ran out, or it owed a move "
            "when a tournament round's deadline came"
        }
    )
    resignations = fields.Integer(
        metadata={"description": "games it resigned (not clock forfeits)"}
    )
    games = fields.Integer(metadata={"description": "seats it held"})
    score = fields.Float(
        metadata={"description": "1 - (timeouts + resignations) / games; 1.0 without games"}
    )


class RatingSchema(Schema):
    """A rating at one engine (openskill Plackett-Luce)."""

    engine = fields.String()
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float(metadata={"description": "mu - 3 sigma: the leaderboard's order"})
    games = fields.Integer(metadata={"description": "rated games counted"})
    updated_at = fields.String()


class LeaderRowSchema(RatingSchema):
    """A row of the leaderboard."""

    rank = fields.Integer()
    account = fields.String()
    display_name = fields.String()
    reliability = fields.Nested(ReliabilitySchema)


class BotRatingSchema(RatingSchema):
    """A built-in bot's rating at one engine: one player per kind and level."""

    bot = fields.Dict(metadata={"description": "{kind, level}"})


class LeaderboardSchema(Schema):
    """``GET /v1/ratings/{engine}``."""

    engine = fields.String()
    ratings = fields.List(fields.Nested(LeaderRowSchema))
    bots = fields.List(
        fields.Nested(BotRatingSchema),
        metadata={"description": "the built-in bots rated at this engine, best first"},
    )


class LeaderboardQuerySchema(Schema):
    """``GET /v1/ratings/{engine}?limit=``."""

    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
