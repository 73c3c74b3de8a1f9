"""Invitations with consent: a seat named by an address that is not an account.

Only a signed-in account may invite (:func:`check_inviter`): a creation without a
personal token (``OPEN_CREATION``) that names an address with no account is refused
with 401 ``sign-in-to-invite``, and an account may invite at most ``INVITES_PER_DAY``
different mailboxes a day (single creation, bulk and campaigns alike), else 429
``invitation-budget``.

Creating such a game (:func:`invite_seats`, called by game creation) records one
invitation per seat and mails it only if the mailbox has never been mailed an
invitation and has not blocked them: a mailbox (:mod:`arbiter.service.mailboxes`:
case and ``+tag`` folded) gets exactly one invitation mail and nothing else until it
accepts. The mail carries no text the inviter typed: it names the inviter by their
account's name and address, the game by its engine's title, and the other players
by their accounts' names, counting the others (:func:`invitation_text`). The game
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

Accepting (:func:`accept`) proves the address (the link was mailed to it): it makes
or finds the account, links the seat, and gives a personal token like a sign-in.
A reply ``accept`` (or ``decline``, ``block``) to the invitation mail does the same by
mail (:mod:`arbiter.mailin.invitation`), without the token: the mail's ``Reply-To`` is
the seat's capability address of version 0 (:data:`REPLY_VERSION`).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import current_app

from arbiter import limits
from arbiter.errors import (
    ArbiterError,
    Conflict,
    Forbidden,
    NotFound,
    TooManyRequests,
    Unauthorized,
)
from arbiter.extensions import db
from arbiter.mailin import capability
from arbiter.models import Account, Game, Invitation, OutboxMail, Seat
from arbiter.models.timestamps import iso, utcnow
from arbiter.service import accounts, consent, identity
from arbiter.service.mailboxes import mailbox

UNFILLED = ("cancel", "start")
"""The unfilled-seat policies a creator may choose."""

REPLY_VERSION = 0
"""The version in an invitation mail's reply address (:mod:`arbiter.mailin.capability`):
no prompt begins at version 0 (a game's first event is seq 1), so a capability of
version 0 names the seat's invitation."""

BUDGET_WINDOW = timedelta(days=1)
"""The window of ``INVITES_PER_DAY``: a sliding day."""

LOOKUP_CHUNK = 500
"""Addresses looked up per query (SQLite's older builds take at most 999 parameters)."""


# --------------------------------------------------------------------------- who may invite


def strangers(emails: Iterable[str | None]) -> list[str]:
    """Return the addresses among ``emails`` (normalised, in order, once each) that
    are no (undeleted) account's: creating a seat for one invites it."""
    wanted = list(dict.fromkeys(accounts.normal_address(e) for e in emails if e))
    known: set[str] = set()
    for i in range(0, len(wanted), LOOKUP_CHUNK):
        chunk = wanted[i : i + LOOKUP_CHUNK]
        known.update(
            db.session.scalars(
                sa.select(Account.email).where(
                    Account.email.in_(chunk), Account.deleted_at.is_(None)
                )
            )
        )
    return [e for e in wanted if e not in known]


def check_inviter(creator: Account | None, emails: Iterable[str | None]) -> None:
    """Refuse a creation whose seats would invite addresses that have not agreed to
    mail (no account), unless a signed-in account creates it and stays within its
    daily budget. Called once per creation request with every seat's address (all the
    games of a batch together), before anything is written.

    :param creator: the creating account; None for a caller without a personal token
        (``OPEN_CREATION``, campaigns).
    :raises Unauthorized: 401 ``sign-in-to-invite``: no account creates, and an
        address is no account's.
    :raises TooManyRequests: 429 ``invitation-budget``: the request would take the
        account over ``INVITES_PER_DAY`` different mailboxes invited in the last 24
        hours (counted by the account's own mailbox, plus-tags folded, so that
        ``me+1@`` and ``me+2@`` share one budget). The rule: issue 22, item 3.
    """
    invited = strangers(emails)
    if not invited:
        return
    if creator is None:
        shown = ", ".join(invited[:3]) + (" ..." if len(invited) > 3 else "")
        raise Unauthorized(
            f"Naming a player by an address that has no account here ({shown}) mails "
            "that address an invitation, which only a signed-in account may do: sign "
            "in (POST /v1/auth/links, or the Sign in page) and create the game with "
            "your personal token, or leave the address out (that seat then plays by "
            "its seat token).",
            code="sign-in-to-invite",
        )
    _check_budget(creator, {mailbox(e) for e in invited})


def _check_budget(creator: Account, wanted: set[str]) -> None:
    """:raises TooManyRequests: ``invitation-budget`` (see :func:`check_inviter`)."""
    budget = current_app.config["INVITES_PER_DAY"]
    if db.engine.dialect.name == "postgresql":  # one creation of this account at a time
        db.session.execute(sa.select(Account.id).where(Account.id == creator.id).with_for_update())
    now = utcnow()
    first = dict(
        db.session.execute(
            sa.select(Invitation.mailbox, sa.func.min(Invitation.created_at))
            .where(
                Invitation.inviter == mailbox(creator.email or ""),
                Invitation.created_at > now - BUDGET_WINDOW,
            )
            .group_by(Invitation.mailbox)
        ).all()
    )
    new = wanted - set(first)
    over = len(first) + len(new) - budget
    if over <= 0:
        return
    times = sorted(first.values())
    frees = times[over - 1] + BUDGET_WINDOW if over <= len(times) else now + BUDGET_WINDOW
    wait = max(1, math.ceil((frees - now).total_seconds()))
    left = max(0, budget - len(first))
    raise TooManyRequests(
        f"This would invite {len(new)} new address{'es' if len(new) != 1 else ''} "
        f"that ha{'ve' if len(new) != 1 else 's'} no account here; an account may "
        f"invite at most {budget} different addresses a day (INVITES_PER_DAY) and "
        f"yours has {left} left now. Invite fewer, ask the players to sign up first "
        "(a player with an account is not counted), or try again later"
        + (f" (in {_span(wait)})." if len(new) <= budget else "."),
        retry_after=wait,
        code="invitation-budget",
    )


# --------------------------------------------------------------------------- invitations


def invite_seats(
    game: Game, creator: Account | None, creator_key: str
) -> tuple[list[Invitation], list[OutboxMail]]:
    """Return the invitations for the game's seats whose address is not an account's,
    and the invitation mails to queue (at most one per mailbox, ever). The caller has
    checked the inviter (:func:`check_inviter`).

    :param creator: the inviting account (named in the mail).
    :param creator_key: who creates (see :func:`arbiter.limits.caller_key`), for the
        per-creator, per-mailbox invitation limit.
    :raises Unauthorized: ``sign-in-to-invite`` when no account creates (a caller
        that skipped :func:`check_inviter`).
    :raises arbiter.errors.TooManyRequests: ``rate-limited`` (limit ``invite``).
    """
    invited = [s for s in game.seats if s.email and s.account_id is None]
    if not invited:
        return [], []
    if creator is None:
        check_inviter(None, [s.email for s in invited])
    invitations, mails = [], []
    for seat in invited:
        address = seat.email.lower()
        box = mailbox(address)
        limits.check("invite", creator_key, box)
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
            mails.append(_mail(game, seat, invitation, nonce, creator))
            consent.record(address, "invited", game.id)
        invitations.append(invitation)
    return invitations, mails


def engine_title(engine_id: str) -> str:
    """Return the title of engine ``engine_id`` ("Space Worm"), or the id itself for an
    engine this server no longer has."""
    import engines

    try:
        return engines.get(engine_id).title
    except engines.UnknownEngine:
        return engine_id


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _count(n: int, what: str) -> str:
    """``two other invited players``, ``one player``."""
    return f"{NUMBERS[n] if n < len(NUMBERS) else n} {what}{'s' if n != 1 else ''}"


def inviter_of(game: Game) -> Account | None:
    """Return the account that created ``game`` (its inviter), or None."""
    return db.session.get(Account, game.creator_account_id) if game.creator_account_id else None


def inviter_name(account: Account | None) -> str:
    """Return how an invitation names its inviter: the account's name and address
    (``Ann <ann@example.org>``), both from the verified account."""
    if account is None or account.email is None:
        return accounts.DELETED_NAME
    return f"{account.display_name} <{account.email}>"


def players_text(game: Game, seat: int) -> str:
    """Return who else plays, for the invitation of ``seat``, in words that hold no
    text the inviter typed: players with an account by their account's name, the
    others counted (``Ann, Carl, two other invited players and one more player``)."""
    names, invited, others = [], 0, 0
    for other in game.seats:
        if other.seat == seat:
            continue
        account = db.session.get(Account, other.account_id) if other.account_id else None
        if account is not None:
            names.append(account.display_name)
        elif other.email:
            invited += 1
        else:
            others += 1
    parts = names + [
        _count(invited, "other invited player") if invited else "",
        _count(others, "more player") + " without an address" if others else "",
    ]
    parts = [p for p in parts if p]
    if not parts:
        return "you alone"
    if len(parts) == 1:
        return f"you and {parts[0]}"
    return "you, " + ", ".join(parts[:-1]) + f" and {parts[-1]}"


def invitation_text(game: Game, seat: int, creator: Account | None) -> str:
    """Return the sentences that say who invites to what and who else plays, made
    only of the verified accounts' names and addresses, the engine's title and
    numbers (issue 22, items 3 and 14): the mail and the invitation page use it."""
    title = engine_title(game.engine)
    return (
        f"{inviter_name(creator)}, who has an account on Arbiter, invites you to play "
        f"{title} (game {game.id}). The players: {players_text(game, seat)}."
    )


def _mail(
    game: Game, seat: Seat, invitation: Invitation, nonce: str, creator: Account
) -> OutboxMail:
    """Return the one invitation mail of a mailbox; its ``Reply-To`` takes a reply
    ``accept``, ``decline`` or ``block``."""
    base = current_app.config["BASE_URL"]
    page = f"{base}/v1/invitations/{invitation.id}?token={nonce}"
    start = "The game starts when every player has accepted" + (
        f", or at {game.start_at:%Y-%m-%d %H:%M} UTC." if game.start_at else "."
    )
    body = "\n".join(
        [
            "Hello,",
            "",
            invitation_text(game, seat.seat, creator),
            "Arbiter is a turn arbiter for board games played by mail and over the web.",
            start,
            "",
            f"Accept, decline, or block every invitation to this address: {page}",
            'Or reply to this mail with the single word "accept" (or "decline", or "block").',
            "",
            "This is the only mail you will get from us unless you accept: nothing else is "
            "sent to an address that has not agreed to it. If you do not know the person "
            "who invited you, choose block.",
        ]
    )
    return OutboxMail(
        dedupe_key=f"invite:{invitation.id}",
        game_id=game.id,
        seat=seat.seat,
        to_addr=invitation.email,
        subject=f"[Arbiter] An invitation to play {engine_title(game.engine)}",
        body=body,
        headers={"Reply-To": capability.reply_address(game.id, seat.seat, REPLY_VERSION)},
    )


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


def accept(
    invitation_id: str, nonce: str | None = None, who=None, mailed_from: str | None = None
) -> dict:
    """Accept an invitation (by its link's ``nonce``, an account of its address, or a
    reply from its address: ``mailed_from``, checked by the caller): the seat joins
    the account (made now if needed) and mail to it may flow. Returns
    ``{"game_id", "seat", "account", "token"}`` (``token``: a personal token with every
    scope when accepted by link, else None); the game starts if it was the last.

    :raises Conflict: ``invitation-answered`` (twice), ``game-started`` (too late),
        ``game-cancelled``; :raises Forbidden: ``bad-invitation-link``.
    """
    from arbiter.service import game_start

    invitation = _opened(invitation_id, nonce, who, mailed_from)
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
    if nonce is not None:
        _row, plain = accounts.sign_in_token(account)
    db.session.commit()
    game_start.settle(game.id)
    return {
        "game_id": game.id,
        "seat": invitation.seat,
        "account": accounts.me(account),
        "token": plain,
    }


def decline(
    invitation_id: str,
    nonce: str | None = None,
    who=None,
    block: bool = False,
    mailed_from: str | None = None,
) -> dict:
    """Decline an invitation; with ``block`` also refuse every later invitation to the
    address. The seat is unfilled (see the module's policies). Returns
    ``{"game_id", "seat", "status", "blocked"}``.

    :raises Conflict: ``invitation-answered``, ``game-started``, ``game-cancelled``
        (blocking still works on an answered invitation).
    """
    from arbiter.service import game_start

    invitation = _opened(invitation_id, nonce, who, mailed_from)
    game = db.session.get(Game, invitation.game_id)
    if block:
        consent.block(invitation.email)
        consent.record(invitation.email, "blocked", game.id)
    if invitation.status == "pending" and game.status == "waiting":
        _answer(invitation, "declined")
        consent.record(invitation.email, "declined", game.id)
    elif not block:
        _check_open(invitation, game)
    db.session.commit()
    game_start.settle(game.id)
    return {
        "game_id": game.id,
        "seat": invitation.seat,
        "status": invitation.status,
        "blocked": block,
    }


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


def due_starts(now: datetime, limit: int = 200) -> list[str]:
    """Return ids of waiting games whose ``start_at`` has come."""
    return list(
        db.session.scalars(
            sa.select(Game.id)
            .where(Game.status == "waiting", Game.start_at <= now)
            .order_by(Game.start_at)
            .limit(limit)
        )
    )


def check_policy(unfilled: str | None, start_at: datetime | None) -> None:
    """:raises ArbiterError: 422 ``bad-start`` for an unknown policy, a past start, or
    one further ahead than ``MAX_START_AHEAD`` seconds (config; default a year)."""
    if unfilled not in UNFILLED:
        raise ArbiterError(
            f"unfilled must be one of {', '.join(UNFILLED)}.", code="bad-start", status=422
        )
    if start_at is None:
        return
    now = utcnow()
    if start_at <= now:
        raise ArbiterError("start_at must be in the future.", code="bad-start", status=422)
    ahead = current_app.config["MAX_START_AHEAD"]
    if (start_at - now).total_seconds() > ahead:
        raise ArbiterError(
            f"start_at may be at most {_span(ahead)} ahead on this server "
            f"(MAX_START_AHEAD, {ahead} s): the latest is "
            f"{iso(now + timedelta(seconds=ahead))}.",
            code="bad-start",
            status=422,
        )


def _span(seconds: int) -> str:
    """Return a span of seconds in the largest whole unit: ``365 days``, ``2 hours``."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"
