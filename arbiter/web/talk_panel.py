"""What the game page's talk panel shows (``templates/talk_panel.html``): the
messages this browser's reader may read, its notes, and the channels it may post on,
from the same calls as REST (:mod:`arbiter.talk`). No rule is decided here."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from arbiter.accounts.identity import Principal
from arbiter.models import Game
from arbiter.talk import messages, notes
from arbiter.talk.readers import Reader, reader_of
from arbiter.web import account, seats


@dataclass
class Panel:
    """The panel of one reader: ``messages`` and ``notes`` to show, the ``channels``
    it may post on (value, label), the ``seats`` a private message may go to (seat,
    name), and whether it may hide (``moderator``) and mute (``can_mute``)."""

    reader: Reader
    messages: list[messages.MessageShown]
    notes: list[notes.NoteShown]
    channels: list[tuple[str, str]]
    seats: list[tuple[int, str]]
    moderator: bool
    can_mute: bool
    key: str = field(default_factory=lambda: uuid.uuid4().hex)
    note_key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def last(self) -> int:
        """The last message's ``n`` shown (where the live update waits after)."""
        return max((m.n for m in self.messages), default=0)


def caller(game: Game) -> tuple[Principal | None, object]:
    """Return ``(who, account)`` of this browser in ``game``: the seat it holds (a
    link, a token, its account's), else its signed-in account's principal."""
    grant = seats.grant_for(game)
    return (grant if grant is not None else account.principal()), account.signed_in()


def build(game: Game) -> Panel:
    """Return the talk panel of this browser's reader of ``game``."""
    who, signed_in = caller(game)
    reader = reader_of(game, who, signed_in)
    return Panel(
        reader=reader,
        messages=messages.read_all(game, reader),
        notes=notes.notes_of(game.id, reader.seat) if reader.seat is not None else [],
        channels=channels(game, reader),
        seats=[(s.seat, s.name) for s in game.seats if s.seat != reader.seat],
        moderator=reader.moderator,
        can_mute=reader.account is not None,
    )


def channels(game: Game, reader: Reader) -> list[tuple[str, str]]:
    """Return the channels ``reader`` may post on, as the form offers them."""
    if game.status == "cancelled":
        return []
    if reader.seat is None:
        return [("spectators", "to the spectators")] if reader.account is not None else []
    offered = [("table", "to the table (the players)")]
    if messages.press_allowed(game):
        offered.append(("private", "privately, to one player"))
    if game.status == "over":
        offered.append(("spectators", "to the spectators"))
    return offered
