"""Deleting one's account from the pages, after a confirmation step (issue 23,
item 6): the same call as ``DELETE /v1/me`` (:func:`arbiter.accounts.accounts.delete`)."""

from __future__ import annotations

from flask import flash, redirect, session, url_for

from arbiter.accounts import accounts
from arbiter.uow import UnitOfWork
from arbiter.web import account, confirm
from arbiter.web.forms import LeaveForm
from arbiter.web.routes import bp, refused_form


@bp.post("/me/delete")
def delete_account():
    """Delete the signed-in account once confirmed (a second page asks first); the
    browser is signed out."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    if not confirm.confirmed():
        return confirm.ask(
            "Delete your account?",
            f"Your account {who.email} is deleted: its address and name are erased, its "
            "tokens and web hooks go, and your seats in games keep only a placeholder name.",
            "Yes, delete my account",
            url_for("web.my_games"),
        )
    accounts.delete(UnitOfWork(), who)
    session.pop("account", None)
    session.pop("seats", None)
    flash("Your account is deleted.", "ok")
    return redirect(url_for("web.game_list"), 303)
