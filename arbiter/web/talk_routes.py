"""The game page's talk: post a message or a note, hide, report, mute (forms that
work without JavaScript; after a POST the browser goes back to the game page, 303,
where a line says what happened), and the wait the panel's live update long-polls.
Each form makes the same command as REST (:mod:`arbiter.talk`)."""

from __future__ import annotations

from dataclasses import asdict

from flask import flash, jsonify, request

from arbiter import idempotency
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.games import games
from arbiter.talk import messages, mutes, notes
from arbiter.uow import UnitOfWork
from arbiter.web import talk_panel
from arbiter.web.routes import back, bp, refused_form
from arbiter.web.talk_forms import ActionForm, MessageForm, NoteForm

TALK = "#talk-h"
"""Where the page opens after a talk form: its panel."""


@bp.app_context_processor
def talk_context() -> dict:
    """Template context: ``talk_panel_of(game)`` builds the talk panel of a game page,
    with its forms (``templates/talk_panel.html``)."""

    def talk_panel_of(game):
        return {
            "panel": talk_panel.build(game),
            "message_form": MessageForm(),
            "note_form": NoteForm(),
            "action_form": ActionForm(),
        }

    return {"talk_panel_of": talk_panel_of}


def answer(game_id: str, who, key: str, fields: dict, route: str, act) -> bool:
    """Run ``act`` once per form key; flash the refusal and return False when the
    service refuses."""
    try:
        idempotency.answer(
            idempotency.caller_scope(game_id, who),
            key,
            fields,
            201,
            asdict,
            lambda keeper: act(UnitOfWork(keeper=keeper)),
            route=route,
        )
    except ArbiterError as err:
        db.session.rollback()
        flash(f"Not sent: {err.detail}", "error")
        return False
    return True


@bp.post("/games/<game_id>/messages")
def post_message(game_id: str):
    """Post a message from the panel's form."""
    game = games.get_game(game_id)
    form = MessageForm()
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    who, signed_in = talk_panel.caller(game)
    channel = form.channel.data or "table"
    to = form.to.data if channel == "private" else None
    command = messages.PostMessage(
        game_id, who, channel, form.text.data or "", to, via="web", account=signed_in
    )
    fields = {"channel": channel, "text": form.text.data, "to": to}
    if answer(
        game_id,
        who,
        form.key.data,
        fields,
        "POST messages",
        lambda uow: messages.post_message(uow, command),
    ):
        flash("Message sent.", "ok")
    return back_to_talk(game_id)


@bp.post("/games/<game_id>/notes")
def post_note(game_id: str):
    """Keep a note from the panel's form."""
    game = games.get_game(game_id)
    form = NoteForm()
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    who, signed_in = talk_panel.caller(game)
    command = notes.AddNote(game_id, who, form.text.data or "", via="web", account=signed_in)
    if answer(
        game_id,
        who,
        form.key.data,
        {"text": form.text.data},
        "POST notes",
        lambda uow: notes.add_note(uow, command),
    ):
        flash("Note kept (only you read it).", "ok")
    return back_to_talk(game_id)


@bp.post("/games/<game_id>/messages/<int:n>/<any(hide, report, mute, unmute):action>")
def message_action(game_id: str, n: int, action: str):
    """Hide, report, mute or unmute message ``n`` from its button."""
    game = games.get_game(game_id)
    form = ActionForm()
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    who, signed_in = talk_panel.caller(game)
    try:
        if action == "hide":
            messages.hide_message(UnitOfWork(), messages.HideMessage(game_id, who, n, signed_in))
            said = "The message is hidden: readers see that it was."
        elif action == "report":
            command = messages.ReportMessage(game_id, who, n, form.reason.data or "", signed_in)
            messages.report_message(UnitOfWork(), command)
            said = "Reported to the operators. Thank you."
        else:
            on = action == "mute"
            done = mutes.mute(UnitOfWork(), mutes.Mute(game_id, who, n, on, signed_in))
            said = f"{done.name} is {'muted: you no longer read them' if on else 'unmuted'}."
    except ArbiterError as err:
        db.session.rollback()
        flash(f"Not done: {err.detail}", "error")
    else:
        flash(said, "ok")
    return back_to_talk(game_id)


@bp.get("/games/<game_id>/talk")
def talk_wait(game_id: str):
    """The panel's live update: answer ``{"messages": [n, ...], "last": n}``, the
    messages after ``after`` that this browser may read (none: nothing changed for
    it). With ``wait`` (up to 25 s) it waits for one: the web process's front
    (:mod:`arbiter.streams.asgi`) does the waiting without a thread, as for
    ``/v1/games/{id}/messages``."""
    game = games.get_game(game_id)
    who, signed_in = talk_panel.caller(game)
    after, wait = request.args.get("after", "0"), request.args.get("wait", "0")
    if not after.isdigit() or len(after) > 10 or not wait.isdigit() or int(wait) > 25:
        raise ArbiterError(
            "after is the number of a message, such as 7; wait a whole number of seconds up to 25.",
            code="bad-talk-wait",
        )
    found = messages.read_messages(game_id, who, int(after), float(wait), signed_in)
    return jsonify({"messages": [m.n for m in found.messages], "last": found.last})


def back_to_talk(game_id: str):
    """Send the browser back to the game page's talk panel (303)."""
    response = back(game_id)
    response.location += TALK
    return response
