"""``/v1/games/{id}/messages`` and ``/v1/games/{id}/notes``: the table talk over REST.

Thin views: each makes a command of :mod:`arbiter.talk` and shows its answer; a POST
is answered once per ``Idempotency-Key``. Who may read and post what is the talk
context's (docs/guides/messages.md).
"""

from __future__ import annotations

from dataclasses import asdict

from flask.views import MethodView

from arbiter import idempotency
from arbiter.problem import ProblemSchema
from arbiter.resources import guard, headers
from arbiter.resources.blueprint import Blueprint
from arbiter.resources.talk import schemas as s
from arbiter.talk import messages, mutes, notes
from arbiter.uow import UnitOfWork

blp = Blueprint(
    "talk",
    __name__,
    url_prefix="/v1/games",
    description="The table talk: messages on three channels, and private notes.",
)

ANY_READER = headers.security("seatToken", "apiToken", "creatorToken", optional=True)
CALLER = headers.security("seatToken", "apiToken", "creatorToken")
SEAT = headers.security("seatToken", "apiToken")


def once(game_id: str, route: str, body, status: int, act):
    """Run ``act`` (given a unit of work) once per Idempotency-Key of the caller on
    this game; return ``(answer, status)``."""
    code, answer = idempotency.answer(
        idempotency.caller_scope(game_id, guard.principal()),
        headers.idempotency_key(),
        body,
        status,
        asdict,
        lambda keeper: act(UnitOfWork(keeper=keeper)),
        route=route,
    )
    return answer, code


@blp.route("/<game_id>/messages")
class Messages(MethodView):
    """``/v1/games/{id}/messages``: read and post messages."""

    @guard.needs("anyone")
    @blp.arguments(s.MessagesQuerySchema, location="query")
    @blp.response(200, s.MessagesSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="a token of no seat here")
    @blp.alt_response(404, schema=ProblemSchema, description="no such game")
    @blp.doc(**ANY_READER)
    def get(self, args, game_id):
        """Read the messages after ``n`` = ``after`` that you may read; ``wait`` long-polls.

        Seats read the table and their private messages, spectators the spectators'
        channel (and the table where the creator allowed it); after the end everyone
        reads the spectators' channel. A message hidden since ``after`` comes again,
        hidden."""
        return asdict(
            messages.read_messages(game_id, guard.principal(), args["after"], args["wait"])
        )

    @guard.needs("anyone")
    @blp.arguments(s.MessagePostSchema)
    @blp.response(201, s.MessageSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="no token (sign-in-to-talk)")
    @blp.alt_response(
        403,
        schema=ProblemSchema,
        description="not-a-player, spectators-only, press-not-allowed",
    )
    @blp.alt_response(
        422,
        schema=ProblemSchema,
        description="bad-channel, to-only-private (to on the table or spectators' channel), "
        "no-such-seat, private-to-self, empty-message, "
        "message-too-long, bad-characters",
    )
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CALLER)
    def post(self, data, game_id):
        """Post a message on the ``table``, ``private`` (``to`` a seat) or ``spectators``
        channel. It never changes the game's version."""
        command = messages.PostMessage(
            game_id, guard.principal(), data["channel"], data["text"], data["to"]
        )
        return once(
            game_id,
            "POST messages",
            data,
            201,
            lambda uow: messages.post_message(uow, command),
        )


@blp.route("/<game_id>/messages/<int:n>/hide")
class Hide(MethodView):
    """``/v1/games/{id}/messages/{n}/hide``."""

    @guard.needs("anyone")
    @blp.response(201, s.RecordedSchema)
    @blp.alt_response(403, schema=ProblemSchema, description="not-moderator")
    @blp.alt_response(404, schema=ProblemSchema, description="no-such-message")
    @blp.alt_response(409, schema=ProblemSchema, description="already-hidden")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CALLER)
    def post(self, game_id, n):
        """Hide message ``n`` (the creator token, or the organiser of the game's
        tournament): it stays in the log, and readers see that it was hidden."""
        command = messages.HideMessage(game_id, guard.principal(), n)
        return once(
            game_id, "POST hide", {"n": n}, 201, lambda uow: messages.hide_message(uow, command)
        )


@blp.route("/<game_id>/messages/<int:n>/report")
class Report(MethodView):
    """``/v1/games/{id}/messages/{n}/report``."""

    @guard.needs("anyone")
    @blp.arguments(s.ReportSchema)
    @blp.response(201, s.RecordedSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="no token (sign-in-to-talk)")
    @blp.alt_response(404, schema=ProblemSchema, description="no-such-message you may read")
    @blp.doc(parameters=[headers.IDEMPOTENCY], **CALLER)
    def post(self, data, game_id, n):
        """Report message ``n`` to the operators (``reason``: why, optional)."""
        command = messages.ReportMessage(game_id, guard.principal(), n, data["reason"])
        return once(
            game_id,
            "POST report",
            {"n": n, **data},
            201,
            lambda uow: messages.report_message(uow, command),
        )


@blp.route("/<game_id>/messages/<int:n>/mute")
class MuteAuthor(MethodView):
    """``/v1/games/{id}/messages/{n}/mute``: the author of a message, for your account."""

    @guard.needs("account")
    @blp.response(200, s.MutedSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not an account's token")
    @blp.alt_response(404, schema=ProblemSchema, description="no-such-message you may read")
    @blp.alt_response(422, schema=ProblemSchema, description="mute-self")
    @blp.doc(security=[{"apiToken": []}])
    def put(self, game_id, n):
        """Mute the author of message ``n``: your account no longer reads them, in any game."""
        return asdict(mutes.mute(UnitOfWork(), mutes.Mute(game_id, guard.principal(), n)))

    @guard.needs("account")
    @blp.response(200, s.MutedSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not an account's token")
    @blp.alt_response(404, schema=ProblemSchema, description="no-such-message")
    @blp.doc(security=[{"apiToken": []}])
    def delete(self, game_id, n):
        """Unmute the author of message ``n``."""
        command = mutes.Mute(game_id, guard.principal(), n, on=False)
        return asdict(mutes.mute(UnitOfWork(), command))


@blp.route("/<game_id>/notes")
class Notes(MethodView):
    """``/v1/games/{id}/notes``: your seat's private notes."""

    @guard.needs("seat", "games:read")
    @blp.response(200, s.NotesSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="missing or wrong seat token")
    @blp.doc(**SEAT)
    def get(self, game_id):
        """Read your seat's notes (nobody else reads them, even after the end)."""
        return {"notes": [asdict(x) for x in notes.read_notes(game_id, guard.principal())]}

    @guard.needs("seat", "games:play")
    @blp.arguments(s.NotePostSchema)
    @blp.response(201, s.NoteSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="missing or wrong seat token")
    @blp.alt_response(
        422, schema=ProblemSchema, description="empty-message, message-too-long, bad-characters"
    )
    @blp.doc(parameters=[headers.IDEMPOTENCY], **SEAT)
    def post(self, data, game_id):
        """Keep a note for your seat."""
        command = notes.AddNote(game_id, guard.principal(), data["text"])
        return once(game_id, "POST notes", data, 201, lambda uow: notes.add_note(uow, command))
