"""The invitation mail: the one mail an address that has not agreed gets.

It holds no text the inviter typed (issue 22, items 3 and 14): the inviter is named by
their account's name and address, the game by its engine's title, the other players
by their accounts' names, and the rest are counted (:func:`invitation_text`, which
the invitation page shows too). Its ``Reply-To`` takes a reply ``accept``,
``decline`` or ``block`` (:data:`REPLY_VERSION`).
"""

from __future__ import annotations

from arbiter import settings
from arbiter.accounts import accounts
from arbiter.extensions import db
from arbiter.games import naming
from arbiter.mail import capability
from arbiter.models import Account, Game, Invitation, OutboxMail, Seat

REPLY_VERSION = 0
"""The version in an invitation mail's reply address (:mod:`arbiter.mail.capability`):
no prompt begins at version 0 (a game's first event is seq 1), so a capability of
version 0 names the seat's invitation."""


engine_title = naming.engine_title


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
    others counted (``Ann, Carl, two other invited players, one built-in bot and one
    more player``)."""
    names, invited, bots, others = [], 0, 0, 0
    for other in game.seats:
        if other.seat == seat:
            continue
        account = db.session.get(Account, other.account_id) if other.account_id else None
        if account is not None:
            names.append(account.display_name)
        elif other.email:
            invited += 1
        elif other.bot:
            bots += 1
        else:
            others += 1
    parts = names + [
        _count(invited, "other invited player") if invited else "",
        _count(bots, "built-in bot") if bots else "",
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
        f"{title}. The players: {players_text(game, seat)}."
    )


def mail(
    game: Game, seat: Seat, invitation: Invitation, nonce: str, creator: Account
) -> OutboxMail:
    """Return the one invitation mail of a mailbox; its ``Reply-To`` takes a reply
    ``accept``, ``decline`` or ``block``."""
    base = settings.current().service.base_url
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
