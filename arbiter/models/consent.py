"""Consent to mail: invitations to addresses that are not accounts, what each address
has agreed to or refused, and the record of every such answer."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from arbiter.extensions import db
from arbiter.models.timestamps import UTCDateTime, utcnow


class Invitation(db.Model):
    """A seat offered to an email address that is not an account yet.

    ``status``: ``pending``, ``accepted``, ``declined`` (also by blocking) or
    ``expired`` (the game started or was cancelled without an answer). ``nonce_hash``
    is the SHA-256 of the secret in the mailed links; ``mailed`` says whether this
    invitation was mailed (a mailbox gets one invitation mail, ever, unless it
    accepts). ``mailbox`` is ``email`` folded (:mod:`arbiter.mail.mailboxes`);
    ``inviter`` the folded mailbox of the creating account, by which the daily budget
    of invited addresses is counted (``INVITES_PER_DAY``).
    """

    __tablename__ = "invitations"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(sa.Integer)
    email: Mapped[str] = mapped_column(sa.String(254), index=True)
    mailbox: Mapped[str | None] = mapped_column(sa.String(254), nullable=True)
    inviter: Mapped[str | None] = mapped_column(sa.String(254), nullable=True)
    nonce_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    status: Mapped[str] = mapped_column(sa.String(16), default="pending")
    mailed: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    __table_args__ = (sa.Index("ix_invitations_inviter_created_at", "inviter", "created_at"),)


class MailAddress(db.Model):
    """What one mailbox (an address folded by :mod:`arbiter.mail.mailboxes`:
    lower-cased, ``+tag`` dropped) has been sent or has refused: ``invited_at`` is when
    its one invitation mail was queued; ``blocked_at`` when it blocked every invitation
    (or unsubscribed from everything); ``opted_out_at`` when it unsubscribed from
    everything: no mail at all goes to it, sign-in links included, until it asks for
    mail again (:func:`arbiter.mail.consent.resubscribe`)."""

    __tablename__ = "mail_addresses"

    email: Mapped[str] = mapped_column(sa.String(254), primary_key=True)
    invited_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    blocked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    opted_out_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class ConsentEvent(db.Model):
    """One answer about mail, never changed: ``invited``, ``accepted``, ``declined``,
    ``blocked``, ``unsubscribed`` (one game) or ``unsubscribed-all``."""

    __tablename__ = "consent_events"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(sa.String(254), index=True)
    kind: Mapped[str] = mapped_column(sa.String(32))
    game_id: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
