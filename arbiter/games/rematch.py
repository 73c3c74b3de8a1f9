"""A rematch: a new game of a finished one, with the same players (issue 23, item 1).

Any player of a finished game may ask for one (the game page's button, ``POST
/v1/games/{id}/rematch``, the mail command ``rematch``). The new game has the same
engine, options, clock, rating and players (by name and address), a new secret seed,
and the asker as its creator. Consent is as for any created game
(:mod:`arbiter.games.invitations`): a seat whose address is an account's is linked to
it; any other address is invited, and the game waits for it.
"""

from __future__ import annotations

from arbiter.errors import Conflict, Forbidden
from arbiter.extensions import db
from arbiter.games.creation import CreateGame, GameCreated, create_game
from arbiter.games.games import NewPlayer
from arbiter.games.loading import get_game
from arbiter.models import Account, Game
from arbiter.uow import UnitOfWork


def rematch(
    game_id: str,
    requested_by: Account | None,
    uow: UnitOfWork | None = None,
    creator_key: str | None = None,
) -> GameCreated:
    """Create the rematch of the finished game ``game_id``, asked for by a player's
    account; commit ``uow`` (a new one by default).

    :param creator_key: who asks, for the invitation rate limit (default: the account).
    :returns: the new game, as :func:`arbiter.games.creation.create_game` returns it.
    :raises arbiter.errors.NotFound: ``game-not-found``; :raises Conflict:
        ``game-not-over`` (a rematch follows a finished game); :raises Forbidden:
        ``not-a-player`` (the account held no seat of it); and what game creation
        raises (``invitation-refused`` when an address blocks invitations, the
        invitation budget).
    """
    game = get_game(game_id)
    if game.status != "over":
        raise Conflict("A rematch follows a finished game; this one is not over.", "game-not-over")
    if requested_by is None or not any(s.account_id == requested_by.id for s in game.seats):
        raise Forbidden("Only a player of this game may ask for its rematch.", "not-a-player")
    command = CreateGame(
        game.engine,
        players_of(game),
        dict(game.options or {}),
        dict(game.clock or {}),
        requested_by,
        game.rated,
        creator_key or f"account:{requested_by.id}",
    )
    return create_game(uow or UnitOfWork(), command)


def players_of(game: Game) -> list[NewPlayer]:
    """Return the finished game's players for a new game: each seat's name, and the
    address of its account (else the one it was created with); a bot seat's bot."""
    players = []
    for seat in game.seats:
        if seat.bot:
            players.append(NewPlayer(seat.name, bot=dict(seat.bot)))
            continue
        account = db.session.get(Account, seat.account_id) if seat.account_id else None
        live = account is not None and account.deleted_at is None
        players.append(NewPlayer(seat.name, account.email if live else seat.email, seat.tz))
    return players
