"""Accounts (a verified email address), their personal API tokens and the one-time
sign-in links that prove an address."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class Account(db.Model):
    """A person: a verified email address, a display name and a time zone.

    ``email`` is unique and lower-cased; it and ``display_name`` are erased when the
    account is deleted (``deleted_at`` set), the row stays so that seats keep their link.
    ``digest``: "your turn" mails are gathered into one daily digest instead of one
    mail per game (``digest_sent_at``: when the last one went). ``mail_off``: the
    address unsubscribed from everything. ``notify``: how turns are told in all games
    (``turn``: a mail per turn, ``digest``: one daily digest, ``none``: no turn mail;
    ``digest`` mirrors ``notify == "digest"``); ``digest_hour``: the hour (0-23, in
    the account's zone) the digest goes, None for as soon as a game is due.
    A bot account (``bot_owner_id`` set) has
    no address at all and is never mailed (:mod:`arbiter.accounts.bot_accounts`).
    """

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    email: Mapped[str | None] = mapped_column(sa.String(254), unique=True, nullable=True)
    display_name: Mapped[str] = mapped_column(sa.String(80))
    tz: Mapped[str] = mapped_column(sa.String(64), default="UTC")
    digest: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    mail_off: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    digest_sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    notify: Mapped[str] = mapped_column(sa.String(8), default="turn", server_default="turn")
    digest_hour: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    bot_owner_id: Mapped[str | None] = mapped_column(
        sa.ForeignKey("accounts.id"), nullable=True, index=True
    )
    """A bot account's owner (the person who made it); None for a person."""
    bot_public: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    """A bot account anybody may seat by its id (else only its owner)."""

    @property
    def is_bot(self) -> bool:
        """True for a bot account (no address, never mailed, play-scoped tokens)."""
        return self.bot_owner_id is not None


class ApiToken(db.Model):
    """A personal API token of an account: shown once, stored as its SHA-256.

    ``scopes`` is a list such as ``["games:play", "games:create"]``; ``last_used_at``
    is refreshed at most once a minute; a revoked (``revoked_at``) or expired
    (``expires_at`` in the past) token opens nothing.
    """

    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(sa.ForeignKey("accounts.id"), index=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    scopes: Mapped[list] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class SignInLink(db.Model):
    """A one-time link mailed to ``email``: the SHA-256 of its nonce, when it expires,
    and when it was used (a conditional UPDATE sets ``used_at`` once).

    The rows are also what the sign-in limits count, in the database so that every
    web process sees them: ``mailbox`` (``email`` folded,
    :mod:`arbiter.mail.mailboxes`) for ``RATELIMIT_SIGN_IN``, ``client`` (the
    SHA-256 of the asking client's limit key) for ``RATELIMIT_SIGN_IN_CLIENT``. A
    link is recorded even when nothing is mailed (a mailbox that opted out of all
    mail), so the answers are the same."""

    __tablename__ = "sign_in_links"

    nonce_hash: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    email: Mapped[str] = mapped_column(sa.String(254), index=True)
    display_name: Mapped[str | None] = mapped_column(sa.String(80), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    mailbox: Mapped[str | None] = mapped_column(sa.String(254), nullable=True)
    client: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)

    __table_args__ = (
        sa.Index("ix_sign_in_links_mailbox_created_at", "mailbox", "created_at"),
        sa.Index("ix_sign_in_links_client_created_at", "client", "created_at"),
    )
