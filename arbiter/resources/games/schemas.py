"""Schemas of the games resource: create, summary, query args, moves, events, record."""

from marshmallow import Schema, fields, validate

import engines
from arbiter.player_rules import PlayerSchema
from arbiter.resources.fields import JsonBoolean, WholeNumber, engine_filter
from arbiter.resources.talk.schemas import TalkOptionsSchema


class GameCreateSchema(Schema):
    """``POST /v1/games``."""

    engine = fields.String(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={
            "enum": list(engines.ENGINE_MODULES),
            "description": "an engine id (422 unknown-engine)",
        },
    )
    players = fields.List(
        fields.Nested(PlayerSchema),
        required=True,
        validate=validate.Length(min=1, max=16),
        metadata={
            "description": "as many as the engine seats (422 "
            "bad-player-count), each with a name "
            "of their own, compared without case "
            "(422 duplicate-player-name)"
        },
    )
    options = fields.Dict(
        load_default=dict,
        metadata={
            "description": "the engine's options (GET /v1/engines/{id}; 422 bad-options, "
            "or contradictory-options naming them in 'options')"
        },
    )
    start_at = fields.AwareDateTime(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "start at this time (UTC, ISO 8601): the game waits until then, "
            "clocks stopped; with invited players, once they have all "
            "accepted, at this time at the latest, unanswered seats then "
            "unfilled (422 bad-start if past, or further ahead than the server's "
            "MAX_START_AHEAD, default 365 days)"
        },
    )
    unfilled = fields.String(
        load_default="cancel",
        validate=validate.OneOf(["cancel", "start"]),
        metadata={
            "description": "seats nobody took (declined, or unanswered at start_at): cancel "
            "the game (default), or start without them"
        },
    )
    clock = fields.Dict(
        load_default=dict,
        metadata={
            "description": (
                "time control: {type: per-move, seconds} | {type: bank, initial, increment} | "
                "{type: none} (default), with reminders (seconds before, default [86400, 3600]), "
                "timeout_policy (timeout-move | forfeit, with forfeit_after | autopilot, with "
                "autopilot {kind, level} and autopilot_until return | end), vacation_days; "
                "invalid: 422 bad-clock (a bad autopilot: 422 bad-bot)"
            )
        },
    )
    rated = JsonBoolean(
        load_default=False,
        metadata={
            "description": (
                "the game updates its players' ratings when it ends; every seat must be the "
                "email of a verified account, a bot account or a built-in bot, no two seats "
                "of one person (a bot account is its owner's), at least one a person's own "
                "account (422 unrated-seat)"
            )
        },
    )
    talk = fields.Nested(TalkOptionsSchema, load_default=None, allow_none=True)


class SeatPublicSchema(Schema):
    """A seat as everybody sees it."""

    seat = fields.Integer()
    name = fields.String()
    resigned = fields.Boolean()
    open = fields.Boolean(metadata={"description": "a seat nobody has taken yet (the lobby)"})
    bot_account = fields.Boolean(metadata={"description": "held by a bot account"})
    bot = fields.Dict(metadata={"description": "a bot seat's bot: {kind, level}"})
    autopilot = fields.Dict(
        metadata={
            "description": "the autopilot holds (active) or held this seat: {bot, until, active}"
        }
    )


class GameSchema(Schema):
    """The public summary of a game."""

    id = fields.String()
    engine = fields.String()
    engine_version = fields.String()
    status = fields.String(
        metadata={"description": "waiting (for invited players) | active | over | cancelled"}
    )
    start_at = fields.String(
        allow_none=True, metadata={"description": "when a waiting game starts at the latest (UTC)"}
    )
    unfilled = fields.String(metadata={"description": "cancel | start: seats nobody took"})
    version = fields.Integer(metadata={"description": "seq of the last event; the ETag"})
    to_act = fields.List(fields.Integer(), metadata={"description": "seats that owe a move"})
    prompt = fields.Dict(metadata={"description": "decision (seats, kind) or chance (spec)"})
    deadline = fields.String(
        allow_none=True, metadata={"description": "earliest running deadline, UTC"}
    )
    clock = fields.Dict(
        metadata={
            "description": "time control, paused, and per seat: deadline, bank, misses, vacation"
        }
    )
    seed_commitment = fields.String(metadata={"description": "hex SHA-256 of the secret seed"})
    result = fields.Dict(allow_none=True)
    options = fields.Dict()
    rated = fields.Boolean(metadata={"description": "whether it updates ratings"})
    talk = fields.Dict(metadata={"description": "the talk options: spectators_read_table, press"})
    players = fields.List(fields.Nested(SeatPublicSchema))
    created_at = fields.String()
    updated_at = fields.String()


class SeatTokenSchema(Schema):
    """A seat with its bearer token (shown once, at creation)."""

    seat = fields.Integer()
    name = fields.String()
    token = fields.String(allow_none=True, metadata={"description": "null for a bot seat"})
    link = fields.String(
        allow_none=True,
        metadata={
            "description": "the seat's web page: a signed link that "
            "opens it in a browser without the token (null for a bot seat)"
        },
    )
    bot = fields.Dict(metadata={"description": "a bot seat's bot: {kind, level}"})


class GameCreatedSchema(GameSchema):
    """The answer to a creation: the summary plus every seat's token."""

    seats = fields.List(fields.Nested(SeatTokenSchema))
    creator_token = fields.String(
        metadata={"description": "pause, resume and extend deadlines with it; shown once"}
    )


GAME_STATUSES = ["waiting", "active", "over", "cancelled"]
"""A game's ``status``: waiting (for its invitations or its start_at), active, over,
cancelled (its unfilled seats were never taken)."""


class GameQuerySchema(Schema):
    """Filters of ``GET /v1/games``."""

    status = fields.String(validate=validate.OneOf(GAME_STATUSES))
    engine = engine_filter()
    player = fields.String(metadata={"description": "a player's name"})


class MoveSchema(Schema):
    """``POST /v1/games/{id}/moves``: a move as listed by ``/legal-moves``, or its text
    in the engine's notation: exactly one of the two."""

    class Meta:
        """``move`` or ``text``, not both (422 ``move-and-text``), not neither (422
        ``missing-move``)."""

        openapi = {"oneOf": [{"required": ["move"]}, {"required": ["text"]}]}

    move = fields.Raw(
        metadata={"description": "a move as /legal-moves lists it", "not": {"type": "null"}}
    )
    text = fields.String(
        validate=validate.Length(min=1, max=500),
        metadata={"description": "the move in the engine's notation"},
    )
    # JSON Schema's integer includes 6.0 (issue 16: refusing it broke the contract), so
    # WholeNumber takes 6.0 as 6 and refuses "6", true and 6.5
    expected_version = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={
            "description": "the version (ETag) the move was made against, a JSON "
            'integer (6 or 6.0; not "6", true or 6.5)'
        },
    )


class ResignedSchema(Schema):
    """A recorded resignation: its seq and the game's version after it."""

    seq = fields.Integer()
    version = fields.Integer()
    status = fields.String()


class MoveAcceptedSchema(ResignedSchema):
    """A recorded move: its seq, the game's version after it (and its settling), the
    move in notation, and the seats the game now waits for (empty while dice are
    rolled or once it is over), so a client need not read the summary again."""

    text = fields.String()
    to_act = fields.List(fields.Integer())


class ViewSchema(Schema):
    """What the caller's seat (or a spectator) may see."""

    seat = fields.Integer(allow_none=True)
    version = fields.Integer()
    status = fields.String()
    to_act = fields.List(fields.Integer())
    view = fields.Dict()


class LegalMovesSchema(Schema):
    """Every legal move of the caller's seat now."""

    seat = fields.Integer()
    version = fields.Integer()
    moves = fields.List(
        fields.Raw(),
        metadata={
            "description": "legal moves, each can be sent back unchanged; with 'parts', the "
            "short moves and one example of each part"
        },
    )
    notation = fields.List(fields.String())
    parts = fields.List(
        fields.Dict(),
        metadata={
            "description": "only for a large decision: [{'move': template, 'fill': {key: "
            "[values]}}]; every combination of one value per fill key merged "
            "into the template is a legal move"
        },
    )
    count = fields.Integer(
        metadata={"description": "with 'parts': how many legal moves the moves and parts describe"}
    )


class EventsQuerySchema(Schema):
    """``?after=N&wait=S``: events after seq N; wait up to S seconds for new ones."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**31 - 1))
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=30))


class EventSchema(Schema):
    """One event of the log, as the reader may see it."""

    seq = fields.Integer()
    kind = fields.String()
    seat = fields.Integer(allow_none=True)
    payload = fields.Dict()
    at = fields.String()


class EventsSchema(Schema):
    """A page of the log."""

    events = fields.List(fields.Nested(EventSchema))
    version = fields.Integer()


class RecordSchema(Schema):
    """The full record of a finished game, seed revealed."""

    id = fields.String()
    engine = fields.String()
    engine_version = fields.String()
    options = fields.Dict()
    players = fields.List(fields.Dict())
    seed = fields.String()
    seed_commitment = fields.String()
    events = fields.List(fields.Nested(EventSchema))
    result = fields.Dict(allow_none=True)
