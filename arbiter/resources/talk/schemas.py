"""Schemas of the talk resources: messages, notes, the creator's talk options."""

from marshmallow import Schema, fields, validate

from arbiter.resources.fields import JsonBoolean, WholeNumber
from arbiter.talk.kinds import CHANNELS


class TalkOptionsSchema(Schema):
    """The creator's talk options (``talk`` of ``POST /v1/games``)."""

    spectators_read_table = JsonBoolean(
        load_default=False,
        metadata={"description": "spectators may read the players' table channel"},
    )
    press = JsonBoolean(
        load_default=False,
        metadata={"description": "seats may send private messages to one another"},
    )


class MessagePostSchema(Schema):
    """``POST .../messages``: ``text`` on a ``channel`` (``to``: a private message's seat)."""

    channel = fields.String(
        load_default="table",
        metadata={"description": " | ".join(CHANNELS) + " (default table; else 422 bad-channel)"},
    )
    text = fields.String(
        required=True,
        validate=validate.Length(min=1, max=100_000),
        metadata={
            "description": "at most TALK_MESSAGE_CHARS characters, this server's setting "
            "(default 1000; longer: 422 message-too-long); maxLength is only the hard cap "
            "above any server's setting"
        },
    )
    to = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={
            "description": "private only: the seat it goes to (422 no-such-seat); on the "
            "table or spectators' channel: 422 to-only-private"
        },
    )


class MessageSchema(Schema):
    """A message as the caller may read it."""

    n = fields.Integer(metadata={"description": "its number in the game's talk log"})
    channel = fields.String()
    seat = fields.Integer(allow_none=True, metadata={"description": "the author's seat"})
    to = fields.Integer(allow_none=True, metadata={"description": "a private message's seat"})
    name = fields.String(metadata={"description": "the author as shown"})
    text = fields.String(allow_none=True, metadata={"description": "null when hidden"})
    hidden = fields.Boolean(metadata={"description": "hidden by the creator or an organiser"})
    at = fields.String()


class MessagesQuerySchema(Schema):
    """``GET .../messages?after=N&wait=S``."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**31 - 1))
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=30))


class MessagesSchema(Schema):
    """The messages after ``after`` the caller may read; ``last``: the next ``after``."""

    messages = fields.List(fields.Nested(MessageSchema))
    last = fields.Integer()


class ReportSchema(Schema):
    """``POST .../messages/{n}/report``: why (optional)."""

    reason = fields.String(load_default="", validate=validate.Length(max=100_000))


class RecordedSchema(Schema):
    """A talk entry written (a hide, a report)."""

    n = fields.Integer()
    kind = fields.String()
    message = fields.Integer()


class MutedSchema(Schema):
    """Whether the author of message ``n`` is muted for the caller's account."""

    n = fields.Integer()
    name = fields.String()
    muted = fields.Boolean()


class NotePostSchema(Schema):
    """``POST .../notes``."""

    text = fields.String(
        required=True,
        validate=validate.Length(min=1, max=100_000),
        metadata={"description": "at most TALK_NOTE_CHARS characters"},
    )


class NoteSchema(Schema):
    """A note, as its author reads it."""

    n = fields.Integer()
    seat = fields.Integer()
    text = fields.String()
    at = fields.String()


class NotesSchema(Schema):
    """The caller's seat's notes."""

    notes = fields.List(fields.Nested(NoteSchema))
