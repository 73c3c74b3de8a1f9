"""Schemas of the campaigns resource."""

from marshmallow import Schema, fields, validate

import engines
from arbiter.resources.games.schemas import PlayerSchema
from arbiter.resources.text import printable


class CampaignCreateSchema(Schema):
    """``POST /v1/campaigns``: an engine with campaigns, a name, the players."""

    engine = fields.String(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={
            "enum": [e.id for e in engines.all_engines() if e.campaign_options([]) is not None],
            "description": "an engine with campaigns (422 no-campaigns, unknown-engine)",
        },
    )
    name = fields.String(
        load_default="Campaign", validate=[validate.Length(min=1, max=120), printable]
    )
    players = fields.List(
        fields.Nested(PlayerSchema),
        required=True,
        validate=validate.Length(min=1, max=16),
        metadata={
            "description": "as many as the engine seats (422 "
            "bad-player-count), each with a name "
            "of their own (422 "
            "duplicate-player-name)"
        },
    )
    options = fields.Dict(load_default=dict)


class CampaignGameSchema(Schema):
    """One game of a campaign."""

    number = fields.Integer()
    id = fields.String()
    status = fields.String()
    result = fields.Dict(allow_none=True)


class CampaignSchema(Schema):
    """A campaign: its players, what carries into its next game, its games."""

    id = fields.String()
    engine = fields.String()
    name = fields.String()
    players = fields.List(fields.String())
    options = fields.Dict()
    carried = fields.Dict(
        metadata={"description": "options the next game inherits, e.g. unlocked_bonuses"}
    )
    games = fields.List(fields.Nested(CampaignGameSchema))


class CampaignCreatedSchema(CampaignSchema):
    """A new campaign with its organiser token (shown once)."""

    token = fields.String()


class NextGameSchema(Schema):
    """``POST /v1/campaigns/{id}/games``: options for this game (merged over the
    campaign's, under what carries over) and its clock."""

    options = fields.Dict(load_default=dict)
    clock = fields.Dict(load_default=dict)
