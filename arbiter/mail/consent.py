"""Who may be mailed: consent, unsubscribing (RFC 8058 one-click) and the outbox's
refusal to queue game mail to an address that has not agreed to it.

An address agrees by being an account (a verified address: it opened a mailed link,
or accepted an invitation). An account's seat gets game mail (turn, reminder, digest,
result) unless it unsubscribed from that game (``seats.mail_off``) or from everything
(``accounts.mail_off``, copied onto its seats). An address that is not an account gets
one invitation mail and nothing else, and only when a signed-in account invites it
(:func:`arbiter.accounts.inviters.check_inviter`).

What an address has refused is kept per mailbox (:mod:`arbiter.mail.mailboxes`:
case and ``+tag`` folded): blocking invitations, and unsubscribing from everything,
which stops every mail to the mailbox, sign-in links included, until a click on
"Mail me again" in the unsubscribe page of any earlier mail (:func:`resubscribe`).

Every mail carries ``List-Unsubscribe`` (an HTTPS link holding a signed token, from
itsdangerous) and ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``; a POST to the
link stops mail for that game, or for everything when the mail belongs to no game.
"""

from __future__ import annotations

import sqlalchemy as sa
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import event
from sqlalchemy.orm import Session

from arbiter import settings
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.mail.mailboxes import mailbox
from arbiter.models import Account, ConsentEvent, MailAddress, OutboxMail, Seat, game_record
from arbiter.models.timestamps import utcnow

GAME_MAIL = ("turn:", "over:", "remind:", "digest:", "answer:")
"""Outbox kinds (``dedupe_key`` prefixes) that need the recipient's consent."""


class NoConsent(Exception):
    """A game mail was about to be queued to an address that has not agreed to it."""


def may_mail(seat: Seat) -> bool:
    """True when game mail may go to this seat's address: it has one, the seat is held
    by an account (a verified address), and mail was not turned off."""
    return bool(seat.email) and seat.account_id is not None and not seat.mail_off


def record(email: str, kind: str, game_id: str | None = None) -> None:
    """Add one answer to the consent record (committed by the caller)."""
    db.session.add(ConsentEvent(email=email.lower(), kind=kind, game_id=game_id, at=utcnow()))


@event.listens_for(Session, "before_flush")
def _refuse_unconsented(session, flush_context, instances) -> None:
    """The outbox refuses game mail without consent: every new game mail row must be
    for a seat that :func:`may_mail` (looked up in the session: the seats were loaded
    with their game, so this costs no query on the move path)."""
    for row in session.new:
        if not isinstance(row, OutboxMail) or not row.dedupe_key.startswith(GAME_MAIL):
            continue
        seat = _seat_of(session, row.game_id, row.seat) if row.game_id else None
        if seat is None or not may_mail(seat) or seat.email.lower() != row.to_addr.lower():
            raise NoConsent(f"outbox refused {row.dedupe_key}: no consent from the address")


def _seat_of(session: Session, game_id: str, seat: int):
    """Return seat ``seat`` of ``game_id`` as the session's transaction read it: from
    the game record it holds (a move reads its game as one,
    :mod:`arbiter.models.game_record`), else the row (from its identity map, or read)."""
    record = game_record.held(session, game_id)
    if record is not None and 0 <= seat < len(record.seats):
        return record.seats[seat]
    return session.get(Seat, (game_id, seat))


# --------------------------------------------------------------------------- unsubscribe


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(settings.current().service.secret_key, salt="arbiter.unsubscribe")


def unsubscribe_url(email: str, game_id: str | None) -> str:
    """Return the one-click unsubscribe link for a mail to ``email`` about ``game_id``
    (None: every mail)."""
    token = _signer().dumps({"e": email.lower(), "g": game_id})
    return f"{settings.current().service.base_url}/v1/unsubscribe?t={token}"


def list_unsubscribe_headers(email: str, game_id: str | None) -> dict[str, str]:
    """Return the RFC 8058 headers every mail carries."""
    return {
        "List-Unsubscribe": f"<{unsubscribe_url(email, game_id)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def read_token(token: str) -> tuple[str, str | None]:
    """Return ``(email, game_id or None)`` of an unsubscribe token.

    :raises ArbiterError: 400 ``bad-unsubscribe-link`` for a forged or damaged one.
    """
    try:
        data = _signer().loads(token)
        return str(data["e"]), data.get("g")
    except (BadSignature, KeyError, TypeError):
        raise ArbiterError(
            "This unsubscribe link is not valid (it may have been cut or "
            "changed); use the link from the mail.",
            code="bad-unsubscribe-link",
        ) from None


def unsubscribe(token: str) -> dict:
    """Stop mail as the signed token says: for one game (that address's seats in it), or
    for everything (the account, all its seats, further invitations, and any other mail
    to the mailbox: sign-in links too). Recorded in the consent record. Returns
    ``{"email", "game_id", "scope"}``; doing it twice is harmless.

    :raises ArbiterError: ``bad-unsubscribe-link``.
    """
    email, game_id = read_token(token)
    seats = sa.update(Seat).where(sa.func.lower(Seat.email) == email)
    if game_id:
        db.session.execute(
            seats.where(Seat.game_id == game_id)
            .values(mail_off=True)
            .execution_options(synchronize_session=False)
        )
        record(email, "unsubscribed", game_id)
    else:
        db.session.execute(seats.values(mail_off=True).execution_options(synchronize_session=False))
        db.session.execute(
            sa.update(Account)
            .where(Account.email == email)
            .values(mail_off=True)
            .execution_options(synchronize_session=False)
        )
        block(email)
        row = address(email)
        row.opted_out_at = row.opted_out_at or utcnow()
        record(email, "unsubscribed-all")
    db.session.commit()
    return {"email": email, "game_id": game_id, "scope": "game" if game_id else "all"}


def resubscribe(token: str) -> dict:
    """Undo what the signed unsubscribe token stopped ("Mail me again"): for one game,
    that address's seats in it get game mail again; for everything, the mailbox may
    be mailed again (sign-in links, invitations) and the account and every seat of
    the address get game mail again. Recorded (``resubscribed``,
    ``resubscribed-all``). Returns ``{"email", "game_id", "scope"}``.

    :raises ArbiterError: ``bad-unsubscribe-link``.
    """
    email, game_id = read_token(token)
    seats = sa.update(Seat).where(sa.func.lower(Seat.email) == email)
    if game_id:
        seats = seats.where(Seat.game_id == game_id)
    db.session.execute(seats.values(mail_off=False).execution_options(synchronize_session=False))
    if game_id:
        record(email, "resubscribed", game_id)
    else:
        db.session.execute(
            sa.update(Account)
            .where(Account.email == email)
            .values(mail_off=False)
            .execution_options(synchronize_session=False)
        )
        row = address(email)
        row.opted_out_at = row.blocked_at = None
        record(email, "resubscribed-all")
    db.session.commit()
    return {"email": email, "game_id": game_id, "scope": "game" if game_id else "all"}


def opted_out(email: str) -> bool:
    """True when the mailbox of ``email`` unsubscribed from everything (no mail at all
    may go to it)."""
    row = db.session.get(MailAddress, mailbox(email))
    return row is not None and row.opted_out_at is not None


def address(email: str) -> MailAddress:
    """Return the row of the mailbox of ``email`` (added, not committed, when new)."""
    key = mailbox(email)
    row = db.session.get(MailAddress, key)
    if row is None:
        row = MailAddress(email=key)
        db.session.add(row)
    return row


def block(email: str) -> None:
    """Refuse every further invitation to the mailbox of ``email`` (not committed)."""
    row = address(email)
    row.blocked_at = row.blocked_at or utcnow()
