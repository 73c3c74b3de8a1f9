"""Invitations with consent: a seat named by an address that is not an account.

Only a signed-in account may invite, within ``INVITES_PER_DAY`` different mailboxes
a day (:mod:`arbiter.accounts.inviters`: 401 ``sign-in-to-invite``, 429
``invitation-budget``).

Creating such a game (:func:`invite_seats`, called by game creation) records one
invitation per seat and mails it only if the mailbox has never been mailed an
invitation and has not blocked them: a mailbox (:mod:`arbiter.mail.mailboxes`:
case and ``+tag`` folded) gets exactly one invitation mail and nothing else until it
accepts. The mail carries no text the inviter typed: it names the inviter by their
account's name and address, the game by its engine's title, and the other players
by their accounts' names, counting the others (:mod:`arbiter.games.invitation_mail`). The game
waits (``status = "waiting"``: no rolls, no moves, its clocks paused) until every
invited seat has accepted, then starts.

Unfilled seats (declined, or unanswered at the creator's ``start_at``) follow the
game's ``unfilled`` policy, set at creation:

``cancel`` (default)
    the game is cancelled (``game-cancelled`` event, status ``cancelled``) as soon as a
    seat declines, or at ``start_at`` if a seat is still unanswered;
``start``
    the game starts without them once nobody is left to answer (or at ``start_at``):
    those seats get no mail and play by their seat tokens, which the creator holds,
    or by timeout moves when the game has a clock.

Accepting (:func:`accept`, with an :class:`Answer`) proves the address (the link was
mailed to it): it makes or finds the account, links the seat, and gives a personal
token like a sign-in.
A reply ``accept`` (or ``decline``, ``block``) to the invitation mail does the same by
mail (:mod:`arbiter.mailin.invitation`), without the token: the mail's ``Reply-To`` is
the seat's capability address of version 0 (:data:`REPLY_VERSION`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa

from arbiter import quotas, settings
from arbiter.accounts import accounts, identity, inviters
from arbiter.accounts.inviters import span
from arbiter.errors import Conflict, Forbidden, NotFound, Unprocessable
from arbiter.extensions import db
from arbiter.games import game_start, invitation_mail
from arbiter.games.invitation_mail import REPLY_VERSION, engine_title
from arbiter.mail import consent
from arbiter.mail.mailboxes import mailbox
from arbiter.models import Account, Game, Invitation, OutboxMail
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import UnitOfWork

__all__ = ["REPLY_VERSION", "engine_title"]
"""Kept here for their older callers (mail in, pages)."""

UNFILLED = ("cancel", "start")
"""The unfilled-seat policies a creator may choose."""


def invite_seats(
    game: Game, creator: Account | None, creator_key: str
) -> tuple[list[Invitation], list[OutboxMail]]:
    """Return the invitations for the game's seats whose address is not an account's,
    and the invitation mails to queue (at most one per mailbox, ever). The caller has
    checked the inviter (:func:`arbiter.accounts.inviters.check_inviter`).

    :param creator: the inviting account (named in the mail).
    :param creator_key: who creates (see :func:`arbiter.limits.caller_key`), for the
        per-creator, per-mailbox invitation limit.
    :raises Unauthorized: ``sign-in-to-invite`` when no account creates (a caller
        that skipped the check).
    :raises arbiter.errors.TooManyRequests: ``rate-limited`` (limit ``invite``).
    """
    invited = [s for s in game.seats if s.email and s.account_id is None]
    if not invited:
        return [], []
    if creator is None:
        inviters.check_inviter(None, [s.email for s in invited])
    invitations, mails = [], []
    for seat in invited:
        address = seat.email.lower()
        box = mailbox(address)
        quotas.check("invite", creator_key, box)
        nonce = secrets.token_urlsafe(32)
        row = consent.address(address)
        blocked = row.blocked_at is not None
        invitation = Invitation(
            id=secrets.token_hex(8),
            game_id=game.id,
            seat=seat.seat,
            email=address,
            mailbox=box,
            inviter=mailbox(creator.email or ""),
            nonce_hash=identity.token_hash(nonce),
            status="declined" if blocked else "pending",
            created_at=utcnow(),
            mailed=False,
        )
        if not blocked and row.invited_at is None:
            row.invited_at = utcnow()
            invitation.mailed = True
            mails.append(invitation_mail.mail(game, seat, invitation, nonce, creator))
            consent.record(address, "invited", game.id)
        invitations.append(invitation)
    return invitations, mails


def get_invitation(invitation_id: str) -> Invitation:
    """:raises NotFound: ``invitation-not-found``."""
    row = db.session.get(Invitation, invitation_id)
    if row is None:
        raise NotFound(f"There is no invitation {invitation_id!r}.", code="invitation-not-found")
    return row


def of_seat(game_id: str, seat: int) -> Invitation | None:
    """Return the invitation of a game's seat (None: the seat was not invited)."""
    return db.session.scalar(
        sa.select(Invitation).where(Invitation.game_id == game_id, Invitation.seat == seat)
    )


def _opened(
    invitation_id: str, nonce: str | None, who, mailed_from: str | None = None
) -> Invitation:
    """Return the invitation that the link's nonce, an account of its address, or a
    reply checked to come from its address (``mailed_from``) opens.

    :raises Forbidden: ``bad-invitation-link`` (wrong nonce, or another account).
    """
    invitation = get_invitation(invitation_id)
    if mailed_from is not None and mailed_from.lower() == invitation.email:
        return invitation
    if nonce is not None:
        if not secrets.compare_digest(invitation.nonce_hash, identity.token_hash(nonce)):
            raise Forbidden("This invitation link is not valid.", code="bad-invitation-link")
        return invitation
    if who is not None and who.is_account and who.account.email == invitation.email:
        return invitation
    raise Forbidden(
        "Only the invited address may answer this invitation: use the "
        "mailed link, or a personal token of that address's account.",
        code="bad-invitation-link",
    )


def by_link(invitation_id: str, nonce: str | None) -> tuple[Invitation, Game]:
    """Return the invitation its mailed link opens, and its game (the invitation
    page; opening it answers nothing).

    :raises NotFound: ``invitation-not-found``; :raises Forbidden:
        ``bad-invitation-link`` (no token, or not this invitation's).
    """
    invitation = get_invitation(invitation_id)
    if nonce is None or not secrets.compare_digest(
        invitation.nonce_hash, identity.token_hash(nonce)
    ):
        raise Forbidden(
            "This invitation link is not valid: open the link of the "
            "invitation mail as it was sent.",
            code="bad-invitation-link",
        )
    return invitation, db.session.get(Game, invitation.game_id)


def answerable(invitation: Invitation, game: Game) -> bool:
    """True when the invitation may still be accepted or declined (see
    :func:`_check_open`)."""
    return invitation.status == "pending" and game.status == "waiting"


def _check_open(invitation: Invitation, game: Game) -> None:
    """:raises Conflict: ``invitation-answered``, ``game-started``, ``game-cancelled``."""
    if game.status == "cancelled":
        raise Conflict("This game was cancelled.", code="game-cancelled")
    if invitation.status != "pending" and game.status != "waiting":
        raise Conflict("This game has already started.", code="game-started")
    if invitation.status != "pending":
        raise Conflict(
            f"This invitation was already answered ({invitation.status}).",
            code="invitation-answered",
        )


@dataclass(frozen=True)
class Answer:
    """An answer to an invitation, by its link's ``nonce``, an account ``who`` of its
    address, or a reply from its address (``mailed_from``, checked by the caller);
    ``block`` (declining only) also refuses every later invitation to the address."""

    invitation_id: str
    nonce: str | None = None
    who: Any = None
    mailed_from: str | None = None
    block: bool = False


@dataclass(frozen=True)
class Accepted:
    """An accepted invitation: the game, the seat, the account (as
    :func:`arbiter.accounts.accounts.me` shows it) and, when accepted by link, a
    personal token with every scope (shown once; else None)."""

    game_id: str
    seat: int
    account: dict
    token: str | None


@dataclass(frozen=True)
class Declined:
    """A declined invitation: the game, the seat, the invitation's ``status`` now, and
    whether the address ``blocked`` every later invitation."""

    game_id: str
    seat: int
    status: str
    blocked: bool


def accept(uow: UnitOfWork, command: Answer) -> Accepted:
    """Accept an invitation: the seat joins the account of its address (made now if
    needed) and mail to it may flow; commit ``uow``. The game then starts if it was the
    last seat to answer (:func:`arbiter.games.game_start.settle`, its own transaction).

    :raises Conflict: ``invitation-answered`` (twice), ``game-started`` (too late),
        ``game-cancelled``; :raises Forbidden: ``bad-invitation-link``; :raises
        NotFound: ``invitation-not-found``.
    """
    invitation = _opened(command.invitation_id, command.nonce, command.who, command.mailed_from)
    game = db.session.get(Game, invitation.game_id)
    _check_open(invitation, game)
    account = accounts.account_by_address(invitation.email) or accounts.new_account(
        invitation.email, game.seats[invitation.seat].name
    )
    _answer(invitation, "accepted")
    seat = game.seats[invitation.seat]
    seat.account_id, seat.mail_off, seat.digest = account.id, account.mail_off, account.digest
    consent.record(invitation.email, "accepted", game.id)
    plain = None
    if command.nonce is not None:
        _row, plain = accounts.sign_in_token(account)
    accepted = Accepted(game.id, invitation.seat, accounts.me(account), plain)
    uow.commit(accepted)
    game_start.settle(accepted.game_id)
    return accepted


def decline(uow: UnitOfWork, command: Answer) -> Declined:
    """Decline an invitation; with ``command.block`` also refuse every later
    invitation to the address. The seat is unfilled (see the module's policies).
    Commits ``uow``; the game then starts or is cancelled if nobody else is left to
    answer (:func:`arbiter.games.game_start.settle`, its own transaction).

    :raises Conflict: ``invitation-answered``, ``game-started``, ``game-cancelled``
        (blocking still works on an answered invitation); :raises Forbidden:
        ``bad-invitation-link``; :raises NotFound: ``invitation-not-found``.
    """
    invitation = _opened(command.invitation_id, command.nonce, command.who, command.mailed_from)
    game = db.session.get(Game, invitation.game_id)
    if command.block:
        consent.block(invitation.email)
        consent.record(invitation.email, "blocked", game.id)
    if invitation.status == "pending" and game.status == "waiting":
        _answer(invitation, "declined")
        consent.record(invitation.email, "declined", game.id)
    elif not command.block:
        _check_open(invitation, game)
    declined = Declined(game.id, invitation.seat, invitation.status, command.block)
    uow.commit(declined)
    game_start.settle(declined.game_id)
    return declined


def _answer(invitation: Invitation, status: str) -> None:
    invitation.status = status
    invitation.answered_at = utcnow()


def of_game(game_id: str) -> list[Invitation]:
    """Return the game's invitations in seat order."""
    return list(
        db.session.scalars(
            sa.select(Invitation).where(Invitation.game_id == game_id).order_by(Invitation.seat)
        )
    )


def pending_for(email: str) -> list[Invitation]:
    """Return the pending invitations to ``email`` in games still waiting."""
    return list(
        db.session.scalars(
            sa.select(Invitation)
            .join(Game, Game.id == Invitation.game_id)
            .where(
                Invitation.email == email.lower(),
                Invitation.status == "pending",
                Game.status == "waiting",
            )
            .order_by(Invitation.created_at)
        )
    )


def invitation_json(invitation: Invitation) -> dict:
    """Return an invitation as the API shows it (never its link's secret)."""
    return {
        "id": invitation.id,
        "game_id": invitation.game_id,
        "seat": invitation.seat,
        "status": invitation.status,
        "created_at": invitation.created_at.isoformat(),
        "mailed": invitation.mailed,
    }


def check_policy(unfilled: str | None, start_at: datetime | None) -> None:
    """:raises Unprocessable: ``bad-start`` for an unknown policy, a past start, or
    one further ahead than ``MAX_START_AHEAD`` seconds (config; default a year)."""
    if unfilled not in UNFILLED:
        raise Unprocessable(f"unfilled must be one of {', '.join(UNFILLED)}.", code="bad-start")
    if start_at is None:
        return
    now = utcnow()
    if start_at <= now:
        raise Unprocessable("start_at must be in the future.", code="bad-start")
    ahead = settings.current().limits.max_start_ahead
    if (start_at - now).total_seconds() > ahead:
        raise Unprocessable(
            f"start_at may be at most {span(ahead)} ahead on this server "
            f"(MAX_START_AHEAD, {ahead} s): the latest is "
            f"{iso(now + timedelta(seconds=ahead))}.",
            code="bad-start",
        )
