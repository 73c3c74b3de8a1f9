"""Telling the account streams about a seat an account was just given (issue 25).

``/v1/me/stream`` follows the games where its account held a seat when it connected;
a game created later with a seat of that account (a bot account seated by id, a
person named by address) must reach an open stream too, or a bot would never hear of
the game it is to play. :func:`announce_seats`, a staged handler
(:mod:`arbiter.follow_ups`), announces a :class:`SeatTaken` for each such seat of a
transition that seats players; once committed, the streams' publisher
(:func:`arbiter.streams.publish.follow_seats`) tells the hubs, which add the game to
that account's open streams from its first event.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.uow import Appended, UnitOfWork

SEATED = "seat-joined"
"""The event kind that seats a player."""


@dataclass(frozen=True)
class SeatTaken:
    """Notice: the account ``account_id`` holds seat ``seat`` of ``game_id`` from now on."""

    account_id: str
    game_id: str
    seat: int


def announce_seats(uow: UnitOfWork, appended: Appended) -> None:
    """Staged handler: announce a :class:`SeatTaken` for each seat held by an account
    that ``appended`` seats (its ``seat-joined`` events); nothing for other
    transitions."""
    seated = {e.seat for e in appended.events if e.kind == SEATED}
    if not seated:
        return
    for seat in appended.game.seats:
        if seat.seat in seated and seat.account_id:
            uow.announce(SeatTaken(seat.account_id, appended.game_id, seat.seat))
