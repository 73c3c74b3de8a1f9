"""The games an account holds seats in (``GET /v1/me/games``)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from arbiter.extensions import db
from arbiter.games import clock
from arbiter.models import Account, Game, Seat
from arbiter.models.timestamps import iso

MAX_GAMES = 500
"""At most this many games are listed (most recently moved first)."""


def games_of(account: Account, to_act: bool = False, status: str | None = None) -> list[dict]:
    """Return ``[{"id", "engine", "status", "version", "seats", "to_act", "deadline",
    "updated_at"}]`` for the account's games (at most ``MAX_GAMES``, most recently moved
    first); with ``to_act`` only the active games where one of its seats owes a move
    now (``to_act`` lists those seats).

    One statement, columns only (no state, no full prompt: only the seats it waits
    for), read from the account's seats (indexed) to their games; with ``to_act`` the
    owing seats are picked in SQL, so the limit counts only games that owe a move.
    """
    mine = Seat.account_id == account.id
    page = sa.select(Game.id, Game.updated_at).join(Seat, Seat.game_id == Game.id).where(mine)
    if to_act:
        # Game.to_act in SQL: only a decision's prompt has "seats", and a waiting game owes
        # nothing yet. Not "status = 'active'": PostgreSQL then reads every active game
        # by its index and hashes them against my seats, instead of my seats' games
        page = page.where(Game.status != "waiting", *_owing(Seat))
    elif status:
        page = page.where(Game.status == status)
    page = (
        page.group_by(Game.id, Game.updated_at)  # a game with two of my seats: once
        .order_by(Game.updated_at.desc(), Game.id)
        .limit(MAX_GAMES)
    )
    page = page.cte("page")
    rows = db.session.execute(
        sa.select(
            Game.id,
            Game.engine,
            Game.status,
            Game.version,
            Game.updated_at,
            Game.prompt_type,
            Game.prompt["seats"].label("waits_for"),
            Game.clock,
            Game.clock_state,
            Seat.seat,
            Seat.resigned,
        )
        .join(page, page.c.id == Game.id)
        .join(Seat, sa.and_(Seat.game_id == Game.id, mine))
        .order_by(page.c.updated_at.desc(), page.c.id, Seat.seat)
    ).all()
    out: list[dict] = []
    for row in rows:
        if not out or out[-1]["id"] != row.id:
            out.append(
                {
                    "id": row.id,
                    "engine": row.engine,
                    "status": row.status,
                    "version": row.version,
                    "seats": [],
                    "to_act": [],
                    "deadline": iso(clock.earliest_of(row.clock, row.clock_state)),
                    "updated_at": iso(row.updated_at),
                }
            )
        game = out[-1]
        game["seats"].append(row.seat)
        waits = (
            (row.waits_for or [])
            if (row.prompt_type == "decision" and row.status != "waiting")
            else []
        )
        if row.seat in waits and not row.resigned:
            game["to_act"].append(row.seat)
    return [g for g in out if g["to_act"]] if to_act else out


def _owing(seat) -> tuple:
    """Return the SQL conditions under which ``seat`` (the Seat entity or an alias,
    joined to its game) owes a move: not resigned, and among the seats the game's
    prompt waits for (JSON: ``@>`` on PostgreSQL, ``json_each`` on SQLite)."""
    waits = Game.prompt["seats"]
    if db.engine.dialect.name == "postgresql":
        listed = sa.cast(waits, JSONB).contains(sa.func.to_jsonb(seat.seat))
    else:
        each = sa.func.json_each(Game.prompt, "$.seats").table_valued("value")
        listed = sa.exists(sa.select(1).select_from(each).where(each.c.value == seat.seat))
    return seat.resigned.is_(False), listed


def followed(account: Account) -> dict[str, tuple[int, int, bool]]:
    """Return ``{game_id: (seat, version, over)}`` for the games ``/v1/me/stream``
    follows: every game where the account holds a seat (at most ``MAX_GAMES``, most
    recently moved first; with two seats in one game, the lower one's view)."""
    rows = db.session.execute(
        sa.select(Game.id, sa.func.min(Seat.seat), Game.version, Game.status)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.account_id == account.id)
        .group_by(Game.id, Game.version, Game.status, Game.updated_at)
        .order_by(Game.updated_at.desc(), Game.id)
        .limit(MAX_GAMES)
    ).all()
    return {game_id: (seat, version, status == "over") for game_id, seat, version, status in rows}


def owing(account: Account) -> set[str]:
    """Return the ids of the games where one of the account's seats owes a move now
    (:func:`games_of` with ``to_act``): where ``/v1/me/stream`` starts with the last
    event."""
    return {g["id"] for g in games_of(account, to_act=True)}
