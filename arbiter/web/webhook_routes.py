"""The "my web hooks" pages: the signed-in account's hooks (register one, its signing
secret shown once; delete one) and each hook's page (its delivery log; change its
events; disable it or enable it again). Thin views over
``arbiter/hooks/webhooks.py``, the same calls as ``/v1/me/webhooks``."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from arbiter import problems
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.hooks import webhooks
from arbiter.uow import UnitOfWork
from arbiter.web import account
from arbiter.web.forms import LeaveForm, WebhookCreateForm, WebhookEventsForm
from arbiter.web.routes import bp, refused_form

DELIVERIES_SHOWN = 50
"""Deliveries a hook's page lists (newest first)."""


@bp.route("/me/webhooks", methods=["GET", "POST"])
def my_webhooks():
    """The signed-in account's web hooks; register a new one (its secret shown once).
    A refused URL or event list leaves nothing registered and the page says why."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form, made, refused, status = WebhookCreateForm(), None, None, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form(None, form)
        try:
            new = webhooks.create(UnitOfWork(), who, form.url.data.strip(), form.events.data)
            made = webhooks.hook_json(new.hook, new.secret)
        except ArbiterError as err:
            db.session.rollback()
            refused, status = problems.page(err)
    hooks = [webhooks.hook_json(h) for h in webhooks.hooks_of(db.session, who)]
    return render_template(
        "my_webhooks.html",
        account=who,
        form=form,
        made=made,
        refused=refused,
        hooks=hooks,
        events=webhooks.EVENTS,
        delete_form=LeaveForm(),
    ), status


@bp.get("/me/webhooks/<hook_id>")
def my_webhook(hook_id: str):
    """One of the account's hooks and its latest deliveries (404 for another's)."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    hook = webhooks.hook_json(webhooks.hook_of(db.session, who, hook_id))
    log = webhooks.deliveries_of(db.session, who, hook_id, DELIVERIES_SHOWN)
    return render_template(
        "my_webhook.html",
        account=who,
        hook=hook,
        deliveries=log,
        delete_form=LeaveForm(),
        events=webhooks.EVENTS,
        events_form=WebhookEventsForm(),
    )


@bp.post("/me/webhooks/<hook_id>/events")
def webhook_events(hook_id: str):
    """Change the events one of the account's hooks gets."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form = WebhookEventsForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    webhooks.update(UnitOfWork(), who, hook_id, events=form.events.data)
    flash("Events changed.", "ok")
    return redirect(url_for("web.my_webhook", hook_id=hook_id), 303)


@bp.post("/me/webhooks/<hook_id>/<any(enable, disable):switch>")
def webhook_switch(hook_id: str, switch: str):
    """Enable one of the account's hooks again (its failures forgotten) or disable it."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    webhooks.update(UnitOfWork(), who, hook_id, enabled=switch == "enable")
    flash(
        "Web hook enabled again: the next events are delivered."
        if switch == "enable"
        else "Web hook disabled: it gets nothing until you enable it again.",
        "ok",
    )
    return redirect(url_for("web.my_webhook", hook_id=hook_id), 303)


@bp.post("/me/webhooks/<hook_id>/delete")
def delete_webhook(hook_id: str):
    """Delete one of the account's hooks and its delivery log."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    webhooks.delete(UnitOfWork(), who, hook_id)
    flash("Web hook deleted: it gets nothing more.", "ok")
    return redirect(url_for("web.my_webhooks"), 303)
