"""Accounts: sign-up and sign-in by a one-time mailed link, the account itself
(``/v1/me``) and its personal API tokens (``/v1/me/tokens``).

An account is a verified email address: it exists only once somebody has opened a link
mailed to that address. There are no passwords. A link holds a random nonce, stored as
its SHA-256; it expires after ``SIGN_IN_LINK_SECONDS`` and works once (a conditional
UPDATE marks it used). Opening it gives a personal API token with every scope that
expires after ``SIGN_IN_TOKEN_SECONDS``; scripts make narrower tokens with
:func:`create_token`.

Each write goes through a :class:`~arbiter.uow.UnitOfWork` and returns a plain result
(the account, or a small dataclass). What must follow a committed revocation or
deletion (the streams it opened are closed) is announced as a notice,
:class:`TokenRevoked` or :class:`AccountDeleted`, for the committed handlers
(:mod:`arbiter.follow_ups`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlencode

import sqlalchemy as sa

from arbiter import queue, quotas, settings
from arbiter.accounts import identity
from arbiter.errors import ArbiterError, Conflict, Expired, Forbidden, NotFound
from arbiter.extensions import db
from arbiter.hooks import webhooks
from arbiter.mail import consent
from arbiter.mail.mailboxes import mailbox
from arbiter.models import (
    Account,
    ApiToken,
    Invitation,
    OutboxMail,
    Seat,
    SignInLink,
    TournamentEntry,
)
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import UnitOfWork

DELETED_NAME = "(deleted player)"
"""The name a deleted account's seats keep."""


@dataclass(frozen=True)
class TokenRevoked:
    """Notice (:meth:`arbiter.uow.UnitOfWork.announce`): the personal token
    ``token_id`` was revoked; the streams it opened are to be closed."""

    token_id: str


@dataclass(frozen=True)
class AccountDeleted:
    """Notice: the account ``account_id`` was deleted (its tokens revoked); the
    streams it opened are to be closed."""

    account_id: str


@dataclass(frozen=True)
class SignedIn:
    """The result of a sign-in link used (:func:`complete_sign_in`): the account, its
    new personal token's row and that token in plain text (shown once)."""

    account: Account
    token: ApiToken
    plain: str


@dataclass(frozen=True)
class TokenMade:
    """The result of :func:`create_token`: the token's row and the token in plain
    text (shown once)."""

    token: ApiToken
    plain: str


def normal_address(email: str) -> str:
    """Return an email address as accounts store it: trimmed, lower-cased."""
    return email.strip().lower()


def account_by_address(email: str | None) -> Account | None:
    """Return the (not deleted) account of an email address, if there is one."""
    if not email:
        return None
    return db.session.scalar(
        sa.select(Account).where(
            Account.email == normal_address(email), Account.deleted_at.is_(None)
        )
    )


# --------------------------------------------------------------------------- sign-in


def request_link(
    uow: UnitOfWork,
    email: str,
    display_name: str | None = None,
    confirm_path: str = "/v1/auth/confirm",
    client: str = "",
) -> None:
    """Mail a one-time sign-in link to ``email`` (sign-up when it has no account yet).

    The answer never says whether the address has an account, nor whether it opted
    out: a mailbox that unsubscribed from every mail (:func:`arbiter.mail.consent.
    unsubscribe`) is mailed nothing, sign-in links included (somebody else may be
    asking for them), but the link is recorded and counted all the same. The link
    expires after ``SIGN_IN_LINK_SECONDS`` (config, default 900) and works once.
    ``confirm_path`` is the page the link opens (the web pages give their own,
    ``/sign-in/confirm``). Commits ``uow``; returns nothing (the answer is the same
    whatever happened).

    :param client: who asks (:func:`arbiter.limits.caller_key`), for
        ``RATELIMIT_SIGN_IN_CLIENT``.
    :raises arbiter.errors.TooManyRequests: too many links for this mailbox
        (``RATELIMIT_SIGN_IN``) or from this client (``RATELIMIT_SIGN_IN_CLIENT``),
        counted from the recorded links, so across every web process.
    """
    address = normal_address(email)
    box = mailbox(address)
    asker = identity.token_hash(client) if client else None
    _check_link_limits(box, asker)
    nonce = secrets.token_urlsafe(32)
    now = utcnow()
    link = SignInLink(
        nonce_hash=identity.token_hash(nonce),
        email=address,
        mailbox=box,
        client=asker,
        display_name=display_name,
        created_at=now,
        expires_at=now + timedelta(seconds=settings.current().limits.sign_in_link_seconds),
    )
    uow.session.add(link)
    if not consent.opted_out(address):
        mail = _link_mail(address, nonce, link.nonce_hash, confirm_path)
        uow.session.add(mail)
        uow.enqueue_row(queue.SEND_MAIL, mail)
    uow.commit()


def _check_link_limits(box: str, client: str | None) -> None:
    """Count the sign-in links recorded for mailbox ``box`` and for ``client`` (on
    PostgreSQL under transaction locks on both keys, so that concurrent requests are
    counted one after the other; SQLite's transactions already are).

    :raises arbiter.errors.TooManyRequests: ``rate-limited``.
    """
    if db.engine.dialect.name == "postgresql":
        for key in (f"sign-in-client:{client}", f"sign-in:{box}"):
            db.session.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(key))))

    def recorded(column, value):
        def count(since):
            return db.session.execute(
                sa.select(sa.func.count(), sa.func.min(SignInLink.created_at)).where(
                    column == value, SignInLink.created_at > since
                )
            ).one()

        return count

    if client:
        quotas.check_recorded("sign_in_client", recorded(SignInLink.client, client))
    quotas.check_recorded("sign_in", recorded(SignInLink.mailbox, box))


def _link_mail(address: str, nonce: str, nonce_hash: str, confirm_path: str) -> OutboxMail:
    """Return the sign-in mail holding the link's ``nonce``."""
    url = f"{settings.current().service.base_url}{confirm_path}?" + urlencode(
        {"email": address, "token": nonce}
    )
    minutes = settings.current().limits.sign_in_link_seconds // 60
    return OutboxMail(
        dedupe_key=f"sign-in:{nonce_hash}",
        game_id=None,
        seat=None,
        to_addr=address,
        subject="[Arbiter] Your sign-in link",
        body="\n".join(
            [
                "Hello,",
                "",
                "Somebody (we hope you) asked to sign in to Arbiter with this address.",
                f"Open this link within {minutes} minutes to sign in; it works once:",
                "",
                url,
                "",
                "A script can use the link's token instead: POST /v1/auth/sessions with",
                f'{{"email": "{address}", "token": "{nonce}"}}.',
                "",
                "If you did not ask for this, ignore this mail: nothing happens without "
                "the link. To get no mail from Arbiter at all, not even sign-in links, "
                "use the unsubscribe link of this mail.",
            ]
        ),
    )


def complete_sign_in(uow: UnitOfWork, email: str, nonce: str) -> SignedIn:
    """Use a sign-in link (commits ``uow``): return the account (created on first
    sign-in), a new personal token with every scope, and that token in plain text
    (shown once).

    Seats of earlier games that named this address are linked to the account.

    :raises ArbiterError: 400 ``bad-link`` (no such link), 400 ``link-wrong-address``
        (made for another address; the link stays usable), 409 ``link-used``, 410
        ``link-expired``.
    """
    address = normal_address(email)
    digest = identity.token_hash(nonce)
    link = db.session.get(SignInLink, digest)
    if link is None:
        raise ArbiterError("This sign-in link is not valid; ask for a new one.", code="bad-link")
    if not secrets.compare_digest(link.email, address):
        raise ArbiterError(
            "This sign-in link was made for another address.", code="link-wrong-address"
        )
    now = utcnow()
    if link.used_at is None and link.expires_at <= now:
        raise Expired("This sign-in link has expired; ask for a new one.", code="link-expired")
    used = db.session.execute(
        sa.update(SignInLink)
        .where(
            SignInLink.nonce_hash == digest,
            SignInLink.used_at.is_(None),
            SignInLink.expires_at > now,
        )
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    ).rowcount
    if used != 1:
        uow.rollback()
        raise Conflict(
            "This sign-in link has already been used; ask for a new one.", code="link-used"
        )
    account = account_by_address(address) or new_account(address, link.display_name)
    link_seats(account)
    row, plain = sign_in_token(account)
    uow.commit()
    return SignedIn(account, row, plain)


def new_account(email: str, display_name: str | None) -> Account:
    """Add the account of a just-verified address (flushed, not committed)."""
    address = normal_address(email)
    account = Account(
        id=secrets.token_hex(8),
        email=address,
        display_name=(display_name or address.split("@")[0])[:80],
        tz="UTC",
        digest=False,
        mail_off=False,
        created_at=utcnow(),
    )
    db.session.add(account)
    db.session.flush()
    return account


def sign_in_token(account: Account) -> tuple[ApiToken, str]:
    """Add a personal token with every scope that lasts ``SIGN_IN_TOKEN_SECONDS``
    (not committed); return it and its plain text."""
    expires = utcnow() + timedelta(seconds=settings.current().limits.sign_in_token_seconds)
    return new_token_row(account, "sign-in", list(identity.SCOPES), expires)


def link_seats(account: Account) -> int:
    """Link the unclaimed seats that name the account's address to it, except seats
    offered by an invitation (those wait for its answer); return how many."""
    invited = sa.select(Invitation.id).where(
        Invitation.game_id == Seat.game_id, Invitation.seat == Seat.seat
    )
    return db.session.execute(
        sa.update(Seat)
        .where(
            sa.func.lower(Seat.email) == account.email, Seat.account_id.is_(None), ~invited.exists()
        )
        .values(account_id=account.id, digest=account.digest, mail_off=account.mail_off)
        .execution_options(synchronize_session=False)
    ).rowcount


# --------------------------------------------------------------------------- /v1/me


def me(account: Account) -> dict:
    """Return ``{"id", "email", "display_name", "tz", "digest", "notify",
    "digest_hour", "created_at", "bot"}`` (``bot``: a bot account's owner id and
    whether it is public, else None)."""
    return {
        "id": account.id,
        "email": account.email,
        "display_name": account.display_name,
        "tz": account.tz,
        "digest": account.digest,
        "notify": account.notify or "turn",
        "digest_hour": account.digest_hour,
        "created_at": iso(account.created_at),
        "bot": {"owner": account.bot_owner_id, "public": account.bot_public}
        if account.is_bot
        else None,
    }


def update(uow: UnitOfWork, account: Account, changes: dict) -> Account:
    """Change ``display_name``, ``tz`` (IANA zone), ``digest`` (bool), ``notify``
    (``turn``, ``digest`` or ``none``, for all games: :mod:`arbiter.games.preferences`)
    or ``digest_hour`` (0-23 in the account's zone, None: as soon as due) (commits
    ``uow``); return the account (:func:`me` shows it). Validation is the caller's
    schema's."""
    for key in ("display_name", "tz", "digest"):
        if key in changes and changes[key] is not None:
            setattr(account, key, changes[key])
    if changes.get("digest") is not None and "notify" not in changes:
        account.notify = "digest" if changes["digest"] else "turn"
    if changes.get("notify") is not None:
        account.notify, account.digest = changes["notify"], changes["notify"] == "digest"
        changes = {**changes, "digest": account.digest}
    if "digest_hour" in changes:
        account.digest_hour = changes["digest_hour"]
    copied = {key: getattr(account, key) for key in ("display_name", "digest") if key in changes}
    if copied:
        uow.session.execute(
            sa.update(Seat)
            .where(Seat.account_id == account.id)
            .values(**{"name" if k == "display_name" else k: v for k, v in copied.items()})
            .execution_options(synchronize_session=False)
        )
    uow.commit()
    return account


def delete(uow: UnitOfWork, account: Account) -> None:
    """Erase the account's address and name; revoke its tokens; delete its web hooks
    (URLs, secrets, delivery logs). Its seats and tournament entries keep the
    placeholder name ``DELETED_NAME`` (seats no address); the game and tournament logs
    are untouched (a tournament log shows an entry's current name on reading: see
    ``arbiter.tournaments.tournament_log.event_json``). Commits ``uow`` and announces
    :class:`AccountDeleted` (the streams the account opened are then closed). The
    bot accounts it owns are deleted with it."""
    bots = sa.select(Account).where(
        Account.bot_owner_id == account.id, Account.deleted_at.is_(None)
    )
    for bot in uow.session.scalars(bots).all():
        _erase(uow, bot)
    _erase(uow, account)
    uow.commit()


def _erase(uow: UnitOfWork, account: Account) -> None:
    """Erase one account as :func:`delete` says (not committed)."""
    session = uow.session
    now = utcnow()
    webhooks.delete_all(session, account)
    session.execute(
        sa.update(Seat)
        .where(Seat.account_id == account.id)
        .values(name=DELETED_NAME, email=None)
        .execution_options(synchronize_session=False)
    )
    session.execute(
        sa.update(TournamentEntry)
        .where(TournamentEntry.account_id == account.id)
        .values(name=DELETED_NAME)
        .execution_options(synchronize_session=False)
    )
    session.execute(
        sa.update(ApiToken)
        .where(ApiToken.account_id == account.id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    account.email = None
    account.display_name = DELETED_NAME
    account.deleted_at = now
    uow.announce(AccountDeleted(account.id))


# --------------------------------------------------------------------------- tokens


def new_token_row(
    account: Account, name: str, scopes: list[str], expires_at
) -> tuple[ApiToken, str]:
    """Add a personal token row (not committed); return it and its plain text."""
    plain = identity.TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(
        id=secrets.token_hex(8),
        account_id=account.id,
        name=name,
        token_hash=identity.token_hash(plain),
        scopes=sorted(set(scopes)),
        created_at=utcnow(),
        expires_at=expires_at,
    )
    db.session.add(row)
    return row, plain


def create_token(
    uow: UnitOfWork,
    account: Account,
    name: str,
    scopes: list[str],
    expires_in: int | None = None,
    held: frozenset[str] | None = None,
) -> TokenMade:
    """Make a personal API token (commits ``uow``); return the row and the token
    (shown once).

    :param scopes: a subset of :data:`arbiter.accounts.identity.SCOPES` (the caller's
        schema checks the names). :param expires_in: seconds, or None for no expiry.
    :param held: the scopes of the token (or signed-in session) that asks, with the
        ones they imply: a token makes only tokens whose scopes it holds itself.
    :raises Forbidden: ``scope-not-held``: a scope the asking token lacks.
    """
    missing = sorted(set(scopes) - held) if held is not None else []
    if missing:
        raise Forbidden(
            f"A token can only make tokens with scopes it holds itself; this one lacks "
            f"{', '.join(missing)}. Use a token that has them (signing in gives every scope).",
            code="scope-not-held",
        )
    _check_token_cap(uow, account)
    expires = utcnow() + timedelta(seconds=expires_in) if expires_in else None
    row, plain = new_token_row(account, name, scopes, expires)
    uow.commit()
    return TokenMade(row, plain)


def _check_token_cap(uow: UnitOfWork, account: Account) -> None:
    """Count the account's live tokens (neither revoked nor expired; on PostgreSQL
    under a transaction lock on the account, so that concurrent requests are counted
    one after the other; SQLite's transactions already are).

    :raises Conflict: ``too-many-tokens`` at ``TOKENS_PER_ACCOUNT`` (with ``limit``).
    """
    cap = settings.current().limits.tokens_per_account
    if db.engine.dialect.name == "postgresql":
        key = f"tokens:{account.id}"
        uow.session.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(key))))
    now = utcnow()
    live = uow.session.scalar(
        sa.select(sa.func.count())
        .select_from(ApiToken)
        .where(
            ApiToken.account_id == account.id,
            ApiToken.revoked_at.is_(None),
            sa.or_(ApiToken.expires_at.is_(None), ApiToken.expires_at > now),
        )
    )
    if live >= cap:
        uow.rollback()
        raise Conflict(
            f"You already hold {live} personal tokens, the most one account may hold "
            f"({cap}). Revoke the ones you no longer use, then make this one.",
            code="too-many-tokens",
            extra={"limit": cap},
        )


def token_json(row: ApiToken, plain: str | None = None) -> dict:
    """Return a token as the API shows it (``token`` only right after creation)."""
    body = {
        "id": row.id,
        "name": row.name,
        "scopes": list(row.scopes),
        "created_at": iso(row.created_at),
        "last_used_at": iso(row.last_used_at),
        "expires_at": iso(row.expires_at),
    }
    if plain is not None:
        body["token"] = plain
    return body


def tokens_of(account: Account) -> sa.Select:
    """Return the select of the account's tokens that are not revoked, oldest first
    (for a page of it: ``GET /v1/me/tokens``)."""
    return (
        sa.select(ApiToken)
        .where(ApiToken.account_id == account.id, ApiToken.revoked_at.is_(None))
        .order_by(ApiToken.created_at, ApiToken.id)
    )


def list_tokens(account: Account) -> list[ApiToken]:
    """Return the account's tokens that are not revoked, oldest first."""
    return list(db.session.scalars(tokens_of(account)))


def revoke_token(uow: UnitOfWork, account: Account, token_id: str) -> None:
    """Revoke one of the account's tokens (commits ``uow``): it opens nothing from
    now on; announces :class:`TokenRevoked` (the streams it opened are then closed).

    :raises NotFound: ``token-not-found`` (not the account's, or already revoked).
    """
    done = uow.session.execute(
        sa.update(ApiToken)
        .where(
            ApiToken.id == token_id,
            ApiToken.account_id == account.id,
            ApiToken.revoked_at.is_(None),
        )
        .values(revoked_at=utcnow())
        .execution_options(synchronize_session=False)
    ).rowcount
    if done != 1:
        uow.rollback()
        raise NotFound(f"You have no token {token_id!r}.", code="token-not-found")
    uow.announce(TokenRevoked(token_id))
    uow.commit()
