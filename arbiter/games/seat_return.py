"""A player's "I'm back": taking a seat back from the autopilot
(:mod:`arbiter.games.autopilot`), ``POST /v1/games/{id}/back``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.accounts import identity
from arbiter.errors import Conflict
from arbiter.games.autopilot import release
from arbiter.games.commit import commit
from arbiter.games.games import load
from arbiter.games.moves import check_active
from arbiter.games.transition import Transition, settle
from arbiter.uow import UnitOfWork


@dataclass(frozen=True)
class Back:
    """A player's "I'm back": ``caller`` (as in :class:`arbiter.games.moves.SubmitMove`)
    takes their seat back from the autopilot."""

    game_id: str
    caller: Any


@dataclass(frozen=True)
class TookBack:
    """A seat taken back: the ``autopilot-off`` event's ``seq``, the game's ``version``
    after it, the ``seat``."""

    seq: int
    version: int
    seat: int


def back(uow: UnitOfWork, command: Back, loaded=None) -> TookBack:
    """Take the caller's seat back from the autopilot (``autopilot-off``, ``reason:
    "back"``); commit ``uow``.

    :raises arbiter.errors.Unauthorized, arbiter.errors.Forbidden: not a seat's caller;
    :raises Conflict: ``game-over`` (and the other states of
        :func:`arbiter.games.moves.check_active`), ``no-autopilot`` (the autopilot does
        not hold the seat), ``autopilot-holds-seat`` (it holds it to the end);
    :raises arbiter.games.store.StaleVersion: the game moved meanwhile (the bot moved).
    """
    game, engine, state = loaded or load(command.game_id)
    seat = identity.seat_for(game, identity.as_principal(command.caller))
    check_active(game)
    if not (seat.autopilot or {}).get("active"):
        raise Conflict("The autopilot does not hold your seat: play on.", code="no-autopilot")
    tr = Transition(game, engine, state)
    release(tr, seat, "back")
    settle(tr, game.resigned, roll=False)
    done = TookBack(game.version + 1, game.version + len(tr.events), seat.seat)
    commit(tr, uow=uow, result=done)
    return done
