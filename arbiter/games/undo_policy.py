"""What an agreed undo may take back: the policy, the same for every engine.

Board Game Arena's undo policy, as issue 24 (item 3) asks: a player may take back
only their own last move, and only while

- no other player has acted since (a move, a resignation): an undo never changes who
  is active across another player's action;
- nothing random became known after it (a roll, a shuffle, a draw: any ``chance``
  event), and no roll or draw is already due because of it (the prompt is a Chance);
- the move itself showed nobody a hidden value (a card drawn from a deck nobody saw:
  a value that, before the move, was secret from its new holder,
  :meth:`engines.base.Engine.secrets`);
- the arbiter did not play it (a timeout move, a resigned seat's move).

Undone moves stay in the log: a ``moves-undone`` event names their seqs, and the
state is the fold of the log without them (:func:`arbiter.games.loading.inputs_of`).
Repeated undos walk back one own move at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from arbiter.errors import Conflict
from arbiter.extensions import db
from arbiter.games import events
from arbiter.games.loading import inputs_of
from arbiter.models import Event, Game
from engines.base import Engine, fold

ENGINE_INPUTS = ("move", "chance")


class UndoNotAllowed(Conflict):
    """The move cannot be taken back (409 ``undo-not-allowed``); the sentence says why."""

    code = "undo-not-allowed"


@dataclass(frozen=True)
class Undoable:
    """The move an undo would take back: its ``seq``, its words (``text``, None when
    the move was private) and the ``state`` of the game without it."""

    seq: int
    text: str | None
    state: dict


def undoable(game: Game, engine: Engine, state: dict, seat: int) -> Undoable:
    """Return what an undo by ``seat`` would take back now (see the module).

    :param state: the game's current state (the fold of its log).
    :raises UndoNotAllowed: with a sentence saying why not.
    """
    if (game.prompt or {}).get("type") == "chance":
        raise UndoNotAllowed(
            "A roll or a draw is due after the last move: a move that led to chance "
            "cannot be taken back."
        )
    rows = list(
        db.session.scalars(sa.select(Event).where(Event.game_id == game.id).order_by(Event.seq))
    )
    target = last_own_move(rows, seat, {s.seat: s.name for s in game.seats})
    kept = [e for e in rows if e.seq != target.seq]
    before = fold(engine, len(game.seats), game.options, inputs_of(kept))
    if reveals(engine, before, state, len(game.seats)):
        raise UndoNotAllowed(
            "Your last move showed a hidden card or value, so it cannot be taken back."
        )
    private = target.visible_to is not None
    return Undoable(target.seq, None if private else target.payload.get("text"), before)


def last_own_move(rows: list[Event], seat: int, names: dict[int, str]) -> Event:
    """Return ``seat``'s move that an undo would take back: the last engine input of the
    log not yet undone, when it is that seat's own move.

    :raises UndoNotAllowed: another player acted since, a roll or draw came after it,
        the arbiter played it, or the seat has made no move.
    """
    undone = events.undone_seqs(rows)
    if not any(e.kind == "move" and e.seat == seat and e.seq not in undone for e in rows):
        raise UndoNotAllowed("You have made no move that could be taken back.")
    for e in reversed(rows):
        if e.seq in undone:
            continue
        if e.kind == "chance":
            raise UndoNotAllowed(
                "A roll or a draw came after your last move: it cannot be taken back."
            )
        if e.kind == "resigned":
            raise UndoNotAllowed(
                f"{names.get(e.seat, 'A player')} resigned after your last move: "
                "it cannot be taken back."
            )
        if e.kind != "move":
            continue
        if e.seat != seat:
            raise UndoNotAllowed(
                f"{names.get(e.seat, 'Another player')} has moved since your last move: "
                "only a move nobody has answered yet can be taken back."
            )
        if e.payload.get("timeout") or e.payload.get("auto"):
            raise UndoNotAllowed(
                "Your last move was played for you by the arbiter (a deadline passed): "
                "it cannot be taken back."
            )
        return e
    raise UndoNotAllowed("You have made no move that could be taken back.")


def reveals(engine: Engine, before: dict, after: dict, players: int) -> bool:
    """True when going from ``before`` to ``after`` gave some seat a secret value
    (:meth:`engines.base.Engine.secrets`) that was hidden from it before: held by
    nobody (a deck: ``secrets(state, None)``, where the engine tells it) or by
    another seat."""
    hidden_from_all = _nobody_sees(engine, before)
    held = {s: set(engine.secrets(before, s)) for s in range(players)}
    for seat in range(players):
        gained = set(engine.secrets(after, seat)) - held[seat]
        others = set().union(*(held[o] for o in range(players) if o != seat))
        if gained & (hidden_from_all | others):
            return True
    return False


def _nobody_sees(engine: Engine, state: dict) -> set:
    """Return the values no seat may see (a deck's order), for an engine whose
    ``secrets`` takes ``None`` for "nobody"; an empty set for one whose does not."""
    try:
        return set(engine.secrets(state, None))  # type: ignore[arg-type]
    except (TypeError, KeyError, IndexError):
        return set()
