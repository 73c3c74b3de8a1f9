"""Who may invite an address that has not agreed to mail (issue 22, item 3).

Creating a seat for an address that is no account's mails that address an
invitation: a stranger who never asked for it gets a mail because of somebody else's
request. So only a signed-in account may do it (a caller without a personal token,
under ``OPEN_CREATION`` or creating a campaign, is refused with 401
``sign-in-to-invite``), and an account only for ``INVITES_PER_DAY`` different mailboxes
(:mod:`arbiter.mail.mailboxes`) in any 24 hours, counted from the invitations
recorded by the inviting mailbox (429 ``invitation-budget``). :func:`check_inviter` is
called once per creation request, with every seat's address of every game in it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import timedelta

import sqlalchemy as sa

from arbiter import settings
from arbiter.accounts import accounts
from arbiter.errors import TooManyRequests, Unauthorized
from arbiter.extensions import db
from arbiter.mail.mailboxes import mailbox
from arbiter.models import Account, Invitation
from arbiter.models.timestamps import utcnow

BUDGET_WINDOW = timedelta(days=1)
"""The window of ``INVITES_PER_DAY``: a sliding day."""

LOOKUP_CHUNK = 500
"""Addresses looked up per query (SQLite's older builds take at most 999 parameters)."""


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
    budget = settings.current().limits.invites_per_day
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
        + (f" (in {span(wait)})." if len(new) <= budget else "."),
        retry_after=wait,
        code="invitation-budget",
    )


def span(seconds: int) -> str:
    """Return a span of seconds in the largest whole unit: ``365 days``, ``2 hours``."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"
