"""Account pages: sign-in by a mailed link, "my games" (my turn first), my tokens.
Thin views over ``arbiter/accounts/accounts.py`` and ``my_games.py`` (issue 10)."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from arbiter import limits, problems
from arbiter.accounts import accounts, identity
from arbiter.errors import ArbiterError, TooManyRequests
from arbiter.games import my_games as owned
from arbiter.uow import UnitOfWork
from arbiter.web import account
from arbiter.web import confirm as confirmation
from arbiter.web.forms import ConfirmForm, LeaveForm, SignInForm, TokenCreateForm
from arbiter.web.routes import bp, refused_form

CONFIRM_PATH = "/sign-in/confirm"
"""Where the web's sign-in mail sends its reader (a page with a button: opening the
link alone uses nothing, so a mail scanner cannot spend it)."""


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    """Ask for a sign-in link by mail (the answer never says whether the address has an
    account); over a sign-in limit (:mod:`arbiter.limits`) the page says so, 429."""
    form = SignInForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form(None, form)
        try:  # the same limits as POST /v1/auth/links: per client, per mailbox
            accounts.request_link(
                UnitOfWork(),
                form.email.data,
                form.name.data or None,
                confirm_path=CONFIRM_PATH,
                client=limits.caller_key(None),
            )
        except TooManyRequests as err:
            page = render_template("error.html", message=err.detail, game_id=None)
            return page, 429, {"Retry-After": str(err.retry_after)}
        return render_template("sign_in_sent.html", email=form.email.data)
    return render_template("sign_in.html", form=form, account=account.signed_in())


@bp.get(CONFIRM_PATH)
def confirm_page():
    """The page a mailed sign-in link opens: a button that uses the link; a link
    without its address or token (cut short when copied) gets a 400 page that says so."""
    email, token = request.args.get("email", "").strip(), request.args.get("token", "").strip()
    if not email or not token:
        missing = " and ".join(n for n, v in (("address", email), ("token", token)) if not v)
        message = (
            f"This sign-in link is incomplete (its {missing} is missing): it was "
            "probably cut short when copied. Open the whole link from the mail, or "
            "ask for a new one."
        )
        return render_template("error.html", message=message, game_id=None, sign_in=True), 400
    form = ConfirmForm(email=email, token=token)
    return render_template("sign_in_confirm.html", form=form)


@bp.post(CONFIRM_PATH)
def confirm():
    """Use a sign-in link: sign this browser in and go to "my games"."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    try:
        done = accounts.complete_sign_in(UnitOfWork(), form.email.data, form.token.data)
    except ArbiterError as err:
        message, status = problems.page(err)
        return render_template("error.html", message=message, game_id=None), status
    account.remember(done.account, done.token)
    # "my games" says whom the browser is signed in as: the message only greets
    flash(f"Welcome, {done.account.display_name or done.account.email}.", "ok")
    return redirect(url_for("web.my_games"), 303)


@bp.post("/sign-out")
def sign_out():
    """Sign this browser out (its sign-in token is revoked)."""
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    account.sign_out()
    flash("Signed out.", "ok")
    return redirect(url_for("web.game_list"), 303)


@bp.get("/me/games")
def my_games():
    """The signed-in account's games: those where it is my turn first."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    games = my_games_list(who)
    return render_template("my_games.html", account=who, games=games, leave_form=LeaveForm())


def my_games_list(who) -> list[dict]:
    """Return the account's games, where a seat owes a move first, then the other
    active ones, then the finished ones (each group most recently moved first)."""
    rows = owned.games_of(who)
    return sorted(rows, key=lambda g: (not g["to_act"], g["status"] != "active"))


@bp.route("/me/tokens", methods=["GET", "POST"])
def my_tokens():
    """The signed-in account's personal API tokens; make a new one (shown once)."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form, made = TokenCreateForm(), None
    if request.method == "POST":
        if not form.validate_on_submit():
            return refused_form(None, form)
        days = form.days.data
        try:  # as the signed-in session: its sign-in token's scopes (every scope)
            new = accounts.create_token(
                UnitOfWork(),
                who,
                form.name.data,
                form.scopes.data,
                days * 86400 if days else None,
                held=account.principal().scopes,
            )
        except ArbiterError as err:
            message, status = problems.page(err)
            return render_template("error.html", message=message, game_id=None), status
        made = {"name": new.token.name, "token": new.plain}
    return render_template(
        "my_tokens.html",
        account=who,
        form=form,
        made=made,
        tokens=[accounts.token_json(t) for t in accounts.list_tokens(who)],
        revoke_form=LeaveForm(),
        scopes=identity.SCOPES,
    )


@bp.post("/me/tokens/<token_id>/revoke")
def revoke_token(token_id: str):
    """Revoke one of the signed-in account's tokens."""
    who = account.signed_in()
    if who is None:
        return redirect(url_for("web.sign_in"), 303)
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    if not confirmation.confirmed():
        return confirmation.ask(
            "Revoke this token?",
            "Whatever uses this token (a script, a bot, a browser) is refused from now on.",
            "Yes, revoke it",
            url_for("web.my_tokens"),
        )
    accounts.revoke_token(UnitOfWork(), who, token_id)
    flash("Token revoked: it opens nothing from now on.", "ok")
    return redirect(url_for("web.my_tokens"), 303)
