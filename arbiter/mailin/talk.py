"""Talk by mail: the lines of a reply that are messages or notes, not moves.

- ``say <text>``: a message at the table; ``say to <name>: <text>``: a private one;
- ``message`` (or ``message to <name>``) on a line of its own, the lines of the
  message, then ``end``: a longer one (DPjudge's ``PRESS`` ... ``ENDPRESS``);
- ``note <text>``: a private note for the sender's seat.

:func:`take` runs them (each once per Message-ID and line, like moves) and hands the
other lines back to the commands (:mod:`arbiter.mailin.commands`). What the others say
reaches a player in the next turn mail or digest (:mod:`arbiter.talk.mailed`).
"""

from __future__ import annotations

import re

from arbiter import problems
from arbiter.accounts.identity import SeatGrant
from arbiter.errors import ArbiterError
from arbiter.mailin.commands import Done, key_for, once
from arbiter.models import Game
from arbiter.talk import messages, notes
from arbiter.talk.readers import game_of

_SAY = re.compile(r"^say\s+(?:to\s+(?P<to>[^:]{1,80}):\s*)?(?P<text>.+)$", re.I | re.S)
_NOTE = re.compile(r"^note\s+(?P<text>.+)$", re.I | re.S)
_OPEN = re.compile(r"^message(?:\s+to\s+(?P<to>.{1,80}?))?:?$", re.I)
_END = re.compile(r"^end\.?$", re.I)

HELP = """Talk (lines of their own):
  say <text>          a message to the players at the table
  say to <name>: <text>   a private message, where the game allows them
  message ... end     a longer message: "message" (or "message to <name>"), its lines, "end"
  note <text>         a note only you read"""


def take(seat: SeatGrant, lines: list[str], message_id: str) -> tuple[list[Done], list[str]]:
    """Run the talk lines of a reply for ``seat``; return what was done (one
    :class:`~arbiter.mailin.commands.Done` each, in order) and the other lines, for the
    commands. A ``message`` block without its ``end`` runs to the end of the mail."""
    done: list[Done] = []
    rest: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        opened = _OPEN.match(line)
        if opened:
            end = next((i for i in range(index + 1, len(lines)) if _END.match(lines[i])), None)
            stop = len(lines) if end is None else end
            text = "\n".join(lines[index + 1 : stop])
            done.append(_say(seat, line, text, opened.group("to"), message_id, index))
            index = stop + 1
            continue
        said, noted = _SAY.match(line), _NOTE.match(line)
        if said:
            done.append(_say(seat, line, said.group("text"), said.group("to"), message_id, index))
        elif noted:
            done.append(_note(seat, line, noted.group("text"), message_id, index))
        else:
            rest.append(line)
        index += 1
    return done, rest


def _say(
    seat: SeatGrant, line: str, text: str, to: str | None, message_id: str, index: int
) -> Done:
    """Post ``text`` for ``seat`` (to the seat named ``to``: privately)."""
    try:
        target = None if to is None else seat_named(game_of(seat.game_id), to)
        channel = "table" if to is None else "private"
        command = messages.PostMessage(seat.game_id, seat, channel, text, target, via="mail")
        once(
            seat,
            key_for(f"{message_id}|talk", index),
            {"channel": channel, "text": text, "to": target},
            "POST messages",
            lambda uow: messages.post_message(uow, command),
        )
    except ArbiterError as err:
        return Done(line[:80], False, *problems.refusal(err))
    where = "at the table" if to is None else f"privately to {to.strip()}"
    return Done(line[:80], True, f"Said {where}; the others read it in their next mail.")


def _note(seat: SeatGrant, line: str, text: str, message_id: str, index: int) -> Done:
    """Keep ``text`` as a note of ``seat``."""
    try:
        command = notes.AddNote(seat.game_id, seat, text, via="mail")
        once(
            seat,
            key_for(f"{message_id}|talk", index),
            {"text": text},
            "POST notes",
            lambda uow: notes.add_note(uow, command),
        )
    except ArbiterError as err:
        return Done(line[:80], False, *problems.refusal(err))
    return Done(line[:80], True, "Noted (only you read your notes).")


def seat_named(game: Game, name: str) -> int:
    """Return the seat of ``game`` whose player is called ``name`` (any case).

    :raises ArbiterError: 422 ``no-such-seat`` naming the players there are.
    """
    wanted = " ".join(name.split()).lower()
    for s in game.seats:
        if s.name.lower() == wanted:
            return s.seat
    names = ", ".join(s.name for s in game.seats)
    raise ArbiterError(
        f"Nobody called {name.strip()[:40]!r} plays here (the players: {names}).",
        code="no-such-seat",
    )
