"""Messages: post one on a channel, hide one (the creator, an organiser), report one,
and read them as a reader may.

Every channel (REST, the page, mail) makes one of the commands below and calls the
function beside it with a :class:`~arbiter.uow.UnitOfWork`; the rules of who may do
what are :mod:`arbiter.talk.readers`'.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import engines
from arbiter import settings
from arbiter.accounts.accounts import DELETED_NAME
from arbiter.accounts.identity import Principal
from arbiter.errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from arbiter.extensions import db
from arbiter.models import Account, Game, TalkEvent
from arbiter.models.timestamps import iso
from arbiter.talk import checks, kinds, log, options
from arbiter.talk.readers import (
    Reader,
    author_of,
    deleted_authors,
    game_of,
    may_read,
    reader_of,
)
from arbiter.uow import UnitOfWork

MAX_REASON = 500


@dataclass(frozen=True)
class PostMessage:
    """A message from any channel: ``text`` on ``channel`` (``to``: the seat of a
    private message), by ``who`` (a principal, a seat grant, a raw token; ``account``:
    the page's signed-in account), ``via`` the channel it came by."""

    game_id: str
    who: Principal | str | None
    channel: str
    text: str
    to: int | None = None
    via: str = "api"
    account: Account | None = None


@dataclass(frozen=True)
class MessageShown:
    """A message as a reader reads it (the answer to a post, each item of a list).

    ``text`` is None when the message was hidden (``hidden`` true)."""

    n: int
    channel: str
    seat: int | None
    to: int | None
    name: str
    text: str | None
    hidden: bool
    at: str | None


def post_message(uow: UnitOfWork, command: PostMessage) -> MessageShown:
    """Post a message; return it as its author reads it.

    :raises Unauthorized: ``sign-in-to-talk`` (a spectator without an account);
        :raises Forbidden: ``not-a-player`` (the table or private channel without a
        seat), ``spectators-only`` (a player on the spectators' channel while the game
        runs), ``press-not-allowed`` (private messages are off in this game);
        :raises Unprocessable: ``bad-channel``, ``to-only-private`` (``to`` on another
        channel than private), ``no-such-seat``, ``private-to-self``,
        ``empty-message``, ``message-too-long``, ``bad-characters``;
        :raises Conflict: ``game-cancelled``; :raises TooManyRequests:
        ``talk-rate-limited``. Nothing is written when one is raised.
    """
    game = game_of(command.game_id)
    reader = reader_of(game, command.who, command.account)
    to = _check_channel(game, reader, command.channel, command.to)
    text = checks.text(command.text, settings.current().talk.message_chars)
    author = author_of(game, reader)
    checks.rate(game.id, author)
    entry = kinds.Message(
        author=author,
        seat=reader.seat,
        channel=command.channel,
        to_seat=to,
        name=name_of(game, reader),
        text=text,
        via=command.via,
    )
    return log.append(uow, game.id, entry, lambda row: shown(row, False))


def _check_channel(game: Game, reader: Reader, channel: str, to: int | None) -> int | None:
    """Check that ``reader`` may post on ``channel`` (to seat ``to``); return the seat
    a private message goes to (None on the other channels). Raises as
    :func:`post_message` says."""
    if channel not in kinds.CHANNELS:
        raise Unprocessable(
            f"There is no channel {str(channel)[:40]!r}: write on table, private or spectators.",
            code="bad-channel",
        )
    if to is not None and channel != "private":
        raise Unprocessable(
            f"A message on the {channel} channel goes to everyone there; 'to' names the "
            "seat of a private message only: leave it out, or write on the private channel.",
            code="to-only-private",
        )
    if game.status == "cancelled":
        raise Conflict("This game was cancelled: nobody talks here.", code="game-cancelled")
    if channel == "spectators":
        if reader.seat is not None and game.status != "over":
            raise Forbidden(
                "The spectators' channel is the spectators' while the game runs.",
                code="spectators-only",
            )
        if reader.seat is None and reader.account is None:
            raise Unauthorized(
                "Sign in (a personal token) to talk with the other spectators.",
                code="sign-in-to-talk",
            )
        return None
    if reader.seat is None:
        raise Forbidden(f"Only the players write on the {channel} channel.", code="not-a-player")
    if channel == "table":
        return None
    return _private_to(game, reader, to)


def _private_to(game: Game, reader: Reader, to: int | None) -> int:
    """Return the seat a private message goes to, checked."""
    if not press_allowed(game):
        raise Forbidden(
            "Private messages are off in this game (its creator did not allow press).",
            code="press-not-allowed",
        )
    if to is None or not 0 <= to < len(game.seats):
        raise Unprocessable(
            f"A private message goes to a seat of this game (0 to {len(game.seats) - 1}).",
            code="no-such-seat",
        )
    if to == reader.seat:
        raise Unprocessable("A private message goes to another seat.", code="private-to-self")
    return to


def press_allowed(game: Game) -> bool:
    """True when seats of ``game`` may send private messages: its creator allowed
    press, or its engine's rules call for it (``press = True``)."""
    try:
        engine = engines.get(game.engine)
    except engines.UnknownEngine:
        engine = None
    return options.of(game, engine).press


def name_of(game: Game, reader: Reader) -> str:
    """Return how a message's author is shown: the seat's player name, else the
    account's display name with "(spectator)", else "the creator"."""
    if reader.seat is not None:
        return game.seats[reader.seat].name
    if reader.account is not None:
        return f"{reader.account.display_name} (spectator)"
    return "The game's creator"


def shown(row: TalkEvent, hidden: bool, deleted: frozenset[str] = frozenset()) -> MessageShown:
    """Return the message ``row`` as a reader reads it (its text withheld if hidden;
    its author's name ``DELETED_NAME`` when the author is in ``deleted``)."""
    payload = row.payload or {}
    return MessageShown(
        n=row.n,
        channel=row.channel or "",
        seat=row.seat,
        to=row.to_seat,
        name=DELETED_NAME if row.author in deleted else payload.get("name", ""),
        text=None if hidden else payload.get("text"),
        hidden=hidden,
        at=iso(row.at),
    )


@dataclass(frozen=True)
class Messages:
    """A reader's page of messages: ``messages`` in order, and ``last``, the talk's
    last ``n`` read (the ``after`` of the next call)."""

    messages: list[MessageShown]
    last: int


def read_messages(
    game_id: str, who, after: int = 0, wait: float = 0.0, account: Account | None = None
) -> Messages:
    """Return the messages after ``after`` that ``who`` may read, and the messages
    before it hidden since (again, as hidden); with ``wait`` > 0, hold up to that many
    seconds (capped by ``LONG_POLL_MAX``) until there is something new.

    :raises NotFound: ``game-not-found``; :raises arbiter.errors.Unauthorized: a token
        of no seat of this game (nor its creator's).
    """
    game = game_of(game_id)
    reader = reader_of(game, who, account)
    deadline = time.monotonic() + min(max(wait, 0.0), settings.current().streams.long_poll_max)
    while True:
        found = visible(game, reader, log.entries(game_id, after), after)
        if found.messages or time.monotonic() >= deadline or game.status == "cancelled":
            return found
        db.session.rollback()
        time.sleep(0.2)


def visible(game: Game, reader: Reader, rows: list[TalkEvent], after: int) -> Messages:
    """Return what ``reader`` may read of ``rows`` (the talk after ``after``), with
    the messages up to ``after`` hidden since (again, as hidden). ``last`` is the ``n``
    of the last entry returned (``after`` when none is): entries the reader may not
    read tell it nothing, not even that they exist."""
    found = visible_entries(game, reader, rows, after)
    return Messages([m for _, m in found], found[-1][0] if found else after)


def visible_entries(
    game: Game,
    reader: Reader,
    rows: list[TalkEvent],
    after: int,
    hidden: dict[int, int] | None = None,
    deleted: frozenset[str] | None = None,
) -> list[tuple[int, MessageShown]]:
    """Return, as :func:`visible` reads them, the messages ``reader`` may read of
    ``rows`` (the talk after ``after``), each with the ``n`` of the entry that brought
    it (a message's own, or the ``message-hidden`` entry of one up to ``after``): the
    position a stream resumes after (:mod:`arbiter.talk.streamed`).

    :param hidden: :func:`arbiter.talk.log.hidden_messages` of the game, when already
        read; :param deleted: :func:`~arbiter.talk.readers.deleted_authors` of ``rows``
        (both read here when None: one reading serves many readers)."""
    hidden = log.hidden_messages(game.id) if hidden is None else hidden
    deleted = deleted_authors(rows) if deleted is None else deleted
    out = []
    for row in rows:
        if row.kind == "message" and may_read(reader, row, game):
            out.append((row.n, shown(row, row.n in hidden, deleted)))
        elif row.kind == "message-hidden" and row.payload.get("message", after + 1) <= after:
            target = db.session.get(TalkEvent, (game.id, row.payload["message"]))
            if target is not None and may_read(reader, target, game):
                out.append((row.n, shown(target, True, deleted_authors([target]))))
    return out


def read_all(game: Game, reader: Reader) -> list[MessageShown]:
    """Return every message of ``game`` that ``reader`` may read, in order."""
    return visible(game, reader, log.entries(game.id), 0).messages


@dataclass(frozen=True)
class HideMessage:
    """The creator or an organiser hides message ``n``."""

    game_id: str
    who: Principal | str | None
    n: int
    account: Account | None = None


@dataclass(frozen=True)
class Recorded:
    """A talk entry written: its ``n`` and ``kind``; ``message``: the message it is
    about."""

    n: int
    kind: str
    message: int


def hide_message(uow: UnitOfWork, command: HideMessage) -> Recorded:
    """Hide message ``n``: it stays in the log; readers see that it was hidden.

    :raises Forbidden: ``not-moderator`` (neither the creator nor an organiser);
        :raises NotFound: ``no-such-message``; :raises Conflict: ``already-hidden``.
    """
    game = game_of(command.game_id)
    reader = reader_of(game, command.who, command.account)
    if not reader.moderator:
        raise Forbidden(
            "Only the game's creator or its tournament's organiser may hide a message.",
            code="not-moderator",
        )
    target = message(game, command.n)
    if target.n in log.hidden_messages(game.id):
        raise Conflict(f"Message {target.n} is hidden already.", code="already-hidden")
    by = "creator" if reader.creator else "organiser"
    entry = kinds.MessageHidden(author=author_of(game, reader), message=target.n, by=by)
    return log.append(uow, game.id, entry, lambda row: Recorded(row.n, row.kind, target.n))


def message(game: Game, n: int, reader: Reader | None = None) -> TalkEvent:
    """Return message ``n`` of ``game`` (one ``reader`` may read, when given).

    :raises NotFound: ``no-such-message``.
    """
    row = db.session.get(TalkEvent, (game.id, n)) if 0 < n < 2**31 else None
    if row is None or row.kind != "message" or (reader and not may_read(reader, row, game)):
        raise NotFound(f"There is no message {n} you may read here.", code="no-such-message")
    return row


@dataclass(frozen=True)
class ReportMessage:
    """A reader reports message ``n`` to the operators (``reason``: why)."""

    game_id: str
    who: Principal | str | None
    n: int
    reason: str = ""
    account: Account | None = None


def report_message(uow: UnitOfWork, command: ReportMessage) -> Recorded:
    """Report message ``n`` (one the reader may read): a ``message-reported`` entry
    that only the operators read.

    :raises NotFound: ``no-such-message``; :raises Unauthorized: ``sign-in-to-talk``
        (nobody: no token); :raises Unprocessable: ``message-too-long`` (a reason over
        500 characters); :raises TooManyRequests: ``talk-rate-limited``.
    """
    game = game_of(command.game_id)
    reader = reader_of(game, command.who, command.account)
    if reader.seat is None and reader.account is None and not reader.creator:
        raise Unauthorized("Sign in (or open your seat) to report a message.", "sign-in-to-talk")
    target = message(game, command.n, reader)
    reason = (command.reason or "").strip()
    if len(reason) > MAX_REASON:
        raise Unprocessable(
            f"A reason may be at most {MAX_REASON} characters long.", code="message-too-long"
        )
    author = author_of(game, reader)
    checks.rate(game.id, author)
    entry = kinds.MessageReported(author=author, message=target.n, reason=reason)
    return log.append(uow, game.id, entry, lambda row: Recorded(row.n, row.kind, target.n))
