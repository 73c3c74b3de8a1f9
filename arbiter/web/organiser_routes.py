"""Organising a tournament from the pages (issue 23, item 1): create it, start it,
and run it (withdraw an entry, hand a withdrawn entry's games to the timeout policy,
extend the round's deadline); the standings are the tournament page's. Thin views
over :mod:`arbiter.tournaments.tournaments`, the same calls as ``/v1/tournaments``.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

import engines
from arbiter import problems
from arbiter.errors import ArbiterError, Unprocessable
from arbiter.tournaments import tournaments
from arbiter.uow import UnitOfWork
from arbiter.web import account, confirm
from arbiter.web.forms import LeaveForm
from arbiter.web.new_game import CLOCKS
from arbiter.web.routes import bp, refused_form

ROUND_DEADLINES = {
    "": "No round deadline",
    "86400": "1 day",
    "259200": "3 days",
    "604800": "7 days",
}
"""The round deadlines the page offers (seconds after a round starts)."""

EXTENSIONS = {"3600": "1 hour", "86400": "1 day", "259200": "3 days"}
"""How much later the organiser may move the current round's deadline at a time."""


def _organiser():
    """Return the signed-in caller, or None (and the page redirects to sign in)."""
    return account.principal()


@bp.route("/tournaments/new", methods=["GET", "POST"])
def new_tournament():
    """The page that creates a tournament (the signed-in account organises it)."""
    who = _organiser()
    if who is None:
        flash("Sign in first: a signed-in player organises tournaments.", "error")
        return redirect(url_for("web.sign_in"), 303)
    form, error, status = LeaveForm(), None, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form(None, form)
        try:
            made = tournaments.create(UnitOfWork(), who, _posted())
        except ArbiterError as err:
            error, status = problems.page(err)
        else:
            flash("Your tournament is open for entries.", "ok")
            return redirect(url_for("web.tournament", tournament_id=made.id), 303)
    page = render_template(
        "tournament_new.html",
        engines=engines.all_engines(),
        clocks=CLOCKS,
        deadlines=ROUND_DEADLINES,
        values=request.form,
        error=error,
        form=form,
    )
    return page, status


def _posted() -> dict:
    """Return the posted form as ``POST /v1/tournaments`` takes its body, once its
    schema has read it (the service checks the rest).

    :raises Unprocessable: ``bad-form`` for a number that is not a whole number in
        range, or a format the page does not offer."""
    form = request.form
    if form.get("format") not in ("swiss", "round_robin"):
        raise Unprocessable("Choose Swiss or round robin.", "bad-form")
    return {
        "name": (form.get("name", "").strip() or "Tournament")[:120],
        "engine": form.get("engine", ""),
        "table_size": _whole(form.get("table_size"), "Players at each table", 2, 16),
        "format": form["format"],
        "rounds": _whole(form.get("rounds"), "Rounds", 1, 100, optional=True),
        "scoring": None,
        "rated": False,
        "options": {},
        "clock": (CLOCKS.get(form.get("clock", "none")) or CLOCKS["none"])[1] or {},
        "deadline_policy": "forfeit",
        "round_seconds": int(form["round_seconds"])
        if form.get("round_seconds") in ROUND_DEADLINES and form.get("round_seconds")
        else None,
        "reliability_threshold": None,
        "late_entries": bool(form.get("late_entries")),
    }


def _whole(raw: str | None, label: str, low: int, high: int, optional: bool = False):
    """Return a form's whole number from ``low`` to ``high`` (None when empty and
    ``optional``). :raises Unprocessable: ``bad-form`` saying what is wrong."""
    text = (raw or "").strip()
    if not text and optional:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        raise Unprocessable(f"{label}: a whole number from {low} to {high}.", "bad-form")
    return int(text)


def _act(tournament_id: str, action, done: str):
    """Run an organiser's ``action`` (given the caller) after the form's checks; the
    page then says ``done`` (or the service's refusal)."""
    who = _organiser()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    try:
        action(who)
    except ArbiterError as err:
        flash(problems.page(err)[0], "error")
    else:
        flash(done, "ok")
    return redirect(url_for("web.tournament", tournament_id=tournament_id), 303)


@bp.post("/tournaments/<tournament_id>/start")
def start_tournament(tournament_id: str):
    """Start the tournament: round 1 is paired and its games start."""
    return _act(
        tournament_id,
        lambda who: tournaments.start(UnitOfWork(), tournament_id, who),
        "The tournament has started: round 1 is paired and its games are on.",
    )


@bp.post("/tournaments/<tournament_id>/extend")
def extend_round(tournament_id: str):
    """Move the current round's deadline later."""
    seconds = request.form.get("seconds", "")
    if seconds not in EXTENSIONS:
        flash("Choose how much later the round ends.", "error")
        return redirect(url_for("web.tournament", tournament_id=tournament_id), 303)
    return _act(
        tournament_id,
        lambda who: tournaments.extend(UnitOfWork(), tournament_id, who, int(seconds)),
        f"The round ends {EXTENSIONS[seconds]} later.",
    )


@bp.post("/tournaments/<tournament_id>/entries/<entry_id>/replace")
def replace_entry(tournament_id: str, entry_id: str):
    """Hand a withdrawn entry's games to the timeout policy (after a confirmation)."""
    if not confirm.confirmed() and request.method == "POST":
        return confirm.ask(
            "Replace this player's games?",
            "The player resigns every game of theirs still being played, and the "
            "arbiter plays their turns from now on.",
            "Yes, replace them",
            url_for("web.tournament", tournament_id=tournament_id),
        )
    return _act(
        tournament_id,
        lambda who: tournaments.replace(UnitOfWork(), tournament_id, entry_id, who),
        "Their games are played by the arbiter from now on.",
    )


@bp.app_context_processor
def organiser_choices() -> dict:
    """Template context of the organiser's controls: the deadline extensions."""
    return {"round_extensions": EXTENSIONS}
