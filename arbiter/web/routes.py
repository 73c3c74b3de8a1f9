"""The web pages: a public list of games, a game page for a seat or a spectator, and
the forms that move, resign and open a seat. Thin views: every answer comes from the
service layer (``submit_move``, ``resign``, ``reading``), the same calls as REST and
mail. Forms carry a CSRF token (Flask-WTF); after a POST the browser is sent back to
the game page (303), where a message says what happened.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from flask import Blueprint, flash, redirect, render_template, request, url_for

import engines
from arbiter import idempotency, problems
from arbiter.accounts import identity, links
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.games import access, games, moves, naming, presence, seat_return
from arbiter.games.store import StaleVersion
from arbiter.models import game_record
from arbiter.uow import UnitOfWork
from arbiter.web import confirm, game_page, seats
from arbiter.web.forms import BackForm, LeaveForm, MoveForm, ResignForm, TokenForm
from engines.base import EngineError

bp = Blueprint(
    "web",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static/web",
)

PAGE_SIZE = 25
MAX_PAGE = 2**31 - 1
"""The last page number the games list takes (as ``/v1/games?page=``); a larger one
is a 400 page saying so, never a database integer overflow."""
LIVE_UPDATE = "X-Arbiter-Live-Update"
"""The header of the page's own refetch when the game moved (app.js): the answer
leaves out the messages, which belong to the page the browser shows."""


@bp.get("/")
def home():
    """Send a visitor to the list of games."""
    return redirect(url_for("web.game_list"))


@bp.get("/games")
def game_list():
    """The public list of games, newest first; ``?status=`` and ``?engine=`` filter it."""
    status = request.args.get("status") or None
    engine = request.args.get("engine") or None
    if status not in (None, "active", "over"):
        raise ArbiterError(
            f"There is no game status {status!r} to show: choose active "
            "or over, or leave it out for every game.",
            code="bad-filter",
        )
    if engine and engine not in engines.ENGINE_MODULES:
        raise ArbiterError(
            f"There is no game {engine!r} to show: choose one of "
            f"{', '.join(sorted(engines.ENGINE_MODULES))}, or leave it out "
            "for every game.",
            code="bad-filter",
        )
    page = page_number(request.args.get("page"))
    query = games.list_games(status=status, engine=engine)
    rows = db.session.scalars(query.offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE + 1)).all()
    titles = {e.id: e.title for e in engines.all_engines()}
    return render_template(
        "games.html",
        games=rows[:PAGE_SIZE],
        more=len(rows) > PAGE_SIZE,
        page=page,
        status=status,
        engine=engine,
        titles=titles,
        mine=seats.held(),
    )


def page_number(raw: str | None) -> int:
    """Return the page a list's ``?page=`` asks for: 1 when it is absent or empty,
    else a whole number from 1 to :data:`MAX_PAGE` (issue 22, item 14).

    :raises ArbiterError: 400 ``bad-page`` for anything else (``-1``, ``0``, ``abc``,
        ``2.5``, a number past ``MAX_PAGE``), with a sentence saying why.
    """
    if raw is None or raw == "":
        return 1
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or not text.strip("0"):
        raise ArbiterError(
            f"There is no page {raw[:40]!r} of this list: a page is a whole number "
            "from 1 (the newest), or leave it out for the first page.",
            code="bad-page",
        )
    digits = text.lstrip("0")
    if len(digits) > len(str(MAX_PAGE)) or int(digits) > MAX_PAGE:
        raise ArbiterError(
            f"There is no page {digits[:40]} of this list: pages go up to {MAX_PAGE}.",
            code="bad-page",
        )
    return int(digits)


@bp.get("/games/<game_id>")
def game(game_id: str):
    """A game's page, for the seat this browser holds in it, else for a spectator."""
    current = game_record.read(game_id)  # the page's reads share it (one SELECT)
    pick = (request.args.get("pick") or "")[:40] or None
    page = game_page.build(current, seats.grant_for(current), pick)
    return render_template(
        "game.html",
        page=page,
        move_form=MoveForm(),
        resign_form=ResignForm(),
        back_form=BackForm(),
        token_form=TokenForm(),
        leave_form=LeaveForm(),
        live_update=request.headers.get(LIVE_UPDATE) == "1",
        presence=presence.page_token(game_id, page.seat) if page.seat is not None else "",
    )


@bp.get("/games/<game_id>/open")
def open_seat(game_id: str):
    """Open a seat from the signed link of a turn mail: hold it in the session cookie
    and go to the game page (the link's key leaves the address bar)."""
    current = games.get_game(game_id)
    number, made = links.read_seat_link(request.args.get("key", ""), game_id)
    seat = next((s for s in current.seats if s.seat == number), None)
    if seat is None:
        raise links.LinkRefused("This link is for a seat this game does not have.")
    if seats.deleted_holder(seat):
        raise links.LinkRefused(
            "The account that held this seat has been deleted: its links open nothing.",
            code="seat-account-deleted",
        )
    seats.remember_link(game_id, seat, made.timestamp())
    return redirect(url_for("web.game", game_id=game_id), 303)


@bp.post("/games/<game_id>/token")
def token_seat(game_id: str):
    """Open a seat with its seat token (games made over REST without mail)."""
    current = games.get_game(game_id)
    form = TokenForm()
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    try:
        who = identity.principal_of_token(form.token.data.strip())
        seat = access.seat_for(current, who)
    except ArbiterError as err:
        db.session.rollback()
        flash(err.detail, "error")
    else:
        db.session.commit()  # a personal token's last-used time
        seats.remember_token(game_id, seat, who)
        flash(f"You are playing seat {seat.seat} ({seat.name}) in this browser.", "ok")
    return back(game_id)


@bp.post("/games/<game_id>/leave")
def leave_seat(game_id: str):
    """Stop holding a seat in this browser (it becomes a spectator's page)."""
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    seats.forget(game_id)
    return back(game_id)


MOVED_ON = (
    "The game moved on since this page was drawn: your move was not recorded. "
    "Here is the game as it is now."
)
"""The page's sentence for a form drawn at an older version of the game."""


@bp.post("/games/<game_id>/move")
def move(game_id: str):
    """Make a move: a button's move, the move picked from the list, or text in the
    game's notation, against the version the page showed."""
    current = games.get_game(game_id)
    form = MoveForm()
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    grant = seats.grant_for(current)
    if grant is None:
        return no_seat(game_id)
    chosen, text = read_choice(form)
    if chosen is None and text is None:
        flash("Pick a move, or write one.", "error")
        return back(game_id)
    fields = {"move": chosen, "text": text, "expected_version": form.expected_version.data}
    command = moves.SubmitMove(
        game_id, grant, moves.Notation(text) if text else chosen, form.expected_version.data
    )
    try:
        _, answer = idempotency.answer(
            idempotency.caller_scope(game_id, identity.as_principal(grant)),
            form.key.data,
            fields,
            201,
            asdict,
            lambda keeper: moves.submit_move(UnitOfWork(keeper=keeper), command),
            route="POST moves",
        )
    except StaleVersion:
        flash(MOVED_ON, "error")
    except (ArbiterError, EngineError) as err:
        # the form's key was made when the page was drawn: used already for another
        # move, this form is an old page's, and the game moved on since
        reused = getattr(err, "code", None) == "idempotency-key-reused"
        # an engine writes seat numbers: the page names the players ("Bob was chosen")
        detail = naming.named(err.detail, naming.names_of(current), grant.seat)
        flash(MOVED_ON if reused else f"Move not recorded: {detail}", "error")
    else:
        flash(f"Move recorded: {game_page.said(current, chosen) or answer['text']}.", "ok")
    return back(game_id)


@bp.post("/games/<game_id>/resign")
def resign(game_id: str):
    """Resign the seat this browser holds."""
    current = games.get_game(game_id)
    form = ResignForm()
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    grant = seats.grant_for(current)
    if grant is None:
        return no_seat(game_id)
    if not confirm.confirmed():  # a second page first: resigning cannot be undone
        return confirm_resign(current, grant, form.key.data)
    try:
        idempotency.answer(
            idempotency.caller_scope(game_id, identity.as_principal(grant)),
            form.key.data,
            None,
            201,
            asdict,
            lambda keeper: moves.resign(UnitOfWork(keeper=keeper), moves.Resign(game_id, grant)),
            route="POST resign",
        )
    except (ArbiterError, EngineError) as err:
        flash(f"Not resigned: {err.detail}", "error")
    else:
        flash("You resigned: your later turns are played for you and you rank last.", "ok")
    return back(game_id)


BACK_REFUSED = {
    "no-autopilot": "No bot is playing for you now: your seat is already yours. Play on.",
    "stale-version": "The bot moved just now: your seat was not taken back. Here is the "
    "game as it is now; press I'm back again to play yourself.",
}
"""The page's sentences for an "I'm back" refused by these codes (others: the
service's own detail)."""


@bp.post("/games/<game_id>/back")
def take_seat_back(game_id: str):
    """ "I'm back": take the seat this browser holds back from the autopilot, by the
    same service call as ``POST /v1/games/{id}/back`` (:func:`seat_return.back`);
    back to the game page (303), whose message says what happened."""
    current = games.get_game(game_id)
    form = BackForm()
    if not form.validate_on_submit():
        return refused_form(game_id, form)
    grant = seats.grant_for(current)
    if grant is None:
        return no_seat(game_id)
    try:
        idempotency.answer(
            idempotency.caller_scope(game_id, identity.as_principal(grant)),
            form.key.data,
            None,
            201,
            asdict,
            lambda keeper: seat_return.back(
                UnitOfWork(keeper=keeper), seat_return.Back(game_id, grant)
            ),
            route="POST back",
        )
    except ArbiterError as err:
        db.session.rollback()
        flash(BACK_REFUSED.get(err.code, f"Your seat was not taken back: {err.detail}"), "error")
    else:
        flash("Welcome back: the bot no longer plays for you; your next move is yours.", "ok")
    return back(game_id)


def confirm_resign(current, grant, key: str) -> str:
    """Return the page that asks a player to confirm their resignation."""
    name = current.seats[grant.seat].name
    return confirm.ask(
        "Resign?",
        f"You are about to resign from this game as {name}: the arbiter plays your "
        "later turns for you and you rank last.",
        "Yes, resign",
        url_for("web.game", game_id=current.id),
        {"key": key},
    )


def read_choice(form: MoveForm) -> tuple[object, str | None]:
    """Return ``(move, text)`` from a move form: a pressed button's JSON first, then
    written text, then the move picked from the list (``(None, None)``: nothing)."""
    text = (form.text.data or "").strip()
    raw = form.move.data or (None if text else form.choice.data)
    if raw:
        try:
            return json.loads(raw), None
        except ValueError:
            return None, None
    return None, text or None


def no_seat(game_id: str):
    """Send a browser that holds no seat of the game back to its page, saying why."""
    flash("Open your seat first (the link in your turn mail, or your seat token).", "error")
    return back(game_id)


def back(game_id: str):
    """Send the browser back to the game page (303: reload it with GET)."""
    return redirect(url_for("web.game", game_id=game_id), 303)


def refused_form(game_id: str | None, form) -> tuple[str, int]:
    """Answer a form that fails validation: a missing or stale CSRF token (400), or
    fields that are missing or wrong (422); nothing is recorded."""
    if "csrf_token" in form.errors:
        message = (
            "This form was not sent from the game page, or it is too old: nothing "
            "was recorded. Open the game page again and retry."
        )
        status = 400
    else:
        fields = "; ".join(f"{name}: {' '.join(errs)}" for name, errs in form.errors.items())
        message = f"The form was incomplete ({fields}): nothing was recorded."
        status = 422
    return render_template("error.html", message=message, game_id=game_id), status


@bp.app_template_filter("engine_title")
def engine_title(engine_id: str) -> str:
    """Return an engine's title (its id if unknown)."""
    try:
        return engines.get(engine_id).title
    except engines.UnknownEngine:
        return engine_id


@bp.errorhandler(ArbiterError)
def arbiter_error(err: ArbiterError):
    """Answer a service error in a page (no such game, a refused link) as HTML."""
    message, status = problems.page(err)
    return render_template(
        "error.html",
        message=message,
        game_id=request.view_args.get("game_id") if request.view_args else None,
    ), status
