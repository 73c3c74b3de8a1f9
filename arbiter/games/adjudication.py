"""Ending a game from outside its players: a tournament round's deadline, and a
withdrawn player replaced by the timeout policy (issue 11, "correspondence pace" and
"Organiser tools").

Both write the game's own log through the ordinary transition and commit (the event
store stays the only writer), so a decided game's record verifies like any other:

- :func:`decide_by_clock`: at a round's deadline, under the tournament's
  ``deadline_policy``: with ``forfeit`` (the default) each seat that owes a decision at
  the deadline resigns (``resigned``, ``"forfeit": true, "owed": true``, and
  ``"absent": true`` when it never made a move of its own: a forfeit in the TRF's
  sense) and ranks last; with ``timeout-move`` the engine's timeout move is played for
  every seat to the game's end (a ``move`` event whose payload carries ``"timeout":
  {"deadline": <the round's deadline>, "round": true, "owed": <whether that seat owed a
  decision at the deadline>}``). Only the seats that owed a decision are to blame; dice
  are rolled as the worker rolls them, until the game is over.
- :func:`stage_replacement`: a seat resigns on its withdrawn player's behalf (``resigned``
  with ``"withdrawn": true``); from then on the engine's timeout move is played for it
  (:func:`arbiter.games.transition.settle`) and the game goes on for the others.
"""

from __future__ import annotations

import logging
from datetime import datetime

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import clock, events
from arbiter.games.commit import commit, write
from arbiter.games.games import load
from arbiter.games.store import StaleVersion
from arbiter.games.transition import Transition, settle
from arbiter.models import Event
from arbiter.models.timestamps import iso
from arbiter.uow import UnitOfWork
from engines.base import Decision

log = logging.getLogger(__name__)

RETRIES = 5
"""How often a decision that lost a race with a move is tried again."""

MAX_STEPS = 50_000
"""A bound on the inputs one decision may append (a guard against a runaway engine)."""


def decide_by_clock(
    game_id: str, deadline: datetime, tournament_id: str, policy: str | None = None
) -> bool:
    """Play game ``game_id`` to its end at its round's deadline (see the module);
    return True when this call ended it (False: it was already over).

    The seats that owe a decision when the deadline is applied are the ones to blame
    (``"owed": true`` in their events); a seat that had moved and was waiting for the
    others is moved by the deadline without blame (``"owed": false``): reliability
    (:func:`arbiter.accounts.ratings.reliability`) counts only the first.

    :param deadline: the round's deadline (UTC), recorded in each decision.
    :param policy: ``"forfeit"`` (the seats that owe a decision lose by forfeit; the
        others, if the game goes on, get timeout moves), ``"timeout-move"`` (the
        engine's timeout move for every seat, to the end) or None (the game's clock
        policy, as tournaments made before the choice had it).
    :raises RuntimeError: the game did not end within ``MAX_STEPS`` inputs.
    """
    for _ in range(RETRIES):
        game, engine, state = load(game_id)
        if game.status != "active":
            return False
        chosen = policy or clock.config(game)["timeout_policy"]
        tr = Transition(game, engine, state)
        resigned = set(game.resigned)
        owed: set[int] | None = None
        for _ in range(MAX_STEPS):
            settle(tr, resigned, roll=True)
            if tr.result is not None:
                break
            prompt = tr.prompt()
            assert isinstance(prompt, Decision)
            if owed is None:
                owed = set(prompt.seats)
            seat = sorted(prompt.seats)[0]
            if chosen == "forfeit" and seat in owed:
                tr.events.append(
                    events.Resigned(
                        seat=seat,
                        name=game.seats[seat].name,
                        forfeit=True,
                        round_deadline=iso(deadline),
                        tournament=tournament_id,
                        owed=True,
                        absent=not _moved(game_id, seat),
                    )
                )
                game.seats[seat].resigned = True
                resigned.add(seat)
            else:
                tr.move(
                    seat,
                    engine.timeout_move(tr.state, seat),
                    timeout={"deadline": iso(deadline), "round": True, "owed": seat in owed},
                )
        else:
            raise RuntimeError(f"game {game_id} did not end within {MAX_STEPS} inputs")
        try:
            commit(tr, uow=UnitOfWork())
            return True
        except StaleVersion:
            log.info("game %s moved while its round's deadline was applied; again", game_id)
    return False


def _moved(game_id: str, seat: int) -> bool:
    """Return True when ``seat`` has made a move of its own in the game (one the clock
    did not play for it)."""
    payloads = db.session.scalars(
        sa.select(Event.payload).where(
            Event.game_id == game_id, Event.seat == seat, Event.kind == "move"
        )
    )
    return any("timeout" not in (p or {}) for p in payloads)


def stage_replacement(
    uow: UnitOfWork, game_id: str, seat: int, tournament_id: str, by: str = "entrant"
) -> tuple | None:
    """Resign ``seat`` of ``game_id`` for its withdrawn player, in the caller's
    transaction (not committed: the caller commits it with the tournament's
    ``entry-replaced``, one transaction, issue 22, item 15); its later decisions are
    played by the engine's timeout move. ``by`` (``"organiser"`` or ``"entrant"``) is
    who withdrew the entry; the ``resigned`` event keeps it (an organiser's withdrawal
    is not the player's resignation: :func:`arbiter.accounts.ratings.reliability`).

    :returns: whether the seat was resigned (False: the game is over or the seat had
        already resigned); written in ``uow``, which the caller commits.
    :raises StaleVersion: the game moved meanwhile; the session has been rolled back
        (everything the caller staged with it is gone too).
    """
    game, engine, state = load(game_id)
    if game.status != "active" or game.seats[seat].resigned:
        return False
    tr = Transition(game, engine, state)
    tr.events.append(
        events.Resigned(
            seat=seat,
            name=game.seats[seat].name,
            withdrawn=True,
            tournament=tournament_id,
            by=by,
        )
    )
    game.seats[seat].resigned = True
    settle(tr, game.resigned, roll=False)
    write(uow, tr)
    return True
