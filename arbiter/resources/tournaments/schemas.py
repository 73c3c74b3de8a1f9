"""Schemas of the tournaments resource."""

from marshmallow import Schema, fields, validate

import engines
from arbiter.games.clock import MAX_SECONDS
from arbiter.resources.fields import JsonBoolean, JsonNumber, WholeNumber, engine_filter
from arbiter.resources.text import printable


class ScoringSchema(Schema):
    """Points per game: by place at a full table, and for a bye."""

    place_points = fields.List(
        JsonNumber(validate=validate.Range(min=-1000, max=1000)),
        validate=validate.Length(min=1, max=16),
        metadata={
            "description": "points for 1st, 2nd, ...: one per "
            "place, never rising (422 bad-scoring); "
            "tied places share the average"
        },
    )
    bye_points = JsonNumber(validate=validate.Range(min=-1000, max=1000), allow_none=True)


class BotEntrySchema(Schema):
    """A built-in bot entered at creation: its name and its bot."""

    name = fields.String(required=True, validate=[validate.Length(min=1, max=80), printable])
    bot = fields.Raw(
        required=True,
        metadata={
            "description": "{kind: random | mcts, level: 1-5} (422 bad-bot)",
            "type": "object",
        },
    )


class TournamentCreateSchema(Schema):
    """``POST /v1/tournaments``."""

    name = fields.String(
        load_default="Tournament", validate=[validate.Length(min=1, max=120), printable]
    )
    engine = fields.String(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={
            "enum": list(engines.ENGINE_MODULES),
            "description": "an engine id (422 unknown-engine)",
        },
    )
    table_size = WholeNumber(
        required=True,
        validate=validate.Range(min=2, max=16),
        metadata={
            "description": "players per game, within what the engine plays (422 bad-player-count)"
        },
    )
    format = fields.String(required=True, validate=validate.OneOf(["round_robin", "swiss"]))
    rounds = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=100),
        metadata={
            "description": "Swiss only: the number of rounds (422 "
            "rounds-needed / rounds-not-allowed)"
        },
    )
    scoring = fields.Nested(
        ScoringSchema,
        load_default=None,
        allow_none=True,
        metadata={"description": "default: the pairing package's default_scoring(table_size)"},
    )
    rated = JsonBoolean(load_default=False)
    options = fields.Dict(load_default=dict, metadata={"description": "the games' engine options"})
    clock = fields.Dict(
        load_default=dict,
        metadata={
            "description": "the games' time control, as POST /v1/games takes it (its "
            "timeout_policy is what a game's own clock does; a round's deadline follows "
            "deadline_policy)"
        },
    )
    deadline_policy = fields.String(
        load_default="forfeit",
        validate=validate.OneOf(["forfeit", "timeout-move"]),
        metadata={
            "description": "what a round's deadline does to a game still being played: "
            "forfeit (the default: the seats that owe a move lose by forfeit, a win for "
            "the seat that played) or timeout-move (the engine's timeout moves play it "
            "out); only the seats that owed a move count a timeout"
        },
    )
    round_seconds = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_SECONDS),
        metadata={"description": "a round's deadline, seconds after its start (null: none)"},
    )
    reliability_threshold = JsonNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=1000),
        metadata={
            "description": (
                "highest (timeouts + resignations) per game "
                "an entrant may have (403 too-unreliable); "
                "null: anyone"
            )
        },
    )
    late_entries = JsonBoolean(
        load_default=True,
        metadata={
            "description": "Swiss: entries after the start are paired from the next round; "
            "a round robin takes none (stored as false, whatever is given)"
        },
    )
    fill_with_bot = fields.Raw(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "a built-in bot {kind: random | mcts, level: 1-5} entered at the "
            "start as often as needed to fill whole tables (an odd number of entrants in "
            "a Swiss of two: a bot instead of a bye); null: none (422 bad-bot)",
            "type": "object",
        },
    )
    bots = fields.List(
        fields.Nested(BotEntrySchema),
        load_default=list,
        validate=validate.Length(max=16),
        metadata={"description": "built-in bots entered by the organiser (no account)"},
    )


class EntrySchema(Schema):
    """An entry: the id pairing uses, the name shown, its rounds."""

    id = fields.String()
    name = fields.String()
    account = fields.String(allow_none=True, metadata={"description": "null for a bot"})
    bot = fields.Dict(metadata={"description": "a bot entry's bot: {kind, level}"})
    joined_round = fields.Integer(metadata={"description": "first round it may be paired in"})
    withdrawn_round = fields.Integer(
        allow_none=True, metadata={"description": "first round it is no longer paired in"}
    )
    byes_requested = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "{round: H | Z}: the byes it asked for"},
    )
    entered_at = fields.String()


class TournamentSchema(Schema):
    """A tournament."""

    id = fields.String()
    name = fields.String()
    engine = fields.String()
    table_size = fields.Integer()
    format = fields.String()
    rounds = fields.Integer(allow_none=True)
    scoring = fields.Dict()
    rated = fields.Boolean()
    options = fields.Dict()
    clock = fields.Dict()
    round_seconds = fields.Integer(allow_none=True)
    deadline_policy = fields.String(
        metadata={"description": "forfeit | timeout-move: what a round's deadline does"}
    )
    reliability_threshold = fields.Float(allow_none=True)
    late_entries = fields.Boolean(
        metadata={
            "description": "whether entries are taken after the start (always false for a "
            "round robin: entering it after the start is 409 entries-closed)"
        }
    )
    fill_with_bot = fields.Dict(
        allow_none=True,
        metadata={"description": "the bot that fills whole tables at the start, or null"},
    )
    organiser = fields.String(metadata={"description": "the organiser's account id"})
    status = fields.String(metadata={"description": "open | running | over"})
    paused = fields.Boolean()
    round = fields.Integer(metadata={"description": "the current round (0 before the start)"})
    deadline = fields.String(allow_none=True, metadata={"description": "the current round's, UTC"})
    version = fields.Integer(metadata={"description": "seq of its log's last event"})
    created_at = fields.String()
    entries = fields.List(fields.Nested(EntrySchema))
    games = fields.List(
        fields.String(), metadata={"description": "organiser actions: the games they changed"}
    )


class TournamentQuerySchema(Schema):
    """Filters of ``GET /v1/tournaments``."""

    status = fields.String(validate=validate.OneOf(["open", "running", "over"]))
    engine = engine_filter(validate=validate.Length(max=40))


class ForfeitsSchema(Schema):
    """Games decided by forfeit (not played over the board)."""

    won = fields.Integer()
    lost = fields.Integer()


class StandingSchema(Schema):
    """One row of the standings."""

    no = fields.Integer(
        metadata={"description": "line number: the crosstable names opponents by it"}
    )
    rank = fields.Integer(
        allow_none=True,
        metadata={
            "description": "shared by entrants equal on points and every tie-break; null: "
            "a round robin entrant withdrawn before half their games, results cancelled"
        },
    )
    entry = fields.String()
    name = fields.String()
    points = fields.Float()
    games = fields.Integer(metadata={"description": "games played over the board"})
    wins = fields.Integer(metadata={"description": "games won (forfeit wins included)"})
    byes = fields.Integer(metadata={"description": "byes of every kind"})
    bye_kinds = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "U pairing-allocated (or a round robin's rest round), H half-point, "
            "F full-point, Z zero-point"
        },
    )
    forfeits = fields.Nested(ForfeitsSchema)
    buchholz = fields.Float(
        allow_none=True,
        metadata={"description": "sum of the opponents' points (null in a round robin)"},
    )
    sonneborn_berger = fields.Float(allow_none=True)
    head_to_head = fields.Float(
        allow_none=True, metadata={"description": "points against those tied on points"}
    )
    withdrawn = fields.Boolean()
    crosstable = fields.List(
        fields.String(),
        metadata={
            "description": "one per round: opponent's line number, w (moved first) or b, "
            "result (1 = 0, + - forfeits), e.g. 5w1; a place and table size (2/4) at "
            "larger tables; U H F Z byes; x cancelled; empty: not taking part"
        },
    )


class StandingsSchema(Schema):
    """The standings after a round (finished rounds only)."""

    tournament = fields.String()
    round = fields.Integer(metadata={"description": "the current round"})
    after_round = fields.Integer(metadata={"description": "the round these standings follow"})
    status = fields.String()
    tiebreaks = fields.List(fields.String(), metadata={"description": "in the order they rank"})
    standings = fields.List(fields.Nested(StandingSchema))


class StandingsQuerySchema(Schema):
    """``?format=csv`` asks for CSV (as ``Accept: text/csv`` does); ``?after_round=N``
    the standings after round N (409 round-not-over beyond the last round over)."""

    format = fields.String(validate=validate.OneOf(["json", "csv"]))
    after_round = fields.Integer(validate=validate.Range(min=0, max=2**31 - 1))


class SeatInRoundSchema(Schema):
    """A player at a table."""

    entry = fields.String()
    name = fields.String()
    seat = fields.Integer()


class TableSchema(Schema):
    """A table of a round: its game and players."""

    table = fields.Integer()
    game = fields.String()
    status = fields.String()
    players = fields.List(fields.Nested(SeatInRoundSchema))
    places = fields.List(
        fields.Integer(),
        allow_none=True,
        metadata={"description": "per seat, 1 = first, once over"},
    )
    forfeited = fields.List(
        fields.String(),
        metadata={
            "description": "entries that lost by forfeit: a round deadline came before "
            "they made a move (the game counts as not played)"
        },
    )


class ByeSchema(Schema):
    """An entry sitting the round out."""

    entry = fields.String()
    name = fields.String()


class RequestedByeSchema(Schema):
    """A bye set before the round was paired."""

    entry = fields.String()
    name = fields.String()
    bye = fields.String(
        metadata={"description": "H half-point, F full-point, Z zero-point (as the TRF codes)"}
    )


class RoundSchema(Schema):
    """A paired round."""

    number = fields.Integer()
    started_at = fields.String()
    deadline = fields.String(allow_none=True)
    ended_at = fields.String(allow_none=True)
    byes = fields.List(
        fields.Nested(ByeSchema), metadata={"description": "the pairing-allocated byes"}
    )
    requested_byes = fields.List(
        fields.Nested(RequestedByeSchema),
        metadata={"description": "the byes set before the round was paired"},
    )
    tables = fields.List(fields.Nested(TableSchema))


class ByeRequestSchema(Schema):
    """``POST .../entries/{entry}/byes``: a bye asked for a round not paired yet."""

    round = WholeNumber(required=True, validate=validate.Range(min=1, max=100))
    bye = fields.String(
        required=True,
        validate=validate.OneOf(["half", "zero", "none"]),
        metadata={
            "description": "half: a half-point bye (a draw's points); zero: sit the "
            "round out for nothing; none: take a request back"
        },
    )


class RoundExtendSchema(Schema):
    """``POST .../extend``: seconds to add to the current round's deadline."""

    seconds = WholeNumber(required=True, validate=validate.Range(min=1, max=MAX_SECONDS))


class TournamentEventSchema(Schema):
    """An entry of the tournament's log."""

    seq = fields.Integer()
    kind = fields.String()
    payload = fields.Dict()
    at = fields.String()


class TournamentEventsSchema(Schema):
    """The tournament's log."""

    events = fields.List(fields.Nested(TournamentEventSchema))
    version = fields.Integer()


class TournamentRecordSchema(Schema):
    """The full record: summary, entries, log, every game's record, standings."""

    tournament = fields.Nested(TournamentSchema)
    entries = fields.List(fields.Nested(EntrySchema))
    events = fields.List(fields.Nested(TournamentEventSchema))
    games = fields.List(
        fields.Dict(), metadata={"description": "each as GET /v1/games/{id}/record"}
    )
    standings = fields.List(fields.Nested(StandingSchema))
