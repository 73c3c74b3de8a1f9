"""The game page's part in agreed undo and abort (issue 24, item 3): ask, accept,
refuse; plain forms that work without JavaScript.

Asking and accepting are irreversible once everyone has agreed, so each goes through
a confirmation page (a GET that shows what will happen and a form that does it);
refusing needs none. Every form carries its CSRF token and a key (the answer is kept
for it, as a move's). The answers come from :mod:`arbiter.games.agreements`, the same
calls as REST and mail. The panel is ``_agreements.html``, included by the game page.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass

from flask import flash, render_template, request
from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.validators import InputRequired, Length

from arbiter import idempotency
from arbiter.accounts import identity
from arbiter.errors import ArbiterError, NotFound
from arbiter.games import agreement_mail, agreements, games
from arbiter.uow import UnitOfWork
from arbiter.web import seats
from arbiter.web.routes import back, bp, no_seat, refused_form
from engines.base import EngineError

KIND = "<any(undo, abort):kind>"


class AgreementForm(FlaskForm):
    """Asking or answering: the CSRF token and a key (as a move form's)."""

    key = HiddenField(validators=[InputRequired(), Length(min=16, max=200)])


@dataclass
class Panel:
    """What ``_agreements.html`` shows a seat: the requests waiting, in words, and
    whether it may ask."""

    pending: list[dict]
    form: AgreementForm
    key: str
    ask_undo: bool
    ask_abort: bool


def panel(page) -> Panel | None:
    """Return the panel of a game page (:class:`arbiter.web.game_page.GamePage`) for
    its seat; None for a spectator or a game that is not on."""
    game = page.game
    if page.seat is None or game.status != "active" or game.seats[page.seat].resigned:
        return None
    pending = []
    for kind in agreements.KINDS:
        waiting = agreements.pending(game, kind)
        if waiting is not None:
            words = agreement_mail.undo_words(game, waiting.move_seq, waiting.text)
            text = sentence(waiting, page.names, page.seat, words)
            pending.append({"request": waiting, "text": text})
    kinds = {p["request"].kind for p in pending}
    return Panel(
        pending=pending,
        form=AgreementForm(),
        key=uuid.uuid4().hex,
        ask_undo="undo" not in kinds,
        ask_abort="abort" not in kinds,
    )


def sentence(
    asked: agreements.Agreement, names: dict[int, str], seat: int, words: str | None = None
) -> str:
    """Return what a waiting request asks, in words, for ``seat`` (``words``: the move
    an undo takes back, in words: :func:`arbiter.games.agreement_mail.undo_words`)."""
    who = "You" if asked.seat == seat else names.get(asked.seat, "A player")
    waiting = ", ".join(names.get(s, "?") for s in asked.waiting_for)
    if asked.kind == "undo":
        move = f" ({words})" if words else ""
        what = f"{who} asked to take back {'your' if who == 'You' else 'their'} last move{move}."
    else:
        what = f"{who} proposed to abort the game: it would end with no scores, unrated."
    return f"{what} Waiting for: {waiting}."


@bp.app_context_processor
def agreement_panel() -> dict:
    """Template context: ``agreement_panel(page)`` for the game page's partial."""
    return {"agreement_panel": panel}


@bp.route(f"/games/<game_id>/{KIND}/ask", methods=["GET", "POST"])
def ask(game_id: str, kind: str):
    """Confirm (GET), then ask (POST) to take back the last move or to abort."""
    return _act(game_id, kind, None, True)


@bp.route(f"/games/<game_id>/{KIND}/<int:number>/accept", methods=["GET", "POST"])
def accept(game_id: str, kind: str, number: int):
    """Confirm (GET), then accept (POST) another player's request."""
    return _act(game_id, kind, number, True)


@bp.post(f"/games/<game_id>/{KIND}/<int:number>/refuse")
def refuse(game_id: str, kind: str, number: int):
    """Refuse another player's request."""
    return _act(game_id, kind, number, False)


def _act(game_id: str, kind: str, number: int | None, accept: bool):
    """Show the confirmation page (GET) or run the request or answer (POST)."""
    current = games.get_game(game_id)
    grant = seats.grant_for(current)
    if grant is None:
        return no_seat(game_id)
    form = AgreementForm()
    if request.method == "GET":
        return _confirm(current, kind, number, form)
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    principal = identity.as_principal(grant)
    if number is None:
        command = agreements.Ask(game_id, grant, kind)
        act, route = (lambda uow: agreements.ask(uow, command)), f"POST {kind}-requests"
    else:
        command = agreements.Reply(game_id, grant, kind, accept, number)
        verb = "accept" if accept else "refuse"
        act, route = (lambda uow: agreements.reply(uow, command)), f"POST {kind}/{number}/{verb}"
    try:
        _, body = idempotency.answer(
            idempotency.caller_scope(game_id, principal),
            form.key.data,
            None,
            201,
            asdict,
            lambda keeper: act(UnitOfWork(keeper=keeper)),
            route=route,
        )
    except (ArbiterError, EngineError) as err:
        flash(f"Nothing was changed: {err.detail}", "error")
    else:
        flash(_done(body), "ok")
    return back(game_id)


def _confirm(game, kind: str, number: int | None, form: AgreementForm):
    """Return the confirmation page of asking (``number`` None) or accepting."""
    names = {s.seat: s.name for s in game.seats}
    if number is None:
        asked = None
    else:
        asked = agreements.standing(game, kind, number)
        if asked.status != "pending":
            raise NotFound(asked.why or "This request is closed.", code="request-closed")
    return render_template(
        "agreement_confirm.html",
        game=game,
        kind=kind,
        asked=asked,
        asker=names.get(asked.seat) if asked else None,
        words=agreement_mail.undo_words(game, asked.move_seq, asked.text) if asked else None,
        form=form,
        key=uuid.uuid4().hex,
    )


def _done(body: dict) -> str:
    """Return the page's message once a request or answer is recorded."""
    status, kind = body["status"], body["kind"]
    if status == "refused":
        return "You refused: the request is closed and the game goes on."
    if status == "agreed":
        return (
            "Everyone agreed: the move is taken back."
            if kind == "undo"
            else "Everyone agreed: the game is aborted, with no scores, and it is not rated."
        )
    if body.get("accepted"):
        return "Your agreement is recorded; the others have still to answer."
    return "Your request is recorded: the other players are asked (by mail too)."
