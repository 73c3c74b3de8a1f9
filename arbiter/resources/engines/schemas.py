"""Schemas of the engines resource."""

from marshmallow import Schema, fields


class EngineSchema(Schema):
    """An engine: id, title, player counts, option schema, notation."""

    id = fields.String()
    title = fields.String()
    version = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    options = fields.Dict(metadata={"description": "option name -> its field description"})
    notation = fields.String()
    reference = fields.Dict(
        metadata={
            "description": "component data players may read, where the engine has some "
            "(Worms: 'cards', every card with its Action Line and text)"
        }
    )
