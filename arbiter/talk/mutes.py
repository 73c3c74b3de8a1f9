"""An account's mutes: the authors whose messages it does not read, in every game.

A reader mutes the author of a message it may read; the message stays for everyone
else. Only an account mutes (a seat token or nobody has nowhere to keep it)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from arbiter.accounts.identity import Principal
from arbiter.errors import Unauthorized, Unprocessable
from arbiter.extensions import db
from arbiter.models import Account, TalkMute
from arbiter.talk.messages import message
from arbiter.talk.readers import author_of, game_of, reader_of
from arbiter.uow import UnitOfWork


@dataclass(frozen=True)
class Mute:
    """Mute (``on``) or unmute the author of message ``n`` of a game."""

    game_id: str
    who: Principal | str | None
    n: int
    on: bool = True
    account: Account | None = None


@dataclass(frozen=True)
class Muted:
    """The answer: the message's author's name, and whether it is muted now."""

    n: int
    name: str
    muted: bool


def mute(uow: UnitOfWork, command: Mute) -> Muted:
    """Mute or unmute the author of message ``n`` for the caller's account (doing it
    twice changes nothing).

    :raises Unauthorized: ``sign-in-to-mute`` (no account); :raises NotFound:
        ``no-such-message`` (none the caller may read); :raises Unprocessable:
        ``mute-self``.
    """
    game = game_of(command.game_id)
    reader = reader_of(game, command.who, command.account)
    if reader.account is None:
        raise Unauthorized(
            "Sign in to mute an author: an account keeps its mutes.", code="sign-in-to-mute"
        )
    target = message(game, command.n, replace(reader, muted=frozenset()))
    if target.author == author_of(game, reader):
        raise Unprocessable("You cannot mute yourself.", code="mute-self")
    row = db.session.get(TalkMute, (reader.account.id, target.author))
    if command.on and row is None:
        uow.session.add(TalkMute(account_id=reader.account.id, author=target.author))
    elif not command.on and row is not None:
        uow.session.delete(row)
    answer = Muted(target.n, (target.payload or {}).get("name", ""), command.on)
    uow.commit(answer)
    return answer
