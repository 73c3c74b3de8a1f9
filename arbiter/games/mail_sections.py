"""Sections other parts add to the turn mail and the digest: the hook.

A section is a function ``(game, seat, since) -> list[str]``: the lines it adds for
``seat`` of ``game`` about what happened after seq ``since`` (that seat's last move),
``[]`` for nothing. The table's messages (issue 24, item 1: what the others said,
batched into the next turn mail or digest, never one mail per line) register here::

    from arbiter.games import mail_sections
    mail_sections.register(messages_since)

A section that counts time rather than seqs turns ``since`` into the moment of that
move with :func:`moved_at` (the talk's ``section(game, seat, since_at)``)::

    mail_sections.register(
        lambda game, seat, since: mailed.section(game, seat, moved_at(game.id, since))
    )

Each section's lines are printed in the mail after "Since your last turn", in the
order registered. Sections run when the mail is sent (:func:`arbiter.games.notify.
finish_turn`), not in the move's transaction, so they may read; they must never show
a seat what it may not read.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Event, Game

Section = Callable[[Game, int, int], list[str]]

SECTIONS: list[Section] = []


def register(section: Section) -> Section:
    """Add ``section`` to the turn mail (once; usable as a decorator); return it."""
    if section not in SECTIONS:
        SECTIONS.append(section)
    return section


def lines_for(game: Game, seat: int, since: int) -> list[str]:
    """Return the lines every registered section adds for ``seat``, each section
    followed by a blank line."""
    out: list[str] = []
    for section in SECTIONS:
        lines = section(game, seat, since)
        if lines:
            out += [*lines, ""]
    return out


def moved_at(game_id: str, since: int) -> datetime | None:
    """Return when event ``since`` of ``game_id`` was logged (the seat's last move),
    None for 0 (it has not moved yet)."""
    if not since:
        return None
    return db.session.scalar(
        sa.select(Event.at).where(Event.game_id == game_id, Event.seq == since)
    )
