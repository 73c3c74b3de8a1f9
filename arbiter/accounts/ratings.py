"""Ratings per engine with ``openskill``'s Plackett-Luce model, and players' reliability.

A game created with ``rated: true`` (every seat an account or a built-in bot:
:mod:`arbiter.accounts.bot_ratings`; no person twice, a bot account counting as its
owner; at least one person's own account: :func:`check_rated`) updates its players'
ratings at that engine in the transaction that appends its ``game-over``: the engine's
ranking (groups of tied seats, best first; resigned seats last) is the order given to
:meth:`openskill.models.PlackettLuce.rate`, which takes any number of players, 2-player
games included. A player's first rated game starts from the model's default (``mu`` 25,
``sigma`` 25/3). The leaderboard orders by the ordinal ``mu - 3 sigma`` (a conservative
estimate).

Reliability (webDiplomacy's idea): per account, over every game (rated or not), the
number of timeouts (moves the clock played for a seat: ``move`` events with
``timeout``) and of resignations (``resigned`` events other than a clock forfeit).
"""

from __future__ import annotations

import sqlalchemy as sa
from openskill.models import PlackettLuce

from arbiter.accounts import bot_ratings
from arbiter.errors import Unprocessable
from arbiter.extensions import db
from arbiter.models import Account, Event, Game, Rating, Seat
from arbiter.models.timestamps import iso, utcnow
from arbiter.uow import Appended, UnitOfWork

MODEL = PlackettLuce()
"""The rating model, with openskill's defaults."""


def check_rated(seats: list[Seat]) -> None:
    """Refuse a rated game whose seats cannot all be rated fairly: every seat must be
    a verified account (a person's, or a bot account seated by its id) or a built-in
    bot (rated as its bot: :func:`bot_game_over`); no two seats may belong to the same
    person (a bot account belongs to its owner: a person and their own bot account,
    or two bot accounts of one owner, would let one person farm rating); and at least
    one seat must be a person's own account (a game of bots only, built-in or bot
    accounts, would let anybody move the bots' ratings).

    :raises Unprocessable: ``unrated-seat``, naming the seat and why.
    """
    if len(seats) < 2:
        raise Unprocessable("A rated game needs at least two seats.", code="unrated-seat")
    owners: dict[str, Seat] = {}
    for seat in seats:
        if seat.bot:
            continue
        if seat.account_id is None:
            raise Unprocessable(
                f"{seat.name!r} cannot play a rated game: each seat of a rated game is "
                "the address of a verified account, a bot account or a built-in bot.",
                code="unrated-seat",
            )
        owner = _owner_of(seat)
        if owner in owners:
            raise Unprocessable(
                f"{owners[owner].name!r} and {seat.name!r} cannot both play this rated "
                f"game: {_same_person(owners[owner], seat)}, and in a rated game each "
                "seat belongs to a different person.",
                code="unrated-seat",
            )
        owners[owner] = seat
    if not any(s.account_id and not s.bot and not s.bot_account for s in seats):
        raise Unprocessable(
            "A rated game needs at least one person playing: here every seat ("
            + ", ".join(repr(s.name) for s in seats)
            + ") is a bot. Play it unrated, or seat a person.",
            code="unrated-seat",
        )


def _owner_of(seat: Seat) -> str:
    """Return the id of the person a seat's account belongs to: the account's own, or
    a bot account's owner's."""
    if not seat.bot_account:
        return seat.account_id
    bot = db.session.get(Account, seat.account_id)
    return bot.bot_owner_id if bot is not None and bot.bot_owner_id else seat.account_id


def _same_person(first: Seat, second: Seat) -> str:
    """Return why two seats belong to one person, as a clause."""
    if first.bot_account and second.bot_account:
        return "both are bot accounts of the same person"
    if first.bot_account or second.bot_account:
        bot, person = (first, second) if first.bot_account else (second, first)
        return f"{bot.name!r} is a bot account owned by {person.name!r}"
    return "they are the same account"


def places(ranking: list[list[int]], players: int) -> list[int]:
    """Return each seat's place (0 best; tied seats share one) from a result's
    ``ranking`` (groups of seats, best first); a seat in no group comes last."""
    place = [len(ranking)] * players
    for number, group in enumerate(ranking):
        for seat in group:
            place[seat] = number
    return place


def game_over(game: Game, result: dict) -> list[Rating]:
    """Return the ratings of ``game``'s players updated by its ``result`` (rows to
    write in the transaction that ends the game); none for an unrated game, nor for
    one the players aborted by agreement (issue 24).

    The rows are read ``FOR UPDATE`` (PostgreSQL) so that two games ending at once for
    one player both count; on SQLite the write lock the game's UPDATE took already
    serialises them.
    """
    if not game.rated or result.get("reason") == "aborted":  # aborted by agreement
        return []
    seats = sorted(game.seats, key=lambda s: s.seat)
    ids = [s.account_id for s in seats if not s.bot]
    found = {
        r.account_id: r
        for r in db.session.scalars(
            sa.select(Rating)
            .where(Rating.engine == game.engine, Rating.account_id.in_(ids))
            .with_for_update()
        )
    }
    bots = bot_ratings.rows_of(game.engine, [s.bot for s in seats if s.bot], MODEL.mu, MODEL.sigma)
    rows = [
        bots[bot_ratings.key(s.bot)]
        if s.bot
        else found.get(s.account_id)
        or Rating(
            account_id=s.account_id, engine=game.engine, games=0, mu=MODEL.mu, sigma=MODEL.sigma
        )
        for s in seats
    ]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in rows]
    rated = MODEL.rate(teams, ranks=places(result.get("ranking", []), len(seats)))
    now = utcnow()
    mirrored = bot_ratings.mirrored([s.bot for s in seats if s.bot])
    for seat, row, (after,) in zip(seats, rows, rated):
        if seat.bot and bot_ratings.key(seat.bot) in mirrored:
            continue  # a bot against itself: no rating of its own moves
        row.mu, row.sigma, row.games, row.updated_at = after.mu, after.sigma, row.games + 1, now
    return [r for s, r in zip(seats, rows) if not (s.bot and bot_ratings.key(s.bot) in mirrored)]


def shown(row: Rating) -> dict:
    """Return a rating as the API shows it."""
    return {
        "engine": row.engine,
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "ordinal": round(row.mu - 3 * row.sigma, 3),
        "games": row.games,
        "updated_at": iso(row.updated_at),
    }


def of_account(account: Account) -> list[dict]:
    """Return the account's ratings, one per engine it played rated games of."""
    rows = db.session.scalars(
        sa.select(Rating).where(Rating.account_id == account.id).order_by(Rating.engine)
    )
    return [shown(r) for r in rows]


def leaderboard(engine: str, limit: int) -> list[dict]:
    """Return the best ``limit`` ratings at ``engine`` by ordinal, with each player's
    display name and reliability (deleted accounts left out)."""
    ordinal = Rating.mu - 3 * Rating.sigma
    rows = db.session.execute(
        sa.select(Rating, Account)
        .join(Account, Account.id == Rating.account_id)
        .where(Rating.engine == engine, Account.deleted_at.is_(None))
        .order_by(ordinal.desc(), Rating.account_id)
        .limit(limit)
    ).all()
    return [
        {
            "rank": n,
            "account": account.id,
            "display_name": account.display_name,
            **shown(row),
            "reliability": reliability(account),
        }
        for n, (row, account) in enumerate(rows, start=1)
    ]


def has_key(column, key: str):
    """Return the SQL condition "the JSON object in ``column`` has ``key``" (with a
    value that is not JSON null). SQLAlchemy's ``column[key]`` cannot say so on SQLite:
    it renders ``JSON_QUOTE(JSON_EXTRACT(..))``, the text ``'null'`` for a missing key,
    never NULL; ``JSON_EXTRACT`` alone is NULL there, as ``->`` is on PostgreSQL."""
    if db.session.get_bind().dialect.name == "sqlite":
        return sa.func.json_extract(column, f'$."{key}"').is_not(None)
    return column[key].is_not(None)


def reliability(account: Account) -> dict:
    """Return the account's reliability over all its seats, counted per game:
    ``{"timeouts", "resignations", "games", "score"}``.

    - ``timeouts``: games in which its seat was to blame for a clock's decision: its
      own clock ran out (a timeout move, or a clock forfeit), or it owed a decision
      when a tournament round's deadline came (``"owed": true``). A seat that had
      moved and was waiting for the others is moved by a round deadline without
      blame; a round-deadline move logged before ``owed`` was kept is blamed only on
      the seat that received the game's first one (it owed that decision).
    - ``resignations``: games it resigned itself (not clock forfeits, which are
      timeouts, nor a seat resigned because a tournament's organiser withdrew its
      entry: ``withdrawn`` with ``by`` ``"organiser"``; a withdrawn seat logged before
      ``by`` was kept is not counted either: who withdrew it is unknown).
    - ``games``: seats held. ``score``: ``1 - (timeouts + resignations) / games``
      (1.0 for no games), never below 0.
    """
    mine = sa.and_(
        Seat.game_id == Event.game_id, Seat.seat == Event.seat, Seat.account_id == account.id
    )
    found = db.session.execute(
        sa.select(Event.game_id, Event.seat, Event.kind, Event.payload)
        .join(Seat, mine)
        .where(
            sa.or_(
                sa.and_(Event.kind == "move", has_key(Event.payload, "timeout")),
                Event.kind == "resigned",
            )
        )
    ).all()
    timed_out, resigned, legacy = set(), set(), set()
    for game_id, seat, kind, payload in found:
        payload = payload or {}
        if kind == "move":
            timeout = payload.get("timeout") or {}
            if not timeout.get("round") or timeout.get("owed"):
                timed_out.add(game_id)
            elif "owed" not in timeout:
                legacy.add((game_id, seat))
        elif payload.get("forfeit"):
            timed_out.add(game_id)
        elif not (payload.get("withdrawn") and payload.get("by", "organiser") == "organiser"):
            resigned.add(game_id)
    timed_out |= {g for g, seat in legacy if _first_round_timeout(g) == seat}
    seats = db.session.scalar(
        sa.select(sa.func.count()).select_from(Seat).where(Seat.account_id == account.id)
    )
    share = (len(timed_out) + len(resigned)) / seats if seats else 0.0
    return {
        "timeouts": len(timed_out),
        "resignations": len(resigned),
        "games": seats,
        "score": round(max(0.0, 1.0 - share), 4),
    }


def _first_round_timeout(game_id: str) -> int | None:
    """Return the seat of the game's first move played by a round deadline."""
    moves = db.session.execute(
        sa.select(Event.seat, Event.payload)
        .where(Event.game_id == game_id, Event.kind == "move", has_key(Event.payload, "timeout"))
        .order_by(Event.seq)
    )
    return next((seat for seat, p in moves if (p.get("timeout") or {}).get("round")), None)


def rate_game(uow: UnitOfWork, appended: Appended) -> None:
    """Staged handler (:mod:`arbiter.follow_ups`): a rated game that ended updates its
    players' ratings in the transaction that ends it (:func:`game_over`)."""
    if appended.result is not None:
        uow.session.add_all(game_over(appended.game, appended.result))
