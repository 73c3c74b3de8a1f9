"""The games an account holds seats in (``GET /v1/me/games``)."""

from __future__ import annotations

import sqlalchemy as sa
import sqlalchemy.orm

from arbiter.extensions import db
from arbiter.models import Account, Game, Seat
from arbiter.models.timestamps import iso
from arbiter.service import clock

MAX_GAMES = 500
"""At most this many games are listed (most recently moved first)."""


def games_of(account: Account, to_act: bool = False, status: str | None = None
             ) -> list[dict]:
    """Return ``[{"id", "engine", "status", "version", "seats", "to_act", "deadline",
    "updated_at"}]`` for the account's games; with ``to_act`` only the active games
    where one of its seats owes a move now (``to_act`` lists those seats)."""
    held = sa.select(Seat.game_id).where(Seat.account_id == account.id)
    query = (sa.select(Game).where(Game.id.in_(held))  # not DISTINCT: JSON has no "="
             .options(sa.orm.defer(Game.state))  # the list shows no state
             .order_by(Game.updated_at.desc(), Game.id).limit(MAX_GAMES))
    if to_act:
        query = query.where(Game.status == "active", Game.prompt_type == "decision")
    elif status:
        query = query.where(Game.status == status)
    out = []
    for game in db.session.scalars(query):
        mine = [s.seat for s in game.seats if s.account_id == account.id]
        owing = [s for s in mine if s in game.to_act and not game.seats[s].resigned]
        if to_act and not owing:
            continue
        out.append({"id": game.id, "engine": game.engine, "status": game.status,
                    "version": game.version, "seats": mine, "to_act": owing,
                    "deadline": iso(clock.earliest(game)), "updated_at": iso(game.updated_at)})
    return out


def followed(account: Account) -> dict[str, tuple[int, int, bool]]:
    """Return ``{game_id: (seat, version, over)}`` for the games ``/v1/me/stream``
    follows: every game where the account holds a seat (at most ``MAX_GAMES``, most
    recently moved first; with two seats in one game, the lower one's view)."""
    rows = db.session.execute(
        sa.select(Game.id, sa.func.min(Seat.seat), Game.version, Game.status)
        .join(Seat, Seat.game_id == Game.id).where(Seat.account_id == account.id)
        .group_by(Game.id, Game.version, Game.status, Game.updated_at)
        .order_by(Game.updated_at.desc(), Game.id).limit(MAX_GAMES)).all()
    return {game_id: (seat, version, status == "over")
            for game_id, seat, version, status in rows}
