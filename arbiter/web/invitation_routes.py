"""The invitation page (issue 23, item 1): the page the invitation mail links to,
styled like the others, with plain forms (no JavaScript needed). Accepting signs the
browser in as the invited address's account and leads to the game; once answered,
the page says so and has no buttons. Thin views over
:mod:`arbiter.games.invitations` (the same calls as ``/v1/invitations``).
"""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from arbiter.accounts import identity
from arbiter.extensions import db
from arbiter.games import invitation_mail, invitations
from arbiter.models import Account, ApiToken, Game, Invitation
from arbiter.uow import UnitOfWork
from arbiter.web import account, confirm
from arbiter.web.forms import LeaveForm
from arbiter.web.routes import bp, refused_form

ANSWERS = ("accept", "decline", "block")


def render_invitation(row: Invitation, game: Game, token: str) -> str:
    """Return the invitation page of ``row`` opened with its link's ``token``: what it
    invites to and, while it may be answered, its Accept, Decline and Block buttons."""
    return render_template(
        "invitation.html",
        invitation=row,
        game=game,
        token=token,
        text=invitation_mail.invitation_text(game, row.seat, invitation_mail.inviter_of(game)),
        answerable=invitations.answerable(row, game),
        state=state_sentence(row, game),
        form=LeaveForm(),
    )


def state_sentence(row: Invitation, game: Game) -> str:
    """The sentence of an invitation that can no longer be answered."""
    where = invitation_mail.engine_title(game.engine)  # no id (issue 23), no typed names
    if row.status == "accepted":
        return f"{where}: you accepted this invitation."
    if row.status == "declined":
        return f"{where}: you declined this invitation."
    if game.status == "cancelled":
        return f"{where}: this game was cancelled."
    return f"{where}: this invitation can no longer be answered (the game has started)."


@bp.get("/invitations/<invitation_id>")
def invitation_page(invitation_id: str):
    """The invitation its mailed link opens (opening it answers nothing)."""
    row, game = invitations.by_link(invitation_id, request.args.get("token") or None)
    return render_invitation(row, game, request.args["token"])


@bp.post("/invitations/<invitation_id>/answer")
def answer_invitation(invitation_id: str):
    """Accept (then sign in and go to the game), decline, or block (after a
    confirmation step) the invitation whose link's token the form carries."""
    form = LeaveForm()
    if not form.validate_on_submit():
        return refused_form(None, form)
    token, answer = request.form.get("token", "")[:200], request.form.get("answer")
    row, game = invitations.by_link(invitation_id, token or None)
    back = url_for("web.invitation_page", invitation_id=invitation_id, token=token)
    if answer not in ANSWERS:
        flash("Choose Accept, Decline or Block.", "error")
        return redirect(back, 303)
    if answer == "block" and not confirm.confirmed():
        return confirm.ask(
            "Block every invitation?",
            "Nobody will be able to invite your address to a game on this server again, "
            "and this invitation is declined.",
            "Yes, block every invitation",
            back,
            {"token": token, "answer": "block"},
        )
    command = invitations.Answer(invitation_id, token, block=answer == "block")
    if answer != "accept":
        invitations.decline(UnitOfWork(), command)
        flash("Declined: you get no more mail about this game.", "ok")
        return redirect(back, 303)
    accepted = invitations.accept(UnitOfWork(), command)
    _sign_in(accepted.token)
    started = db.session.get(Game, accepted.game_id).status == "active"
    flash(
        "You accepted: the game has started."
        if started
        else "You accepted: the game starts when every player has answered.",
        "ok",
    )
    return redirect(url_for("web.game", game_id=accepted.game_id), 303)


def _sign_in(plain: str | None) -> None:
    """Sign this browser in with the personal token an accepted invitation gave."""
    if not plain:
        return
    row = db.session.scalar(
        db.select(ApiToken).where(ApiToken.token_hash == identity.token_hash(plain))
    )
    holder = db.session.get(Account, row.account_id) if row is not None else None
    if holder is not None:
        account.remember(holder, row)
