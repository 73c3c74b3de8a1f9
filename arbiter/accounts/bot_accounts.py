"""Bot accounts: accounts that a person makes for a program that plays (issue 25,
item 3), as Lichess's bot accounts.

A bot account has no address (it is never mailed and never asked for consent), an
owner (the signed-in person who made it, ``Account.bot_owner_id``) and play-scoped
tokens only (:data:`BOT_SCOPES`: legal moves, moves, resignations, streams and its
games, never the account's administration). It is seated at creation by its id
(``{"name": ..., "account": "<bot id>"}``) where a person is named by address: by its
owner always, by anybody when the owner made it public (``bot_public``). Its seats are
marked (``Seat.bot_account``), so games and pages show it as a bot.

Each write goes through a :class:`~arbiter.uow.UnitOfWork` and returns a plain result.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa

from arbiter import settings
from arbiter.accounts import accounts
from arbiter.bots import specs
from arbiter.errors import Conflict, Forbidden, NotFound, Unprocessable
from arbiter.extensions import db
from arbiter.models import Account, ApiToken
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import UnitOfWork

BOT_SCOPES = ("games:play",)
"""What a bot account's token carries: ``games:play`` (moves, resignations; implies
``games:read``: views, legal moves, events, ``/v1/me/stream``, ``/v1/me/games``)."""


@dataclass(frozen=True)
class BotMade:
    """A bot account with a new token: the account, the token's row and the token in
    plain text (shown once)."""

    account: Account
    token: ApiToken
    plain: str


def _not_a_bot(owner: Account) -> None:
    """:raises Forbidden: ``bot-account`` when ``owner`` is itself a bot account."""
    if owner.is_bot:
        raise Forbidden("A bot account cannot own bot accounts.", code="bot-account")


def create_bot(uow: UnitOfWork, owner: Account, name: str, public: bool = False) -> BotMade:
    """Make a bot account owned by ``owner`` and its first token (commits ``uow``).

    :param public: anybody may seat it at creation (else only ``owner``).
    :returns: the account, its token row and the token (shown once).
    :raises Forbidden: ``bot-account`` (a bot cannot own bots).
    :raises Conflict: ``too-many-bots`` at ``BOTS_PER_ACCOUNT`` (with ``limit``).
    """
    _not_a_bot(owner)
    cap = settings.current().limits.bots_per_account
    if db.engine.dialect.name == "postgresql":
        key = f"bots:{owner.id}"
        uow.session.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(key))))
    held = uow.session.scalar(
        sa.select(sa.func.count())
        .select_from(Account)
        .where(Account.bot_owner_id == owner.id, Account.deleted_at.is_(None))
    )
    if held >= cap:
        uow.rollback()
        raise Conflict(
            f"You already hold {held} bot accounts, the most one person may hold ({cap}). "
            "Delete one you no longer use, then make this one.",
            code="too-many-bots",
            extra={"limit": cap},
        )
    bot = Account(
        id=secrets.token_hex(8),
        email=None,
        display_name=name[:80],
        tz="UTC",
        digest=False,
        mail_off=True,
        created_at=utcnow(),
        bot_owner_id=owner.id,
        bot_public=public,
    )
    uow.session.add(bot)
    uow.session.flush()
    row, plain = accounts.new_token_row(bot, "bot", list(BOT_SCOPES), None)
    uow.commit()
    return BotMade(bot, row, plain)


def bots_of(owner: Account) -> list[Account]:
    """Return the bot accounts ``owner`` holds (not deleted), oldest first."""
    return list(
        db.session.scalars(
            sa.select(Account)
            .where(Account.bot_owner_id == owner.id, Account.deleted_at.is_(None))
            .order_by(Account.created_at, Account.id)
        )
    )


def bot_of(owner: Account, bot_id: str) -> Account:
    """Return ``owner``'s bot account ``bot_id``.

    :raises NotFound: ``bot-not-found`` (none, deleted, or somebody else's).
    """
    bot = db.session.get(Account, bot_id)
    if bot is None or bot.bot_owner_id != owner.id or bot.deleted_at is not None:
        raise NotFound(f"You have no bot account {bot_id!r}.", code="bot-not-found")
    return bot


def new_token(uow: UnitOfWork, owner: Account, bot_id: str) -> BotMade:
    """Give ``owner``'s bot ``bot_id`` a new token and revoke its others (a lost or
    leaked token; their streams end); commits ``uow``.

    :raises NotFound: ``bot-not-found``.
    """
    bot = bot_of(owner, bot_id)
    for old in accounts.list_tokens(bot):
        old.revoked_at = utcnow()
        uow.announce(accounts.TokenRevoked(old.id))
    row, plain = accounts.new_token_row(bot, "bot", list(BOT_SCOPES), None)
    uow.commit()
    return BotMade(bot, row, plain)


def delete_bot(uow: UnitOfWork, owner: Account, bot_id: str) -> None:
    """Delete ``owner``'s bot ``bot_id`` as any account is deleted
    (:func:`arbiter.accounts.accounts.delete`: tokens revoked, streams closed, seats
    keep a placeholder name); commits ``uow``.

    :raises NotFound: ``bot-not-found``.
    """
    accounts.delete(uow, bot_of(owner, bot_id))


def bot_json(bot: Account, made: BotMade | None = None) -> dict:
    """Return a bot account as the API shows it (``token``: right after it was made)."""
    body: dict = {
        "id": bot.id,
        "display_name": bot.display_name,
        "public": bot.bot_public,
        "created_at": iso(bot.created_at),
    }
    if made is not None:
        body["token"] = accounts.token_json(made.token, made.plain)
    return body


def labelled(players: list[Any]) -> list[Any]:
    """Return the players of a creation (:class:`arbiter.games.games.NewPlayer`) with
    each bot account's seat named as a bot's (``Robo (bot)``,
    :func:`arbiter.bots.specs.label`), as built-in bots are: every page, mail and
    record then shows it as a bot."""
    return [replace(p, name=specs.label(p.name)) if p.account else p for p in players]


def seated_bots(ids: list[str | None], creator: Account | None) -> list[Account | None]:
    """Return, for each player of a creation, the bot account its ``account`` names
    (None where it names none).

    A player named by account is a bot account's seat: its owner may seat it, and
    anybody when it is public. A person's account is never seated by id: people are
    named by address, so that they are asked (:mod:`arbiter.games.invitations`).

    :raises Unprocessable: ``unknown-bot`` (no such bot account, deleted, or a
        person's), ``bot-not-yours`` (a private bot of somebody else), ``bot-twice``
        (one bot account named for two seats).
    """
    wanted = [i for i in ids if i]
    if len(set(wanted)) < len(wanted):
        raise Unprocessable("A bot account can hold one seat of a game.", code="bot-twice")
    found = (
        {a.id: a for a in db.session.scalars(sa.select(Account).where(Account.id.in_(wanted)))}
        if wanted
        else {}
    )
    out: list[Account | None] = []
    for ident in ids:
        if not ident:
            out.append(None)
            continue
        bot = found.get(ident)
        if bot is None or not bot.is_bot or bot.deleted_at is not None:
            raise Unprocessable(
                f"There is no bot account {ident!r}; name people by their address.",
                code="unknown-bot",
            )
        mine = creator is not None and creator.id == bot.bot_owner_id
        if not (mine or bot.bot_public):
            raise Unprocessable(
                f"The bot account {bot.display_name!r} plays only in its owner's games.",
                code="bot-not-yours",
            )
        out.append(bot)
    return out
