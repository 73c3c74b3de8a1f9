"""Who reads a game's talk, and what each reader may read and post.

A reader is a seat of the game (its token, a personal token of its account, the page's
seat, a reply mail's capability), or a spectator: an account without a seat here, the
game's creator (its creator token), or nobody (no token). The rules (issue 24):

- ``table``: every seat; spectators only where the creator allowed it
  (:mod:`arbiter.talk.options`), before and after the end alike;
- ``private``: the two seats it is between, and nobody else, ever;
- ``spectators``: spectators; the players too once the game is over;
- notes: their author's seat only, ever (the game's record leaves them out);
- ``message-reported``: nobody through the service (the operators read the table);
- an account does not read the authors it muted (:mod:`arbiter.talk.mutes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlalchemy as sa

from arbiter.accounts import identity
from arbiter.accounts.identity import Principal
from arbiter.errors import NotFound
from arbiter.extensions import db
from arbiter.models import Account, Game, TalkEvent, TalkMute, Tournament, TournamentGame
from arbiter.talk import options


@dataclass(frozen=True)
class Reader:
    """One reader of a game's talk.

    :param seat: the reader's seat (None: a spectator).
    :param account: the reader's account (None: a game token or nobody).
    :param creator: the game's creator; :param organiser: its tournament's organiser.
    :param muted: the authors this reader's account muted.
    """

    seat: int | None = None
    account: Account | None = None
    creator: bool = False
    organiser: bool = False
    muted: frozenset[str] = field(default_factory=frozenset)

    @property
    def moderator(self) -> bool:
        """True when this reader may hide messages (the creator or an organiser)."""
        return self.creator or self.organiser


def game_of(game_id: str) -> Game:
    """Return the game row.

    :raises NotFound: ``game-not-found``.
    """
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(f"There is no game {game_id}.", code="game-not-found")
    return game


def reader_of(
    game: Game, who: Principal | str | None, account: Account | None = None, scope="games:read"
) -> Reader:
    """Return the reader ``who`` is in ``game`` (a principal, a raw token, a page's
    seat grant, or None), with the signed-in ``account`` of a page when there is one
    (the account that created the game is its creator there).

    :raises arbiter.errors.Unauthorized: a game token that is neither a seat token nor
        the creator token of this game; :raises arbiter.errors.Forbidden: a personal
        token without ``scope``.
    """
    principal = identity.as_principal(who)
    creator = identity.is_creator(game, principal) or (
        account is not None and account.id == game.creator_account_id
    )
    if principal is not None and not principal.is_account and creator:
        seat = None
    else:
        held = identity.seat_for(game, principal, scope, required=False)
        seat = None if held is None else held.seat
    if principal is not None and principal.is_account:
        account = principal.account
    if seat is None and account is not None:
        seat = next((s.seat for s in game.seats if s.account_id == account.id), None)
    return Reader(
        seat=seat,
        account=account,
        creator=creator,
        organiser=organises(game, account),
        muted=muted_by(account),
    )


def organises(game: Game, account: Account | None) -> bool:
    """True when ``account`` organises the tournament ``game`` belongs to."""
    if account is None:
        return False
    found = db.session.scalar(
        sa.select(Tournament.organiser_account_id)
        .join(TournamentGame, TournamentGame.tournament_id == Tournament.id)
        .where(TournamentGame.game_id == game.id)
    )
    return found == account.id


def muted_by(account: Account | None) -> frozenset[str]:
    """Return the authors ``account`` muted (none without an account)."""
    if account is None:
        return frozenset()
    return frozenset(
        db.session.scalars(sa.select(TalkMute.author).where(TalkMute.account_id == account.id))
    )


def author_of(game: Game, reader: Reader) -> str:
    """Return the key an author is known by (mutes, rates): the seat's account when
    there is one, else the seat of this game (an anonymous seat token); a spectator's
    account; the game's creator (its creator token)."""
    if reader.seat is not None:
        held = game.seats[reader.seat].account_id
        return f"account:{held}" if held else f"seat:{game.id}:{reader.seat}"
    if reader.account is not None:
        return f"account:{reader.account.id}"
    return f"creator:{game.id}" if reader.creator else "anonymous"


def deleted_authors(rows: list[TalkEvent]) -> frozenset[str]:
    """Return the authors among ``rows`` whose account was deleted: their messages
    read as ``DELETED_NAME`` wrote them (the log itself is never changed; issue 22,
    item 15)."""
    ids = {r.author.removeprefix("account:") for r in rows if r.author.startswith("account:")}
    if not ids:
        return frozenset()
    gone = db.session.scalars(
        sa.select(Account.id).where(Account.id.in_(ids), Account.deleted_at.is_not(None))
    )
    return frozenset(f"account:{a}" for a in gone)


def may_read(reader: Reader, entry: TalkEvent, game: Game) -> bool:
    """True when ``reader`` may read ``entry`` of ``game``'s talk (see the module);
    a muted author's messages are left out too."""
    if entry.kind == "note":
        return reader.seat is not None and entry.seat == reader.seat
    if entry.kind != "message":
        return False
    if entry.author in reader.muted and entry.seat != reader.seat:
        return False
    return may_read_channel(reader, entry.channel, entry.seat, entry.to_seat, game)


def may_read_channel(
    reader: Reader, channel: str | None, seat: int | None, to_seat: int | None, game: Game
) -> bool:
    """True when ``reader`` may read a message on ``channel`` (``seat``, ``to_seat``:
    a private message's two seats)."""
    if channel == "table":
        return reader.seat is not None or options.of(game).spectators_read_table
    if channel == "private":
        return reader.seat is not None and reader.seat in (seat, to_seat)
    if channel == "spectators":
        return reader.seat is None or game.status == "over"
    return False
