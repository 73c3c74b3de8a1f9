"""A reply to an invitation mail: ``accept``, ``decline`` or ``block``, by mail.

The invitation mail's ``Reply-To`` is the seat's capability address of version
:data:`arbiter.games.invitations.REPLY_VERSION`. A reply to it is acted on only
when the capability verifies, the sender (From and envelope) is the invited address
and its authentication does not fail (:mod:`arbiter.mailin.process` checks the
capability and automatic mail first). Its first command line decides:

The first line that says yes or no in words decides (:mod:`arbiter.mailin.yes_no`:
"Yes, count me in!", "ok", "sure", "no thanks"; a greeting and a signature around it
do not matter); a reply that says neither gets one answer saying what to write.

``accept``
    the invitation is accepted as by its link (once: a second ``accept`` is refused
    with ``invitation-answered``), the seat joins the address's account (made now),
    and the address, now agreeing to game mail, gets an answer;
``decline`` / ``block``
    declined (and every later invitation refused); nothing is mailed back, since the
    address did not agree to mail.

Any other mail from an address that has not accepted is recorded and dropped
unanswered (an address that has not agreed gets nothing but its one invitation).
An answer is written only when the address has agreed to mail after the command
(:func:`arbiter.mail.identity.seat_address`).
"""

from __future__ import annotations

from dataclasses import asdict

import sqlalchemy as sa

from arbiter import idempotency, problems
from arbiter.accounts.identity import seat_grant
from arbiter.errors import ArbiterError
from arbiter.extensions import db
from arbiter.games import invitations, naming
from arbiter.games.invitations import REPLY_VERSION
from arbiter.mail import capability, identity
from arbiter.mail.capability import Capability
from arbiter.mailin import answer, authentication, commands, yes_no
from arbiter.mailin.message import Incoming
from arbiter.mailin.refusal import Refused, check_rate, check_sender
from arbiter.models import Game, InboundMail, OutboxMail
from arbiter.uow import UnitOfWork

WORDS = {"accept": "accepted", "decline": "declined", "block": "blocked"}
"""The commands a reply to an invitation may carry, and what each makes of it."""


def reply(
    row: InboundMail, incoming: Incoming, envelope: str | None, cap: Capability, game: Game
) -> tuple[str, str, OutboxMail | None]:
    """Act on a reply to the invitation of ``cap``'s seat; return ``(outcome, detail,
    answer or None)``.

    :raises Refused: ``refused-capability`` (the seat was not invited),
        ``refused-sender``, ``refused-authentication``, ``refused-not-accepted`` (not
        one of :data:`WORDS`, from an address that has not accepted).
    """
    invitation = invitations.of_seat(game.id, cap.seat)
    if invitation is None:
        raise Refused("refused-capability", "The reply address names no invitation.")
    check_sender(envelope, incoming, invitation.email)
    failed = authentication.failure(incoming.msg, incoming.sender)
    if failed:
        raise Refused("refused-authentication", f"Authentication-Results: {failed}.")
    check_rate(invitation.email)
    lines = commands.lines_of(incoming.text, incoming.subject)
    found = yes_no.answer_of(lines)
    word, line = found if found else ("", lines[0] if lines else "")
    if word not in WORDS:
        if identity.seat_address(game.seats[cap.seat]) is None:
            told = _what_to_write(row, incoming, invitation, game)
            if told is None:
                raise Refused(
                    "refused-not-accepted",
                    "Mail from an invited address that has not accepted is read only "
                    "for a yes or a no; it was told what to write once already.",
                )
            return "answered", "unreadable", told
        done = commands.Done(
            line,
            False,
            "This address answers an "
            "invitation: reply accept, decline or block; reply to your "
            "turn mails to play.",
            "not-an-invitation-command",
        )
        return "answered", done.code, _answer(row, incoming, cap, done)
    try:
        once(row, invitation.id, line, word, incoming.sender)
        if word == "accept":
            done = commands.Done(line, True, _accepted_text(cap.game_id, cap.seat))
        else:
            done = commands.Done(line, True, f"Invitation {WORDS[word]}.")
    except ArbiterError as err:
        db.session.rollback()
        done = commands.Done(line, False, *problems.refusal(err))
    summary = f"{word!r}: {'ok' if done.ok else done.code}"
    db.session.expire_all()  # the seat may have joined an account meanwhile
    game = db.session.get(Game, cap.game_id)
    if identity.seat_address(game.seats[cap.seat]) is None:
        return f"invitation-{WORDS[word] if done.ok else 'refused'}", summary, None
    return "answered", summary, _answer(row, incoming, cap, done)


def once(row: InboundMail, invitation_id: str, line: str, word: str, sender: str) -> None:
    """Answer the invitation as ``word`` says, once per message: the answer is kept
    under a key made from the mail's Message-ID (:mod:`arbiter.idempotency`), so a
    message processed again (a worker that died after the commit) is not refused
    ``invitation-answered`` by its own first answer.

    :raises ArbiterError: as :func:`arbiter.games.invitations.accept` and ``decline``.
    """
    command = invitations.Answer(invitation_id, mailed_from=sender, block=word == "block")
    action = invitations.accept if word == "accept" else invitations.decline
    idempotency.answer(
        f"mail-invitation:{invitation_id}",
        commands.key_for(row.message_id, 0),
        {"text": line},
        201,
        asdict,
        lambda keeper: action(UnitOfWork(keeper=keeper), command),
        route=f"MAIL {word}",
    )


def _accepted_text(game_id: str, seat: int) -> str:
    """Return the sentences that confirm an accepted invitation."""
    game = db.session.get(Game, game_id)
    then = (
        "The game has started: your turn mails will come to this address."
        if game.status == "active"
        else "The game starts when every invited player has accepted"
        + (f", or at {game.start_at:%Y-%m-%d %H:%M} UTC." if game.start_at else ".")
    )
    return (
        f"Invitation accepted: you play as {game.seats[seat].name} in "
        f"{naming.game_words(game, seat)}. {then}"
    )


def _what_to_write(
    row: InboundMail, incoming: Incoming, invitation, game: Game
) -> OutboxMail | None:
    """Return the one answer an invited address that has not accepted gets to a reply
    that says neither yes nor no: what to write (once per invitation: its dedupe key
    is the invitation's, so a second unreadable reply is recorded unanswered)."""
    key = f"invite-help:{invitation.id}"
    if db.session.scalar(sa.select(OutboxMail.id).where(OutboxMail.dedupe_key == key)):
        return None
    subject = " ".join(incoming.subject.split()) or "Your invitation"
    headers = {
        "Auto-Submitted": "auto-replied",
        "Reply-To": capability.reply_address(game.id, invitation.seat, REPLY_VERSION),
    }
    if incoming.message_id:
        headers["In-Reply-To"] = incoming.message_id
        headers["References"] = incoming.message_id
    return OutboxMail(
        dedupe_key=key,
        game_id=game.id,
        seat=invitation.seat,
        to_addr=invitation.email,
        subject=(subject if subject.lower().startswith("re:") else f"Re: {subject}")[:300],
        body="\n".join(
            [
                "Hello,",
                "",
                "We could not read a yes or a no in your reply to the invitation.",
                'To play, reply with "yes" (or "accept", "count me in").',
                'To say no, reply "no" (or "decline"); "block" refuses every invitation '
                "to this address.",
                "",
                "This is the only answer you get to such a reply.",
            ]
        ),
        headers=headers,
    )


def _answer(
    row: InboundMail, incoming: Incoming, cap: Capability, done: commands.Done
) -> OutboxMail:
    """Return the answer mail, threaded, as to any command mail."""
    return answer.build(row, incoming, seat_grant(cap.game_id, cap.seat), [done])
