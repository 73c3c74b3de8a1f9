"""The mail that tells a player a request to undo a move or abort the game waits for
their answer (:mod:`arbiter.games.agreements`).

One mail per player who answers (the others still in the game), written in the
transaction of the request; its ``Reply-To`` takes ``accept undo`` / ``refuse undo``
(``accept abort`` / ``refuse abort``), and it links the game page, where the same
answers are buttons.
"""

from __future__ import annotations

from typing import Any

import engines
from arbiter.accounts import links
from arbiter.extensions import db
from arbiter.games import naming
from arbiter.games.clock import local, parse
from arbiter.mail import capability, identity
from arbiter.models import Event, Game, OutboxMail
from engines.base import Engine


def request_mails(game: Game, engine: Engine, agreement: Any) -> list[OutboxMail]:
    """Return the mails to the players who answer ``agreement`` (an
    :class:`arbiter.games.agreements.Agreement` just asked), each that may be mailed."""
    asker = game.seats[agreement.seat].name
    mails, began = [], None
    for seat in game.seats:
        address = identity.seat_address(seat)
        if seat.seat not in agreement.waiting_for or not address:
            continue
        began = began or naming.started_at(game)
        expires = parse(agreement.expires_at)
        title = naming.game_words(game, seat.seat, title=engine.title)
        told = naming.game_words(game, seat.seat, started=began, title=engine.title)
        body = "\n".join(
            [
                f"Hello {seat.name},",
                "",
                *_asks(asker, told, game, agreement),
                "",
                f'Reply "accept {agreement.kind}" to agree, or "refuse {agreement.kind}" '
                "to refuse.",
                f"Or answer on the game page: {links.seat_url(game.id, seat.seat)}",
                "",
                _lapses(agreement.kind)
                + (f" It lapses at {local(expires, seat.tz)}." if expires else ""),
            ]
        )
        what = "to take back a move" if agreement.kind == "undo" else "to abort the game"
        mails.append(
            OutboxMail(
                dedupe_key=f"{agreement.kind}:{game.id}:{agreement.request}:{seat.seat}",
                game_id=game.id,
                seat=seat.seat,
                to_addr=address,
                subject=f"[Arbiter] {asker} asks {what} in {title}",
                body=body,
                headers={
                    "Reply-To": capability.reply_address(game.id, seat.seat, agreement.request)
                },
            )
        )
    return mails


def _asks(asker: str, title: str, game: Game, agreement: Any) -> list[str]:
    """Return the lines saying what ``asker`` asks in the game named ``title``
    (:func:`arbiter.games.naming.game_words`)."""
    if agreement.kind == "undo":
        words = undo_words(game, agreement.move_seq, agreement.text)
        move = f": {words}" if words else ""
        return [
            f"In {title}, {asker} asks to take back their last move{move}.",
            "If everyone still playing agrees, the move is taken back and it is their turn again.",
        ]
    return [
        f"{asker} proposes to abort your game of {title}.",
        "If everyone still playing agrees, the game ends now with no scores and is not rated.",
    ]


def undo_words(game: Game, move_seq: int | None, text: str | None) -> str | None:
    """Return the move an undo would take back, as a person says it: the engine's
    ``move_words`` of the logged move, a seat it names written as its player's name
    (``played Ladybug ±1 forward``); its notation (``text``) when the engine cannot
    say it; None for a private move (``text`` None: nobody else may read it)."""
    if text is None or move_seq is None:
        return text
    event = db.session.get(Event, (game.id, move_seq))
    engine = engines.at_version(game.engine, game.engine_version) or engines.get(game.engine)
    try:
        words = engine.move_words(event.payload["move"])
    except (AttributeError, ValueError, KeyError, TypeError):  # an engine error: ValueError
        return text
    return naming.named(words, naming.names_of(game))


def _lapses(kind: str) -> str:
    """Return when a request of ``kind`` stops waiting."""
    if kind == "undo":
        return "The request lapses as soon as anyone moves."
    return "The proposal ends when anyone refuses it."
