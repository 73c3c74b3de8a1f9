"""Tournament pages: the public list of tournaments, and a tournament's page (its
standings, every paired round with its tables and byes, its entries), where a
signed-in account enters or withdraws with a plain form. Thin views over
``arbiter/tournaments/tournaments.py`` and ``tournament_results.py``, the same calls as
``/v1/tournaments``."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

import engines
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.tournaments import tournament_results as results
from arbiter.tournaments import tournaments
from arbiter.uow import UnitOfWork
from arbiter.web import account, confirm
from arbiter.web.forms import ByeForm, LeaveForm
from arbiter.web.routes import bp, refused_form

LISTED = 100
"""Tournaments the list shows (newest first)."""

STATUSES = ("open", "running", "over")


@bp.get("/tournaments")
def tournament_list():
    """The public list of tournaments, newest first (``?status=``, ``?engine=``)."""
    status = request.args.get("status") or None
    if status is not None and status not in STATUSES:
        raise ArbiterError(
            f"There is no tournament status {status!r} to show: choose "
            f"{', '.join(STATUSES[:-1])} or {STATUSES[-1]}, or leave it out "
            "for every tournament.",
            code="bad-filter",
        )
    engine = request.args.get("engine") or None
    if engine is not None and engine not in engines.ENGINE_MODULES:
        raise ArbiterError(
            f"There is no game {engine!r} to show tournaments of: choose one of "
            f"{', '.join(sorted(engines.ENGINE_MODULES))}, or leave it out "
            "for every tournament.",
            code="bad-filter",
        )
    query = tournaments.list_tournaments(status, engine)
    rows = [tournaments.summary(t) for t in db.session.scalars(query.limit(LISTED))]
    return render_template("tournaments.html", tournaments=rows, status=status, statuses=STATUSES)


@bp.get("/tournaments/<tournament_id>")
def tournament(tournament_id: str):
    """A tournament's page: standings, rounds (tables, games, places, byes), entries;
    the signed-in account's enter or withdraw button."""
    t = tournaments.get(tournament_id)
    entries = [results.entry_json(e) for e in results.entries(t.id)]
    who = account.signed_in()
    mine = next((e for e in entries if who is not None and e["account"] == who.id), None)
    rounds = [results.round_json(t, r.number) for r in results.rounds(t.id)]
    return render_template(
        "tournament.html",
        t=tournaments.summary(t),
        standings=results.standings(t),
        after_round=results.after_round(t, None),
        tiebreaks=results.standings_of.tiebreaks(t.format),
        rounds=list(reversed(rounds)),
        entries=entries,
        signed_in=who,
        mine=mine,
        can_enter=t.status == "open" or (t.status == "running" and tournaments.late_entries(t)),
        form=LeaveForm(),
        bye_form=ByeForm(),
        coming=_coming_rounds(t, mine),
    )


def _coming_rounds(t, mine: dict | None) -> list[int]:
    """The rounds of a Swiss the signed-in entrant may still ask a bye for."""
    if mine is None or t.format != "swiss" or t.status == "over":
        return []
    last = (mine["withdrawn_round"] or t.rounds + 1) - 1
    return list(range(max(t.round + 1, mine["joined_round"]), min(t.rounds, last) + 1))


@bp.post("/tournaments/<tournament_id>/entries/<entry_id>/byes")
def request_bye(tournament_id: str, entry_id: str):
    """Ask for a bye in a coming round for the signed-in account's entry (or take the
    request back); the service's refusals are the page's message."""
    tournaments.get(tournament_id)
    form = ByeForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    who = account.principal()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    number = form.round.data
    tournaments.request_bye(UnitOfWork(), tournament_id, entry_id, who, number, form.bye.data)
    said = {
        "half": f"You have a half-point bye in round {number}: you will not be paired then.",
        "zero": f"You sit round {number} out (no points): you will not be paired then.",
        "none": f"No bye in round {number}: you will be paired as usual.",
    }
    flash(said[form.bye.data], "ok")
    return redirect(url_for("web.tournament", tournament_id=tournament_id), 303)


@bp.post("/tournaments/<tournament_id>/enter")
def enter_tournament(tournament_id: str):
    """Enter the signed-in account (the service's refusals are the page's message)."""
    tournaments.get(tournament_id)
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    who = account.principal()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    entry = tournaments.enter(UnitOfWork(), tournament_id, who)
    flash(f"Entered as {entry.name}: you play from round {entry.joined_round}.", "ok")
    return redirect(url_for("web.tournament", tournament_id=tournament_id), 303)


@bp.post("/tournaments/<tournament_id>/entries/<entry_id>/withdraw")
def withdraw_entry(tournament_id: str, entry_id: str):
    """Withdraw the signed-in account's entry (from the next round on)."""
    tournaments.get(tournament_id)
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    who = account.principal()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    if not confirm.confirmed():
        return confirm.ask(
            "Leave the tournament?",
            "You will not be paired from the next round on; the games you are playing go on.",
            "Yes, leave the tournament",
            url_for("web.tournament", tournament_id=tournament_id),
        )
    entry = tournaments.withdraw(UnitOfWork(), tournament_id, entry_id, who)
    flash(f"Withdrawn: you are not paired from round {entry.withdrawn_round} on.", "ok")
    return redirect(url_for("web.tournament", tournament_id=tournament_id), 303)
