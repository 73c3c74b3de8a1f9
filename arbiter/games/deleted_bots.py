"""The seats of a deleted bot account: resigned in its games under way, so that no
game waits forever on a seat nobody can play (a bot account moves only by its token,
and its deletion revokes it; a person's deleted account keeps its seats)."""

from __future__ import annotations

import sqlalchemy as sa

from arbiter.accounts.accounts import AccountDeleted
from arbiter.extensions import db
from arbiter.games import moves
from arbiter.games.commit import commit
from arbiter.games.games import load
from arbiter.games.store import RaceLost
from arbiter.models import Account, Game, Seat
from arbiter.uow import Committed, UnitOfWork


def resign_deleted_bots(done: Committed) -> None:
    """Committed handler (:mod:`arbiter.follow_ups`): for each bot account deleted in
    the transaction (:class:`arbiter.accounts.accounts.AccountDeleted`), resign its
    seats in the games under way (:func:`resign_seats_of`). A person's deleted account
    keeps its seats, as before."""
    for notice in done.notices:
        if isinstance(notice, AccountDeleted):
            account = db.session.get(Account, notice.account_id)
            if account is not None and account.is_bot and account.deleted_at is not None:
                resign_seats_of(account.id)


def resign_seats_of(account_id: str) -> int:
    """Resign every seat of the account in an active game that has not resigned yet,
    each game in its own transaction, as the player's own resignation does
    (:func:`resign`: its later decisions are timeout moves, it ranks last, the game
    ends when at most one seat remains); each ``resigned`` event has
    ``"account_deleted": true``. Idempotent: a seat already resigned, or a game over
    meanwhile, is left alone; a game that moved meanwhile is read again.

    :returns: the number of seats resigned.
    """
    held = db.session.execute(
        sa.select(Seat.game_id, Seat.seat)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.account_id == account_id, Seat.resigned.is_(False), Game.status == "active")
        .order_by(Seat.game_id, Seat.seat)
    ).all()
    count = 0
    for game_id, number in held:
        for _ in range(moves.RACE_RETRIES + 1):
            game, engine, state = load(game_id)
            if game.status != "active" or game.seats[number].resigned:
                break
            tr = moves.resignation(game, engine, state, number, account_deleted=True)
            try:
                commit(tr, uow=UnitOfWork())
            except RaceLost:
                continue
            count += 1
            break
    return count
