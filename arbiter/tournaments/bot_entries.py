"""Built-in bots as a tournament's entrants (issue 25).

- An organiser may enter bots at creation (``bots``: ``[{"name", "bot": {"kind",
  "level"}}]``): each is an entry without an account (``tournament_entries.bot``),
  paired, scored and ranked like any other; its games' seats are bot seats
  (:mod:`arbiter.games.bot_seats`), moved by the game worker.
- ``fill_with_bot`` (``{"kind", "level"}``): at the start, when the entries do not fill
  whole tables (an odd number in a Swiss of two-player games), bots are entered until
  they do, so that nobody sits a round out for want of an opponent (a bye); entries
  that come late or leave later are not filled again (a Swiss gives its byes then).

Each bot entry is logged as ``entry-added`` with its ``bot`` (and ``"filled": true``
for the start's fillers).
"""

from __future__ import annotations

import secrets
from typing import Any

from arbiter.bots import specs
from arbiter.errors import Unprocessable
from arbiter.games.games import NewPlayer
from arbiter.models import Tournament, TournamentEntry
from arbiter.models.timestamps import utcnow

FILLER = "Filler"
"""The name of the start's filler bots (``Filler (bot)``, ``Filler 2 (bot)``, ...)."""


def checked(raw: list[dict] | None) -> list[tuple[str, dict]]:
    """Return the bots an organiser enters at creation as ``(name, bot)``, the name
    said to be a bot's (:func:`arbiter.bots.specs.label`).

    :raises Unprocessable: ``bad-bot`` (``bots[i].bot``), ``duplicate-player-name``.
    """
    out = []
    for i, item in enumerate(raw or []):
        bot = specs.bot_of(item.get("bot"), f"bots[{i}].bot")
        out.append((specs.label(item["name"]), bot.to_json()))
    names = [name.casefold() for name, _ in out]
    if len(set(names)) != len(names):
        raise Unprocessable("Each bot needs a name of its own.", code="duplicate-player-name")
    return out


def fill_with(raw: Any) -> dict | None:
    """Return the filler bot of a tournament's ``fill_with_bot`` (None: no filling).

    :raises Unprocessable: ``bad-bot``.
    """
    return None if raw is None else specs.bot_of(raw, "fill_with_bot").to_json()


def entry(t: Tournament, name: str, bot: dict, joined_round: int = 1) -> TournamentEntry:
    """Return a new bot entry of ``t`` (not added to the session)."""
    return TournamentEntry(
        id=secrets.token_hex(8),
        tournament_id=t.id,
        account_id=None,
        name=name,
        bot=bot,
        joined_round=joined_round,
        created_at=utcnow(),
    )


def added(row: TournamentEntry, filled: bool = False) -> tuple[str, dict]:
    """Return the ``entry-added`` event of a bot entry."""
    payload = {"entry": row.id, "name": row.name, "joined_round": row.joined_round, "bot": row.bot}
    if filled:
        payload["filled"] = True
    return "entry-added", payload


def fillers(t: Tournament, entrants: int, taken: set[str]) -> list[TournamentEntry]:
    """Return the bot entries that fill ``t``'s tables at its start, given
    ``entrants`` entries (none without ``fill_with_bot``, or when they fill whole
    tables); their names avoid the names ``taken`` (casefolded)."""
    if not t.fill_with_bot or entrants % t.table_size == 0:
        return []
    rows = []
    number = 1
    for _ in range(t.table_size - entrants % t.table_size):
        while True:
            name = specs.label(FILLER if number == 1 else f"{FILLER} {number}")
            number += 1
            if name.casefold() not in taken:
                break
        taken.add(name.casefold())
        rows.append(entry(t, name, dict(t.fill_with_bot)))
    return rows


def player(row: TournamentEntry) -> NewPlayer:
    """Return the seat of a bot entrant: a bot seat under the entry's name."""
    return NewPlayer(row.name, bot=dict(row.bot))
