"""The mail commands of the lobby (issue 23, item 1): ``join <game>`` takes an open
seat of a public table, ``rematch`` starts a finished game's rematch. Either is a
line of a reply from a seat's verified address (:mod:`arbiter.mailin.process` checks
the sender), acting as that seat's account: the same calls as the pages and REST
(:func:`arbiter.games.lobby.take_seat`, :func:`arbiter.games.rematch.rematch`), once
per Message-ID and line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from arbiter import settings
from arbiter.accounts.identity import SeatGrant
from arbiter.errors import Unauthorized
from arbiter.extensions import db
from arbiter.games import lobby, naming, rematch
from arbiter.games.games import get_game
from arbiter.models import Account

JOIN = re.compile(r"^join\s+(?:game\s+)?([0-9a-f]{6,32})$", re.IGNORECASE)

LINES = """  join <game>         take a free seat at a public table (the lobby)
  rematch             a new game with the same players (once this one is over)"""
"""The lines the commands add to the mail help."""


def match(line: str) -> Callable | None:
    """Return the command ``line`` is (a function of the seat, the line's
    Idempotency-Key and the runner of a command once), None when it is neither."""
    word = line.lower().rstrip(".!")
    joined = JOIN.match(word)
    if joined:
        return lambda seat, key, once: join(seat, joined.group(1), key, once)
    if word == "rematch":
        return again
    return None


def _account(seat: SeatGrant) -> Account:
    """Return the account of the seat whose address sent the mail.

    :raises Unauthorized: ``sign-in-to-join`` when the seat has none."""
    game = get_game(seat.game_id)
    held = game.seats[seat.seat].account_id
    account = db.session.get(Account, held) if held else None
    if account is None or account.deleted_at is not None:
        raise Unauthorized(
            "Only a player with an account may join tables or ask for rematches by "
            "mail; sign in on the web first.",
            code="sign-in-to-join",
        )
    return account


def join(seat: SeatGrant, game_id: str, key: str, once) -> tuple[bool, str]:
    """Take a seat at table ``game_id``; return ``(True, the answer's sentence)``."""
    command = lobby.TakeSeat(game_id, _account(seat))
    _, taken = once(
        seat, key, {"join": game_id}, "POST seats", lambda uow: lobby.take_seat(uow, command)
    )
    started = " The table is full: the game starts." if taken["status"] == "active" else ""
    table = naming.game_words(get_game(game_id), taken["seat"])
    return True, f"You took a seat at the table of {table}, as {taken['name']}.{started}"


def again(seat: SeatGrant, key: str, once) -> tuple[bool, str]:
    """Start this game's rematch; return ``(True, the answer's sentence)``."""
    account = _account(seat)
    _, created = once(
        seat,
        key,
        {"rematch": seat.game_id},
        "POST rematch",
        lambda uow: rematch.rematch(seat.game_id, account, uow),
    )
    waits = " It waits for its invited players." if created["shown"]["status"] == "waiting" else ""
    new = get_game(created["id"])
    mine = next((s.seat for s in new.seats if s.account_id == account.id), None)
    base = settings.current().service.base_url
    return True, (
        f"The rematch: {naming.game_words(new, mine)}.{waits} Its page: {base}/games/{new.id}"
    )
