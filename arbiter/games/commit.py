"""Writing a transition: events, snapshot, mails and follow-up tasks, atomically."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from arbiter import queue
from arbiter.accounts import ratings
from arbiter.extensions import db
from arbiter.games import clock, game_hooks, notify, store
from arbiter.games.transition import Transition
from arbiter.hooks import webhooks
from arbiter.models import Event, OutboxMail, TournamentGame
from arbiter.models.timestamps import utcnow
from arbiter.streams import publish


def commit(
    tr: Transition, extra_rows: Iterable[Any] = (), status: str | None = None
) -> list[Event]:
    """Append ``tr``'s events with the new snapshot and its mails, commit, then
    enqueue chance rolling and mail sending.

    :param status: a new game status (``active`` when a waiting game starts,
        ``cancelled``); a game that is not active gets no mails, no web hooks and no
        rolls (:mod:`arbiter.games.invitations`).
    :returns: the appended events.
    :raises arbiter.games.store.StaleVersion: somebody appended first; nothing written.
    """
    rows, after = stage(tr, extra_rows, status)
    db.session.commit()
    after_commit(*after)
    return rows


def stage(
    tr: Transition, extra_rows: Iterable[Any] = (), status: str | None = None
) -> tuple[list[Event], tuple]:
    """Write ``tr`` as :func:`commit` does (``status`` likewise), but leave the
    transaction open (several
    games' transitions committed as one: ``arbiter/games/bulk.py``). Its web hook
    deliveries are enqueued by their own ``after_commit`` listener
    (:func:`arbiter.hooks.webhooks.install`).

    :returns: the appended events, and the arguments of :func:`after_commit` to call
        once the caller has committed.
    :raises arbiter.games.store.StaleVersion: somebody appended first; the session has been
        rolled back.
    """
    snapshot, extras, mails, after = prepare(tr, extra_rows, status)
    rows = store.append(tr.game, tr.events, snapshot, extras)
    return rows, (*after, [m.id for m in mails])  # ids read before the commit expires them


def prepare(
    tr: Transition, extra_rows: Iterable[Any] = (), status: str | None = None
) -> tuple[dict, list, list, tuple]:
    """Work out what writing ``tr`` means, writing nothing: the new snapshot of the
    game row, the extra rows (its mails, ``extra_rows``, the ratings of a game that
    ends, its web hook deliveries), the mails among them (an invitation mail of
    ``extra_rows`` too), and the first arguments of :func:`after_commit` (``game_id,
    prompt, version``; the mail ids follow once they are flushed). A game whose status
    (``status``, else its own) is not ``active`` gets no turn mail, hook or roll: its
    prompt for :func:`after_commit` is ``{"type": "idle"}``."""
    game, engine = tr.game, tr.engine
    old_prompt = game.prompt or {}
    prompt = (
        {"type": "over", "result": tr.result}
        if tr.result is not None
        else engine.prompt(tr.state).to_json()
    )
    new_version = game.version + len(tr.events)
    since = game.prompt_since if _same_prompt(old_prompt, prompt, tr) else new_version
    timing = clock.advance(game, tr.events, prompt, since == new_version, game.resigned, utcnow())
    mails, hooks = [], []
    idle = (status or game.status) != "active" and tr.result is None
    if idle:
        pass
    elif tr.result is not None:
        mails = notify.over_mails(game, engine, tr.result)
        hooks = [
            lambda: webhooks.notify(
                db.session, "game_over", *game_hooks.game_over(game, tr.result, new_version)
            )
        ]
    elif prompt["type"] == "decision" and since == new_version:
        mails = notify.turn_mails(
            game,
            engine,
            tr.state,
            engine.prompt(tr.state),
            since,
            clock.running(clock.config(game), timing["clock_state"]),
        )
    if not idle and prompt["type"] == "decision" and (since == new_version or status == "active"):
        # a new prompt, or a waiting game's start (whose mails come with it)
        hooks = [
            lambda: webhooks.notify(
                db.session, "turn", *game_hooks.turn(game, prompt, since, timing.get("deadline"))
            )
        ]
    snapshot = {
        "state": tr.state,
        "prompt": prompt,
        "prompt_type": prompt["type"],
        "prompt_since": since,
        "engine_version": engine.version,
        **timing,
    }
    if status:
        snapshot["status"] = status
    if tr.result is not None:
        snapshot.update(status="over", result=tr.result, deadline=None, remind_at=None)
    ended = [lambda: ratings.game_over(game, tr.result)] if tr.result is not None else []
    extra_rows = list(extra_rows)
    return (
        snapshot,
        [*mails, *extra_rows, *ended, *hooks],
        [*mails, *(m for m in extra_rows if isinstance(m, OutboxMail))],
        (game.id, {"type": "idle"} if idle else prompt, new_version),
    )


def commit_many(trs: list[Transition]) -> None:
    """Write the transitions of several games (each game once) in one transaction
    (:func:`arbiter.games.store.append_many`: a statement per kind of row, not per game),
    commit, then tell the streams and enqueue what each needs, as :func:`commit` does.

    :raises arbiter.games.store.StaleVersion: one of the games moved since it was read;
        nothing of the batch is written (the caller may write them one by one).
    """
    prepared = [(tr, *prepare(tr)) for tr in trs]
    store.append_many(
        [(tr.game, tr.events, snapshot, extras) for tr, snapshot, extras, _, _ in prepared]
    )
    afters = [(*after, [m.id for m in mails]) for _, _, _, mails, after in prepared]
    db.session.commit()
    publish.committed_many([(game_id, version) for game_id, _, version, _ in afters])
    for game_id, prompt, version, mail_ids in afters:
        after_commit(game_id, prompt, version, mail_ids, published=True)


def after_commit(
    game_id: str, prompt: dict, version: int, mail_ids: list[int], published: bool = False
) -> None:
    """Tell the streams (unless ``published`` already), and enqueue what the committed
    transition needs: a roll, the mails, and for a tournament's game that ended, a look
    at whether its round is over (:func:`arbiter.tournaments.tournament_rounds.advance`)."""
    if not published:
        publish.committed(game_id, version)
    if prompt["type"] == "chance":
        queue.enqueue(queue.RESOLVE_CHANCE, game_id, version)
    for mail_id in mail_ids:
        queue.enqueue(queue.SEND_MAIL, mail_id)
    if prompt["type"] == "over":
        tournament_id = _tournament_of(game_id)
        if tournament_id is not None:
            queue.enqueue(queue.ADVANCE_TOURNAMENT, tournament_id)


def _tournament_of(game_id: str) -> str | None:
    """Return the id of the tournament whose round game ``game_id`` is, if any (read
    only when a game has ended: one indexed SELECT)."""
    return db.session.scalar(
        sa.select(TournamentGame.tournament_id).where(TournamentGame.game_id == game_id)
    )


def _same_prompt(old: dict, new: dict, tr: Transition) -> bool:
    """True when ``new`` continues ``old``: the same decision with, at most, some of its
    seats answered (a simultaneous round part-way, a resignation or a clock event in
    between). A roll, or a move by a seat outside ``old``, starts a new prompt."""
    if old.get("type") != "decision" or new.get("type") != "decision":
        return False
    if old.get("kind") != new.get("kind") or any(e.kind == "chance" for e in tr.events):
        return False
    old_seats, new_seats = set(old["seats"]), set(new["seats"])
    movers = {e.seat for e in tr.events if e.kind == "move"}
    if not movers:
        return new_seats == old_seats
    return new_seats < old_seats and movers <= old_seats - new_seats
