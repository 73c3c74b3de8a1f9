"""Creating a game: the command, its result, and the one transaction that writes it.

A channel (``POST /v1/games``, a campaign's next game, a bench script) makes a
:class:`CreateGame` and calls :func:`create_game` with a
:class:`~arbiter.uow.UnitOfWork`; the edge keeps the answer for an Idempotency-Key
(the unit of work writes it with the game). Many games at once:
:mod:`arbiter.games.bulk`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from arbiter.accounts import inviters
from arbiter.games import reading
from arbiter.games.commit import write
from arbiter.games.games import NewPlayer, prepare_game
from arbiter.models import Account, Game
from arbiter.talk import options as talk_options
from arbiter.uow import UnitOfWork


@dataclass(frozen=True)
class CreateGame:
    """A new game, from any channel.

    :param creator: the account creating it (None: a creator token only). A seat whose
        email is a verified account's is linked to that account; any other address is
        invited (:mod:`arbiter.games.invitations`: only an account may invite) and the
        game waits (``status = "waiting"``, clock paused) until its invited seats
        answer or ``start_at`` (UTC) comes; ``unfilled`` (``cancel`` | ``start``)
        decides for the seats nobody took.
    :param rated: the game updates its players' ratings when it ends.
    :param creator_key: who creates (:func:`arbiter.limits.caller_key`), for the
        invitation rate limit.
    """

    engine: str
    players: list[NewPlayer]
    options: dict | None = None
    clock: dict | None = None
    creator: Account | None = None
    rated: bool = False
    creator_key: str = "anonymous"
    start_at: datetime | None = None
    unfilled: str = "cancel"
    talk: dict | None = None
    """The talk options (:mod:`arbiter.talk.options`; None: the defaults)."""


@dataclass(frozen=True)
class GameCreated:
    """A created game: its ``id`` and ``version``, and ``shown``, what its creation
    shows this once (:func:`arbiter.games.reading.created`: its summary, every seat's
    token and signed web link, the creator token)."""

    id: str
    version: int
    shown: dict

    @property
    def tokens(self) -> list[str]:
        """The seat tokens, in seat order."""
        return [seat["token"] for seat in self.shown["seats"]]


def create_game(
    uow: UnitOfWork,
    command: CreateGame,
    extra_rows: Callable[[Game], Iterable[Any]] | None = None,
) -> GameCreated:
    """Create a game, its seats and its first events; commit ``uow``.

    :param extra_rows: given the new game, the rows to write in the same transaction
        (a campaign's link to its game), or None.
    :returns: the new game with its seat tokens in seat order (stored hashed, shown
        this once) and its creator token (pause, resume, extend; likewise).
    :raises arbiter.errors.Unprocessable: ``unknown-engine``, ``bad-clock``,
        ``duplicate-player-name``, ``duplicate-player-email``, ``unrated-seat``,
        ``invitation-refused`` (an address blocked invitations and ``unfilled`` is
        ``cancel``); :raises arbiter.errors.ArbiterError: 422 ``bad-start``
        (:func:`arbiter.games.games.prepare_game`); :raises
        engines.base.InvalidOptions: ``bad-player-count`` or ``bad-options``.
    :raises arbiter.errors.Unauthorized: ``sign-in-to-invite`` (no account invites an
        address); :raises arbiter.errors.TooManyRequests: ``invitation-budget`` (over
        ``INVITES_PER_DAY``), ``rate-limited`` (too many invitations to one address).
    """
    inviters.check_inviter(command.creator, [p.email for p in command.players if p.bot is None])
    tr, tokens, rows = prepare_game(
        command.engine,
        command.players,
        command.options,
        command.clock,
        command.creator,
        command.rated,
        command.creator_key,
        command.start_at,
        command.unfilled,
    )
    tr.game.talk = talk_options.checked(command.talk)
    write(uow, tr, rows)
    if extra_rows:
        uow.session.add_all(extra_rows(tr.game))
    created = GameCreated(tr.game.id, tr.game.version, reading.created(tr.game, tokens))
    uow.commit(created)
    return created
