"""The mail commands of agreed undo and abort (issue 24, item 3): ``undo``, ``abort``,
``accept undo`` / ``refuse undo``, ``accept abort`` / ``refuse abort``.

Each runs the same context function as the REST routes and the game page
(:mod:`arbiter.games.agreements`), once per Message-ID and line; a refusal raises the
domain error, which :mod:`arbiter.mailin.commands` answers like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.accounts.identity import SeatGrant
from arbiter.games import agreement_mail, agreements
from arbiter.games.games import get_game

ANSWERS = ("accept", "refuse")
SYNONYMS = {"agree": "accept", "decline": "refuse", "reject": "refuse"}

HELP = """  undo                ask the others to let you take back your last move
  abort               propose to end the game now, unscored and unrated
  accept undo / refuse undo, accept abort / refuse abort
                      answer another player's request"""


def parse(word: str) -> tuple[str, bool | None] | None:
    """Return ``(kind, accept)`` of a command line (lower case; ``accept`` None for a
    request), or None when it is none of these commands."""
    parts = word.split()
    if len(parts) == 1 and parts[0] in agreements.KINDS:
        return parts[0], None
    if len(parts) == 2 and parts[1] in agreements.KINDS:
        verb = SYNONYMS.get(parts[0], parts[0])
        if verb in ANSWERS:
            return parts[1], verb == "accept"
    return None


def run(seat: SeatGrant, word: str, key: str, once: Callable[..., tuple[int, dict]]) -> str | None:
    """Run ``word`` when it is one of these commands and return the answer's text;
    None when it is not one of them.

    :param once: :func:`arbiter.mailin.commands.once` (the command runs once per key).
    :raises arbiter.errors.ArbiterError: the request or answer is refused.
    """
    parsed = parse(word)
    if parsed is None:
        return None
    kind, accept = parsed
    if accept is None:
        command: Any = agreements.Ask(seat.game_id, seat, kind)
        _, body = once(
            seat,
            key,
            {"text": word},
            f"POST {kind}-requests",
            lambda uow: agreements.ask(uow, command),
        )
    else:
        command = agreements.Reply(seat.game_id, seat, kind, accept)
        _, body = once(
            seat,
            key,
            {"text": word},
            f"POST {kind}-requests/answer",
            lambda uow: agreements.reply(uow, command),
        )
    return said(seat, body)


def said(seat: SeatGrant, body: dict) -> str:
    """Return the reply's sentence for an agreement as it now stands (``body``: an
    :class:`arbiter.games.agreements.Agreement` as a dict)."""
    game = get_game(seat.game_id)
    names = {s.seat: s.name for s in game.seats}
    kind, status = body["kind"], body["status"]
    words = agreement_mail.undo_words(game, body.get("move_seq"), body.get("text"))
    waiting = ", ".join(names.get(s, str(s)) for s in body["waiting_for"])
    if body["seat"] == seat.seat and status == "pending":
        what = (
            f"to take back your last move ({words})"
            if kind == "undo" and words
            else "to take back your last move"
            if kind == "undo"
            else "to abort the game (no scores, not rated)"
        )
        return f"You asked {what}. The others are told; waiting for: {waiting}."
    if status == "refused":
        return "You refused: the request is closed and the game goes on."
    if status == "pending":
        return f"Your agreement is recorded; still waiting for: {waiting}."
    if kind == "undo":
        return f"Everyone agreed: {names[body['seat']]}'s last move is taken back."
    return "Everyone agreed: the game is aborted, with no scores, and it is not rated."
