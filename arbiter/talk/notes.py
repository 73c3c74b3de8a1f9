"""Private notes: what a seat writes for itself about a game. Only that seat reads
them, on every channel, during and after the game; the game's record leaves them out.
Each note is an entry of the game's talk log (nothing is rewritten)."""

from __future__ import annotations

from dataclasses import dataclass

from arbiter import settings
from arbiter.accounts.identity import Principal
from arbiter.errors import Forbidden
from arbiter.models import Account, TalkEvent, game_record
from arbiter.models.timestamps import iso
from arbiter.talk import checks, kinds, log
from arbiter.talk.readers import author_of, game_of, reader_of
from arbiter.uow import UnitOfWork


@dataclass(frozen=True)
class AddNote:
    """A note from any channel, by the seat ``who`` holds."""

    game_id: str
    who: Principal | str | None
    text: str
    via: str = "api"
    account: Account | None = None


@dataclass(frozen=True)
class NoteShown:
    """A note as its author reads it."""

    n: int
    seat: int
    text: str
    at: str | None


def shown(row: TalkEvent) -> NoteShown:
    """Return the note ``row`` as its author reads it."""
    return NoteShown(row.n, row.seat, (row.payload or {}).get("text", ""), iso(row.at))


def add_note(uow: UnitOfWork, command: AddNote) -> NoteShown:
    """Keep a note for the caller's seat; return it.

    :raises Forbidden: ``not-a-player`` (no seat in this game); :raises Unprocessable:
        ``empty-message``, ``message-too-long``, ``bad-characters``.
    """
    game = game_of(command.game_id)
    reader = reader_of(game, command.who, command.account)
    if reader.seat is None:
        raise Forbidden("Only a player keeps notes in a game.", code="not-a-player")
    text = checks.text(command.text, settings.current().talk.note_chars, "note")
    entry = kinds.Note(author=author_of(game, reader), seat=reader.seat, text=text, via=command.via)
    return log.append(uow, game.id, entry, shown)


def read_notes(game_id: str, who, account: Account | None = None) -> list[NoteShown]:
    """Return the caller's seat's notes in ``game_id``, oldest first.

    :raises Forbidden: ``not-a-player`` (a spectator: notes are nobody else's).
    """
    game = game_record.read(game_id, with_state=False)
    reader = reader_of(game, who, account)
    if reader.seat is None:
        raise Forbidden("Only a player keeps notes in a game.", code="not-a-player")
    return notes_of(game_id, reader.seat)


def notes_of(game_id: str, seat: int) -> list[NoteShown]:
    """Return the notes ``seat`` kept in ``game_id``, oldest first."""
    return [shown(r) for r in log.entries(game_id, kind="note") if r.seat == seat]
