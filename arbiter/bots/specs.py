"""A bot as a request names it: ``{"kind": "mcts", "level": 2}``, checked once for every
way in (a game's seat, a clock's autopilot, a tournament's filler).

:func:`bot_of` turns the JSON a client sent into a :class:`~arbiter.bots.players.Bot`
or refuses it with one clear problem (422 ``bad-bot``); :func:`label` is the name a
bot seat is shown under, so that pages, mails and records say it is a bot.
"""

from __future__ import annotations

from typing import Any

from arbiter.bots.players import KINDS, LEVELS, Bot, UnknownBot
from arbiter.errors import Unprocessable

KEYS = frozenset({"kind", "level"})
"""What a bot's JSON may hold."""


def bot_of(raw: Any, where: str = "bot") -> Bot:
    """Return the bot ``raw`` names (``{"kind": str, "level": int}``; both optional:
    ``random`` at level 1 by default).

    :param where: what the problem calls it (``players[1].bot``, ``clock.autopilot``).
    :raises Unprocessable: 422 ``bad-bot``: not an object, unknown keys, no such kind
        (the detail lists the kinds), a level that is not a whole number from 1 to 5
        (the detail says so).
    """
    if not isinstance(raw, dict):
        raise _bad(where, 'must be an object such as {"kind": "mcts", "level": 2}')
    unknown = sorted(set(raw) - KEYS)
    if unknown:
        raise _bad(where, f"takes only kind and level, not {', '.join(unknown)}")
    level = raw.get("level", 1)
    if isinstance(level, float) and level.is_integer():
        level = int(level)
    kind = raw.get("kind", "random")
    if not isinstance(kind, str) or kind not in KINDS:
        raise _bad(where, f"has no kind {kind!r}: the kinds are {', '.join(KINDS)}")
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        raise _bad(
            where,
            f"has no level {level!r}: a level is a whole number from {LEVELS.start} "
            f"to {LEVELS.stop - 1}",
        )
    try:
        return Bot(kind=kind, level=level)
    except (UnknownBot, TypeError):  # kept for a rule Bot adds later
        raise _bad(where, f"is no bot: the kinds are {', '.join(KINDS)}") from None


def _bad(where: str, what: str) -> Unprocessable:
    return Unprocessable(
        f"The bot in {where} {what}.",
        code="bad-bot",
        extra={"field": where, "kinds": list(KINDS), "levels": [LEVELS.start, LEVELS.stop - 1]},
    )


def label(name: str) -> str:
    """Return the name a bot seat is shown under: ``name`` when it already says bot
    (``RoboBot``, ``Bot 2``), else ``name (bot)`` (the name cut to fit 80 characters)."""
    return name if "bot" in name.casefold() else f"{name[:74]} (bot)"


def described(bot: Bot) -> str:
    """Return a bot in words: ``mcts bot, level 2``."""
    return f"{bot.kind} bot, level {bot.level}"
