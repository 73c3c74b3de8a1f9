"""Writing a transition: events, snapshot, mails and follow-up tasks, atomically."""

from __future__ import annotations

from typing import Any, Iterable

from arbiter import queue, store
from arbiter.extensions import db
from arbiter.models import Event
from arbiter.models.timestamps import utcnow
from arbiter.service import clock, game_hooks, notify, ratings, webhooks
from arbiter.service.transition import Transition
from arbiter.streams import publish


def commit(tr: Transition, extra_rows: Iterable[Any] = ()) -> list[Event]:
    """Append ``tr``'s events with the new snapshot and its mails, commit, then
    enqueue chance rolling and mail sending.

    :returns: the appended events.
    :raises arbiter.store.StaleVersion: somebody appended first; nothing written.
    """
    rows, after = stage(tr, extra_rows)
    db.session.commit()
    after_commit(*after)
    return rows


def stage(tr: Transition, extra_rows: Iterable[Any] = ()) -> tuple[list[Event], tuple]:
    """Write ``tr`` as :func:`commit` does, but leave the transaction open (several
    games' transitions committed as one: ``arbiter/service/bulk.py``). Its web hook
    deliveries are enqueued by their own ``after_commit`` listener
    (:func:`arbiter.service.webhooks.install`).

    :returns: the appended events, and the arguments of :func:`after_commit` to call
        once the caller has committed.
    :raises arbiter.store.StaleVersion: somebody appended first; the session has been
        rolled back.
    """
    game, engine = tr.game, tr.engine
    old_prompt = game.prompt or {}
    prompt = ({"type": "over", "result": tr.result} if tr.result is not None
              else engine.prompt(tr.state).to_json())
    new_version = game.version + len(tr.events)
    since = game.prompt_since if _same_prompt(old_prompt, prompt, tr) else new_version
    timing = clock.advance(game, tr.events, prompt, since == new_version, game.resigned,
                           utcnow())
    mails, hooks = [], []
    if tr.result is not None:
        mails = notify.over_mails(game, engine, tr.result)
        hooks = [lambda: webhooks.notify(db.session, "game_over", *game_hooks.game_over(
            game, tr.result, new_version))]
    elif prompt["type"] == "decision" and since == new_version:
        mails = notify.turn_mails(game, engine, tr.state, engine.prompt(tr.state), since,
                                  clock.running(clock.config(game), timing["clock_state"]))
        hooks = [lambda: webhooks.notify(db.session, "turn", *game_hooks.turn(
            game, prompt, since, timing.get("deadline")))]
    snapshot = {"state": tr.state, "prompt": prompt, "prompt_type": prompt["type"],
                "prompt_since": since,
                "engine_version": engine.version, **timing}
    if tr.result is not None:
        snapshot.update(status="over", result=tr.result, deadline=None, remind_at=None)
    ended = [lambda: ratings.game_over(game, tr.result)] if tr.result is not None else []
    rows = store.append(game, tr.events, snapshot, [*mails, *extra_rows, *ended, *hooks])
    mail_ids = [m.id for m in mails]  # read before the commit expires them
    return rows, (game.id, prompt, new_version, mail_ids)


def after_commit(game_id: str, prompt: dict, version: int, mail_ids: list[int]) -> None:
    """Tell the streams, and enqueue what the committed transition needs: a roll,
    the mails."""
    publish.committed(game_id, version)
    if prompt["type"] == "chance":
        queue.enqueue(queue.RESOLVE_CHANCE, game_id, version)
    for mail_id in mail_ids:
        queue.enqueue(queue.SEND_MAIL, mail_id)


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
