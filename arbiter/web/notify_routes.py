"""The account page's notification form: how my turns are told (a mail each turn,
the daily digest at an hour of my zone, or none), for all my games. A thin view
over :mod:`arbiter.games.preferences` (the same as ``PATCH /v1/me``)."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from arbiter.games import preferences
from arbiter.uow import UnitOfWork
from arbiter.web import account
from arbiter.web.routes import bp, refused_form

HOURS = [SelectChoice("", "as soon as a game is due")] + [
    SelectChoice(str(h), f"{h:02d}:00") for h in range(24)
]


class NotifyForm(FlaskForm):
    """How my turns are told, in all my games."""

    notify = SelectField(
        "Tell me of my turns",
        choices=[
            SelectChoice("turn", "a mail for each turn"),
            SelectChoice("digest", "one daily digest"),
            SelectChoice("none", "no mail"),
        ],
        validators=[InputRequired()],
    )
    hour = SelectField("Digest hour (your time zone)", choices=HOURS)


@bp.route("/me/notifications", methods=["GET", "POST"])
def my_notifications():
    """Show and change how the signed-in account hears of its turns."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form = NotifyForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form(None, form)
        hour = int(form.hour.data) if form.hour.data else None
        preferences.set_for_all(UnitOfWork(), who, form.notify.data, hour)
        flash("Saved: " + preferences.SAID[form.notify.data] + ".", "ok")
        return redirect(url_for("web.my_notifications"), 303)
    form.notify.data = who.notify or "turn"
    form.hour.data = "" if who.digest_hour is None else str(who.digest_hour)
    return render_template("my_notifications.html", account=who, form=form)
