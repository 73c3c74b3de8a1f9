"""Starting and joining games from the browser (issue 23, item 1): the new-game page,
the lobby of public tables, taking a seat, and a finished game's rematch. Thin views
over the same calls as REST: :func:`arbiter.games.creation.create_game`,
:func:`arbiter.games.lobby.take_seat`, :func:`arbiter.games.rematch.rematch`. Plain
forms (CSRF by Flask-WTF), answered with a redirect (303) and a message.
"""

from __future__ import annotations

import uuid

from flask import flash, redirect, render_template, request, url_for

import engines
from arbiter import idempotency, limits, problems
from arbiter.errors import ArbiterError
from arbiter.games import creation, lobby, moves, rematch
from arbiter.uow import UnitOfWork
from arbiter.web import account, new_game
from arbiter.web.forms import LeaveForm
from arbiter.web.routes import bp, refused_form
from engines.base import EngineError


def _signed_in_or_away(why: str):
    """Return ``(account, None)``, or ``(None, a redirect to the sign-in page)``
    with a message saying ``why`` when the browser is not signed in."""
    who = account.signed_in()
    if who is None:
        flash(f"Sign in first: {why}", "error")
        return None, redirect(url_for("web.sign_in"), 303)
    return who, None


def _signed_form(why: str, game_id: str | None = None):
    """Return ``(account, None)`` for a posted form of a signed-in browser whose CSRF
    token holds, else ``(None, the answer)``: the sign-in page, or the refused form's."""
    who, away = _signed_in_or_away(why)
    if away:
        return None, away
    form = LeaveForm()
    if not form.validate_on_submit():
        return None, refused_form(game_id, form)
    return who, None


@bp.get("/games/new")
def new_game_page():
    """The new-game page: first the game to play, then its options, players, clock."""
    who, away = _signed_in_or_away("only a signed-in player creates games.")
    if away:
        return away
    engine_id = request.args.get("engine") or None
    if engine_id is None or engine_id not in engines.ENGINE_MODULES:
        return render_template("new_game_pick.html", engines=engines.all_engines())
    return _form_page(engines.get(engine_id), who, {}, None)


def _form_page(
    engine, who, values: dict, error: str | None, status: int = 200, errors: dict | None = None
):
    """Render the new-game form for ``engine`` with the ``values`` sent (if any)."""
    page = render_template(
        "new_game.html",
        engine=engine,
        me=who,
        options=new_game.option_fields(engine),
        clocks=new_game.CLOCKS,
        kinds=new_game.SEAT_KINDS,
        bot_levels=new_game.BOT_LEVELS,
        rows=range(1, engine.max_players),
        values=values,
        error=error,
        errors=errors or {},
        form=LeaveForm(),
        key=uuid.uuid4().hex,
    )
    return page, status


@bp.post("/games/new")
def create_game():
    """Create the game the form describes; go to its page."""
    who, away = _signed_form("only a signed-in player creates games.")
    if away:
        return away
    engine_id = request.form.get("engine", "")
    if engine_id not in engines.ENGINE_MODULES:
        return redirect(url_for("web.new_game_page"), 303)
    engine = engines.get(engine_id)
    principal = account.principal()
    values = request.form.to_dict()
    try:
        command = creation.CreateGame(
            engine.id,
            new_game.read_players(engine, request.form, who.display_name or "Me", who.email),
            new_game.read_options(engine, request.form),
            new_game.read_clock(request.form),
            who,
            creator_key=limits.caller_key(principal),
        )
        _, shown = idempotency.answer(
            f"games:{idempotency.caller(principal)}",
            (request.form.get("key") or "")[:200] or None,
            {k: v for k, v in values.items() if k != "csrf_token"},
            201,
            lambda created: created.shown,
            lambda keeper: creation.create_game(UnitOfWork(keeper=keeper), command),
            route="POST /games/new",
        )
    except (ArbiterError, EngineError) as err:
        message, status = problems.page(err)
        return _form_page(engine, who, values, message, status, err.extra.get("fields"))
    flash(_created_message(shown), "ok")
    return redirect(url_for("web.game", game_id=shown["id"]), 303)


def _created_message(shown: dict) -> str:
    """The message after a creation: started, or for whom the game waits."""
    if shown["status"] == "active":
        return "Your game has started."
    free = sum(1 for p in shown["players"] if p.get("open"))
    parts = []
    if free:
        parts.append(f"{free} open seat{'s' if free != 1 else ''} in the lobby")
    if any(not p.get("open") for p in shown["players"][1:]):
        parts.append("your friends' answers to their invitations")
    return f"Your game is created; it starts once it has {' and '.join(parts)}."


@bp.get("/lobby")
def lobby_page():
    """The public tables: the game, its free seats, its clock, who is waiting."""
    tables = lobby.open_tables()
    who = account.signed_in()
    return render_template(
        "lobby.html",
        tables=[
            {
                "game": t,
                "free": lobby.free_count(t),
                "waiting": lobby.waiting_names(t),
                "clock": lobby.clock_words(t.clock),
                "mine": who is not None and any(s.account_id == who.id for s in t.seats),
            }
            for t in tables
        ],
        signed_in=who is not None,
        form=LeaveForm(),
    )


@bp.post("/lobby/<game_id>/seat")
def take_seat(game_id: str):
    """Take a seat at a public table as the signed-in account."""
    who, away = _signed_form("sign in to take a seat at a table.", game_id)
    if away:
        return away
    try:
        taken = lobby.take_seat(UnitOfWork(), lobby.TakeSeat(game_id, who))
    except ArbiterError as err:
        flash(problems.page(err)[0], "error")
        return redirect(url_for("web.lobby_page"), 303)
    if taken.status == "active":
        flash(f"You took a seat as {taken.name}: the table is full and the game starts.", "ok")
    else:
        flash(f"You took a seat as {taken.name}; the game starts when the table is full.", "ok")
    return redirect(url_for("web.game", game_id=game_id), 303)


@bp.post("/games/<game_id>/rematch")
def rematch_game(game_id: str):
    """Start the rematch of a finished game (the same players, a new seed)."""
    who, away = _signed_form("sign in to ask for a rematch.", game_id)
    if away:
        return away
    try:
        created = rematch.rematch(game_id, who, creator_key=limits.caller_key(account.principal()))
    except ArbiterError as err:
        flash(problems.page(err)[0], "error")
        return redirect(url_for("web.game", game_id=game_id), 303)
    flash(_created_message(created.shown).replace("Your game", "The rematch"), "ok")
    return redirect(url_for("web.game", game_id=created.id), 303)


@bp.app_template_filter("waiting_words")
def waiting_words(game) -> str:
    """Return what a game that has not started waits for, as a sentence (for whom:
    its invited players, the open seats of its table, its start time); a cancelled
    game's sentence."""
    if game.status == "cancelled":
        return f"Cancelled: {moves.cancelled_because(game)}."
    clause = moves.waiting_for(game)
    return f"Not started: {clause}."
