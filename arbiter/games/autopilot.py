"""The autopilot: a game's clock hands an absent seat to a built-in bot.

Under the time control's ``timeout_policy: "autopilot"`` (:mod:`arbiter.games.clock`),
the deadline a seat misses does not get the engine's timeout move: the clock sweep
(:func:`arbiter.games.clock_sweep._timeouts`) appends ``autopilot-on`` (the seat, the
bot, ``until``) and the bot's move for that decision (a ``move`` whose payload has the
``timeout`` that passed and ``via: {"channel": "bot", "autopilot": true, ...}``; it
counts as a missed deadline, as a timeout move does). From then on the bot plays the
seat from the game worker like a bot seat (:mod:`arbiter.games.bot_moves`), its moves
marked ``autopilot`` too, and the seat is shown as held (``autopilot`` in the summary's
``players``).

``until: "return"`` (the default): the player takes the seat back with a move of their
own (``autopilot-off`` with ``reason: "move"``, in the move's transaction) or by saying
so (:func:`back`, ``POST /v1/games/{id}/back``: ``reason: "back"``); a later missed
deadline hands it over again. ``until: "end"``: the bot plays the seat to the end and
the player's moves are refused (409 ``autopilot-holds-seat``).

The result of a game in which the autopilot held a seat lists those seats under
``autopilot`` (:meth:`arbiter.games.transition.Transition.finish`), so ratings and
tables can tell such games apart. A player's "I'm back": :mod:`arbiter.games.seat_return`.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from arbiter.bots import players
from arbiter.bots.players import Bot
from arbiter.errors import Conflict
from arbiter.games import clock, events, store
from arbiter.models import Seat
from arbiter.models.timestamps import iso
from engines.base import Engine


def via(bot: Bot, autopilot: bool) -> dict:
    """Return how a bot's move came (the move event's ``via``): ``{"channel": "bot",
    "bot": {"kind", "level"}}``, with ``"autopilot": true`` for the autopilot's."""
    out = {"channel": "bot", "bot": bot.to_json()}
    if autopilot:
        out["autopilot"] = True
    return out


def rng_for(game_id: str, version: int, seat: int) -> random.Random:
    """Return a bot's own randomness for one decision: seeded from the game's id, the
    version it moves at and its seat (never the game's secret seed, so a bot's choice
    tells nothing of the dice), the same for a task delivered twice."""
    digest = hashlib.sha256(f"arbiter-bot\n{game_id}\n{version}\n{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def choose_for(engine: Engine, state: dict, game_id: str, version: int, seat: int, bot: Bot):
    """Return the move ``bot`` makes for ``seat`` in ``state``: it is given the seat's
    view and legal moves only (:func:`arbiter.bots.players.choose`)."""
    return players.choose(
        engine,
        engine.view(state, seat),
        seat,
        engine.legal_moves(state, seat),
        bot,
        rng_for(game_id, version, seat),
    )


def hand_over(tr: Any, seat: int, deadline) -> None:
    """Hand ``seat``, whose ``deadline`` passed, to the time control's autopilot in
    ``tr`` (a :class:`arbiter.games.transition.Transition`): append ``autopilot-on``
    (unless it already holds the seat) and play the bot's move for the decision
    missed (see the module)."""
    game = tr.game
    cfg = clock.config(game)
    bot = Bot(**cfg.get("autopilot") or {})
    row = game.seats[seat]
    if not (row.autopilot or {}).get("active"):
        until = cfg.get("autopilot_until") or "return"
        tr.events.append(
            events.AutopilotOn(
                seat=seat, name=row.name, bot=bot.to_json(), until=until, deadline=iso(deadline)
            )
        )
        row.autopilot = {
            "bot": bot.to_json(),
            "until": until,
            "since": tr.next_seq - 1,
            "active": True,
        }
    move = choose_for(tr.engine, tr.state, game.id, tr.next_seq - 1, seat, bot)
    tr.move(seat, move, via=via(bot, True), timeout={"deadline": iso(deadline)})


def bot_timeout(tr: Any, seat: int, deadline) -> None:
    """Play a bot seat's own move for a decision whose ``deadline`` passed before its
    task moved it (a busy or stopped worker): the clock never forfeits a bot seat nor
    hands it to the autopilot; the move's payload has the ``timeout`` and the bot's
    ``via``."""
    bot = Bot(**tr.game.seats[seat].bot)
    move = choose_for(tr.engine, tr.state, tr.game.id, tr.next_seq - 1, seat, bot)
    tr.move(seat, move, via=via(bot, False), timeout={"deadline": iso(deadline)})


def take_back(tr: Any, seat: Seat, came: dict | None) -> None:
    """Before a move of ``seat`` by its player (``came``: the command's ``via``, not a
    bot's): end the autopilot's hold, appending ``autopilot-off`` (``reason:
    "move"``).

    :raises Conflict: 409 ``autopilot-holds-seat`` when the autopilot plays the seat
        to the end (``autopilot_until: end``).
    """
    held = seat.autopilot or {}
    if not held.get("active") or (came or {}).get("channel") == "bot":
        return
    release(tr, seat, "move")


def release(tr: Any, seat: Seat, reason: str) -> None:
    """End the autopilot's hold on ``seat`` in ``tr``: append ``autopilot-off`` with
    ``reason``.

    :raises Conflict: ``autopilot-holds-seat`` (see :func:`take_back`).
    """
    if seat.autopilot.get("until") == "end":
        raise Conflict(
            "The autopilot plays this seat to the end of the game (the game's clock says "
            "so); your moves are no longer taken.",
            code="autopilot-holds-seat",
        )
    tr.events.append(events.AutopilotOff(seat=seat.seat, name=seat.name, reason=reason))
    store.update_seat(tr.game, seat, autopilot={**seat.autopilot, "active": False})
