"""What the others said, for a player's next turn mail or digest: one section, never
one mail per line (issue 24). The turn mails (:mod:`arbiter.games.notify`) and the
digest (:mod:`arbiter.games.digest`) call :func:`section`; its layout is theirs."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from arbiter import settings
from arbiter.accounts.accounts import DELETED_NAME
from arbiter.extensions import db
from arbiter.models import Account, Game, OutboxMail, TalkEvent
from arbiter.talk import log
from arbiter.talk.readers import Reader, deleted_authors, may_read, muted_by

HEADING = "Messages since your last mail:"
HOW_TO = 'Reply with a line "say ..." to answer at the table (or "note ..." for yourself).'
CHANNEL_WORDS = {"table": "", "private": " (privately)", "spectators": " (spectators)"}


def section(game: Game, seat: int, since: datetime | None = None) -> list[str]:
    """Return the lines that quote the messages ``seat`` may read in ``game`` posted
    by others since ``since`` (default: the seat's previous turn mail in this game;
    every message when there was none), ending with an empty line; no lines when
    there is nothing new. At most ``TALK_MAILED_LINES`` are quoted, the latest.

    A message hidden since it was posted reads "(hidden)"; authors the seat's account
    muted are left out, as on every channel. A game without messages costs no
    statement (its row's ``talk_n``): the move that causes a turn mail reads nothing
    more."""
    if not game.talk_n:
        return []
    since = since if since is not None else last_mail_at(game.id, seat)
    rows = [
        r
        for r in log.entries(game.id, kind="message")
        if (since is None or r.at > since) and r.seat != seat
    ]
    account = (
        db.session.get(Account, game.seats[seat].account_id)
        if game.seats[seat].account_id
        else None
    )
    reader = Reader(seat=seat, account=account, muted=muted_by(account))
    rows = [r for r in rows if may_read(reader, r, game)]
    if not rows:
        return []
    hidden = log.hidden_messages(game.id)
    limit = settings.current().talk.mailed_lines
    lines = [HEADING]
    if len(rows) > limit:
        lines.append(f"  ({len(rows) - limit} earlier ones are on the game page.)")
    deleted = deleted_authors(rows)
    lines += [line(r, r.n in hidden, r.author in deleted) for r in rows[-limit:]]
    return [*lines, HOW_TO, ""]


def line(row: TalkEvent, hidden: bool, deleted: bool = False) -> str:
    """Return one quoted message: ``  Ann: text`` (``(privately)``, ``(hidden)``;
    ``DELETED_NAME`` for an author whose account was ``deleted``)."""
    payload = row.payload or {}
    text = "(hidden)" if hidden else " ".join(str(payload.get("text", "")).split("\n"))
    name = DELETED_NAME if deleted else payload.get("name", "?")
    return f"  {name}{CHANNEL_WORDS.get(row.channel or '', '')}: {text}"


def last_mail_at(game_id: str, seat: int) -> datetime | None:
    """Return when ``seat`` was last sent a turn mail of ``game_id`` (None: never)."""
    return db.session.scalar(
        sa.select(sa.func.max(OutboxMail.created_at)).where(
            OutboxMail.game_id == game_id,
            OutboxMail.seat == seat,
            OutboxMail.dedupe_key.like(f"turn:{game_id}:%"),
        )
    )


def last_sent_at(game_id: str, seat: int) -> datetime | None:
    """Return when ``seat`` was last sent a turn mail of ``game_id`` that went out (None:
    never); a turn mail being finished for sending is not sent yet, so this is the
    one before it, whatever the tries."""
    return db.session.scalar(
        sa.select(sa.func.max(OutboxMail.sent_at)).where(
            OutboxMail.game_id == game_id,
            OutboxMail.seat == seat,
            OutboxMail.dedupe_key.like(f"turn:{game_id}:%"),
        )
    )
