"""The "my bots" pages: the signed-in person's bot accounts (make one, its token shown
once; a new token for one; delete one, each after a confirmation). Thin views over
``arbiter/accounts/bot_accounts.py``, the same calls as ``/v1/me/bots`` (issue 25)."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from arbiter import problems
from arbiter.accounts import bot_accounts
from arbiter.errors import ArbiterError
from arbiter.uow import UnitOfWork
from arbiter.web import account
from arbiter.web.forms import BotCreateForm, LeaveForm
from arbiter.web.routes import bp, refused_form

ACTIONS = {
    "token": (
        "Give {name} a new token?",
        "Its current token stops working at once, and a program using it is cut off.",
        "Give it a new token",
    ),
    "delete": (
        "Delete {name}?",
        "Its token stops working at once; its games keep its moves, under a placeholder name.",
        "Delete the bot",
    ),
}
"""What each confirmed action asks: the question, what follows, the button."""


@bp.route("/me/bots", methods=["GET", "POST"])
def my_bots():
    """The signed-in person's bot accounts; make a new one (its token shown once)."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form, made = BotCreateForm(), None
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form(None, form)
        try:
            new = bot_accounts.create_bot(UnitOfWork(), who, form.name.data, form.public.data)
        except ArbiterError as err:
            message, status = problems.page(err)
            return render_template("error.html", message=message, game_id=None), status
        made = {"name": new.account.display_name, "id": new.account.id, "token": new.plain}
    return render_template(
        "my_bots.html",
        account=who,
        form=form,
        made=made,
        bots=[bot_accounts.bot_json(b) for b in bot_accounts.bots_of(who)],
        action_form=LeaveForm(),
    )


@bp.route("/me/bots/<bot_id>/<action>", methods=["GET", "POST"])
def bot_action(bot_id: str, action: str):
    """Confirm, then do, a bot's irreversible action: ``token`` (a new token, the old
    ones revoked; the new one shown once) or ``delete``."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    if action not in ACTIONS:
        return render_template("error.html", message="There is no such page.", game_id=None), 404
    try:
        bot = bot_accounts.bot_of(who, bot_id)
    except ArbiterError as err:
        message, status = problems.page(err)
        return render_template("error.html", message=message, game_id=None), status
    form = LeaveForm()
    if request.method == "GET":
        question, consequence, button = ACTIONS[action]
        return render_template(
            "my_bot_confirm.html",
            question=question.format(name=bot.display_name),
            consequence=consequence,
            button=button,
            form=form,
            action=url_for("web.bot_action", bot_id=bot_id, action=action),
        )
    if not form.validate_on_submit():
        return refused_form(None, form)
    if action == "delete":
        name = bot.display_name  # erased with the account
        bot_accounts.delete_bot(UnitOfWork(), who, bot_id)
        flash(f"{name} deleted.", "ok")
        return redirect(url_for("web.my_bots"), 303)
    new = bot_accounts.new_token(UnitOfWork(), who, bot_id)
    made = {"name": new.account.display_name, "id": new.account.id, "token": new.plain}
    return render_template(
        "my_bots.html",
        account=who,
        form=BotCreateForm(formdata=None),
        made=made,
        bots=[bot_accounts.bot_json(b) for b in bot_accounts.bots_of(who)],
        action_form=LeaveForm(),
    )
