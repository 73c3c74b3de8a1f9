"""What follows a committed game transition: every handler, registered in one place.

A context function writes a transition through a :class:`~arbiter.uow.UnitOfWork`;
these are the handlers the unit of work then runs (:func:`install`, at start-up):

- staged, in the transaction: the mails (:func:`arbiter.games.notify.mail_players`),
  the web hook deliveries (:func:`arbiter.games.game_hooks.post_hooks`), the ratings
  of a rated game that ended (:func:`arbiter.accounts.ratings.rate_game`), the bot's
  move a game waits for (:func:`arbiter.games.bot_moves.bot_turns`: it reads the seats
  in the transaction and enqueues the task after the commit);
- committed, after it, with what the transaction committed
  (:class:`arbiter.uow.Committed`: its transitions and the notices announced): the
  streams' notice (:func:`arbiter.streams.publish.tell`), the roll a game waits for
  (:func:`arbiter.games.chance.roll_next`), a look at a tournament's round when one
  of its games ended (:func:`arbiter.tournaments.tournament_rounds.look_at_rounds`),
  the closing of the streams of a revoked token or deleted account
  (:func:`arbiter.streams.publish.close_revoked`), the new seats of accounts for
  their open account streams (:func:`arbiter.games.followers.announce_seats`, then
  :func:`arbiter.streams.publish.follow_seats`), the resignation of a deleted bot
  account's seats in its games under way (:func:`arbiter.games.deleted_bots.resign_deleted_bots`).

Each is a plain function of the unit of work and the appended transition (or of what
was committed), tested alone.
"""

from __future__ import annotations

from arbiter import uow
from arbiter.accounts import ratings
from arbiter.games import bot_moves, chance, deleted_bots, followers, game_hooks, notify
from arbiter.streams import publish, talk_notices
from arbiter.tournaments import tournament_rounds

STAGED = (
    notify.mail_players,
    game_hooks.post_hooks,
    ratings.rate_game,
    bot_moves.bot_turns,
    followers.announce_seats,
)
COMMITTED = (
    publish.tell,
    chance.roll_next,
    tournament_rounds.look_at_rounds,
    publish.close_revoked,
    talk_notices.tell,
    publish.follow_seats,
    deleted_bots.resign_deleted_bots,
)


def install() -> None:
    """Register the handlers above with every unit of work of this process."""
    uow.register(STAGED, COMMITTED)
