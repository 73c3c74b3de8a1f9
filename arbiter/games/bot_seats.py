"""Bot seats: which seats of a game a built-in bot plays, and the check of bot seats
at creation (every way a game is made goes through :func:`check_bots`, called by
:func:`arbiter.games.games.prepare_game`).

A seat is played by a bot when it was made a bot seat (``seats.bot``) or while the
autopilot holds it for its absent player (``seats.autopilot`` with ``"active": true``,
:mod:`arbiter.games.autopilot`). The bot moves from the game worker
(:mod:`arbiter.games.bot_moves`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from arbiter.bots import specs
from arbiter.bots.players import Bot
from arbiter.errors import Unprocessable
from arbiter.models import Seat


def check_bots(players: list[Any]) -> list[Any]:
    """Return ``players`` (:class:`arbiter.games.games.NewPlayer`) with each bot seat's
    ``bot`` checked and complete (``{"kind", "level"}``) and its name said to be a
    bot's (:func:`arbiter.bots.specs.label`).

    :raises Unprocessable: 422 ``bad-bot`` naming the seat (``players[i].bot``): a bot
        that is not one (:func:`arbiter.bots.specs.bot_of`), or a bot seat with an
        email address (a bot gets no mail and holds no account's seat) or open (a
        lobby seat is for a person to take).
    """
    out = []
    for i, player in enumerate(players):
        if player.bot is None:
            out.append(player)
            continue
        where = f"players[{i}].bot"
        bot = specs.bot_of(player.bot, where)
        if player.email:
            raise Unprocessable(
                f"The bot in {where} cannot have an email address: a bot gets no mail.",
                code="bad-bot",
                extra={"field": where},
            )
        if player.open:
            raise Unprocessable(
                f"The seat of {where} cannot be both a bot's and open in the lobby: "
                "a bot holds its seat.",
                code="bad-bot",
                extra={"field": where},
            )
        out.append(replace(player, name=specs.label(player.name), bot=bot.to_json(), tz=None))
    return out


def bot_of_seat(seat: Seat) -> Bot | None:
    """Return the bot that plays ``seat`` now: its own (a bot seat), the autopilot's
    while it holds the seat, else None (a person plays it, or it resigned)."""
    if seat.resigned:
        return None
    if seat.bot:
        return Bot(**seat.bot)
    held = seat.autopilot or {}
    if held.get("active"):
        return Bot(**held["bot"])
    return None


def bot_json(seat: Seat) -> dict | None:
    """Return what a summary shows of a bot seat (``{"kind", "level"}``), else None."""
    return dict(seat.bot) if seat.bot else None
