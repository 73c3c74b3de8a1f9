"""Schemas of the lobby: a public table, a taken seat."""

from marshmallow import Schema, fields


class LobbyTableSchema(Schema):
    """A table of the lobby: a waiting game with seats open to anyone."""

    id = fields.String(metadata={"description": "the game's id"})
    engine = fields.String()
    seats = fields.Integer(metadata={"description": "how many players the game has"})
    seats_free = fields.Integer(metadata={"description": "seats still open"})
    waiting = fields.List(fields.String(), metadata={"description": "the players seated"})
    clock = fields.String(metadata={"description": "the time control in words"})
    rated = fields.Boolean()
    created_at = fields.String()


class SeatTakenSchema(Schema):
    """A seat taken at a table."""

    game_id = fields.String()
    seat = fields.Integer()
    name = fields.String(metadata={"description": "the name you play under"})
    status = fields.String(metadata={"description": "waiting, or active: the table is full"})
