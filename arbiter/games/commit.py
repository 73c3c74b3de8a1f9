"""Writing a transition: its events and snapshot, in the unit of work's transaction.

:func:`write` appends a :class:`~arbiter.games.transition.Transition` through the
store and records it in the :class:`~arbiter.uow.UnitOfWork`, whose handlers
(:mod:`arbiter.follow_ups`) then write its mails and web hooks and, once committed,
tell the streams and enqueue its roll. :func:`commit` is the one-transition case.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arbiter import queue
from arbiter.games import clock, events, store
from arbiter.games.transition import Transition
from arbiter.models import Event, OutboxMail
from arbiter.models.timestamps import utcnow
from arbiter.uow import Appended, UnitOfWork


def commit(
    tr: Transition,
    extra_rows: Iterable[Any] = (),
    status: str | None = None,
    uow: UnitOfWork | None = None,
    result: Any = None,
) -> list[Event]:
    """Write ``tr`` (:func:`write`) and commit the unit of work (a new one by default)
    with ``result`` as the answer the edge may keep.

    :returns: the appended events.
    :raises arbiter.games.store.RaceLost: somebody appended first; nothing written.
    """
    uow = uow if uow is not None else UnitOfWork()
    rows = write(uow, tr, extra_rows, status)
    uow.commit(result)
    return rows


def write(
    uow: UnitOfWork, tr: Transition, extra_rows: Iterable[Any] = (), status: str | None = None
) -> list[Event]:
    """Append ``tr``'s events with the game's new snapshot and ``extra_rows`` (rows
    written in the same transaction), and record the transition in ``uow`` (its staged
    handlers run now); the caller commits ``uow``.

    :param status: a new game status (``active`` when a waiting game starts,
        ``cancelled``); a game that is not active gets no mails, no web hooks and no
        rolls.
    :returns: the appended events.
    :raises arbiter.games.store.RaceLost: somebody appended first; the session has
        been rolled back.
    """
    snapshot, appended = prepare(tr, status)
    extra_rows = list(extra_rows)
    rows = store.append(tr.game, tr.events, snapshot, extra_rows)
    for mail in (row for row in store.rows_of(extra_rows) if isinstance(row, OutboxMail)):
        uow.enqueue_row(queue.SEND_MAIL, mail)  # an invitation's, a started game's
    uow.record(appended(rows))
    return rows


def write_many(uow: UnitOfWork, trs: list[Transition]) -> None:
    """Write the transitions of several games (each game once) in ``uow``'s
    transaction (:func:`arbiter.games.store.append_many`: a statement per kind of row,
    not per game); the caller commits ``uow``.

    :raises arbiter.games.store.RaceLost: one of the games moved since it was read;
        nothing of the batch is written (the caller may write them one by one).
    """
    prepared = [(tr, *prepare(tr)) for tr in trs]
    store.append_many([(tr.game, tr.events, snapshot, ()) for tr, snapshot, _ in prepared])
    for tr, _, appended in prepared:
        first = tr.game.version - len(tr.events) + 1
        uow.record(appended([_row(tr.game.id, first + i, e) for i, e in enumerate(tr.events)]))


def _row(game_id: str, seq: int, event) -> Event:
    """Return an appended event as the Event row the store wrote."""
    return Event(
        game_id=game_id,
        seq=seq,
        kind=event.kind,
        seat=event.seat,
        payload=event.payload,
        visible_to=event.visible_to,
    )


def prepare(tr: Transition, status: str | None = None):
    """Work out what writing ``tr`` means, writing nothing: the game row's new
    snapshot, and a function of the appended events giving the
    :class:`~arbiter.uow.Appended` record the handlers get. A game whose status
    (``status``, else its own) is not ``active`` gets the prompt ``{"type": "idle"}``
    there: no turn mail, hook or roll."""
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
    idle = (status or game.status) != "active" and tr.result is None
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
    running = (
        clock.running(clock.config(game), timing["clock_state"])
        if prompt["type"] == "decision"
        else None
    )

    def appended(rows: list[Event]) -> Appended:
        return Appended(
            game_id=game.id,
            game=game,
            engine=engine,
            state=tr.state,
            events=rows,
            prompt={"type": "idle"} if idle else prompt,
            version=new_version,
            new_prompt=since == new_version,
            started=status == "active",
            result=tr.result,
            since=since,
            deadline=timing.get("deadline"),
            deadlines=running,
        )

    return snapshot, appended


def _same_prompt(old: dict, new: dict, tr: Transition) -> bool:
    """True when ``new`` continues ``old``: the same decision with, at most, some of its
    seats answered (a simultaneous round part-way, a resignation or a clock event in
    between). A roll, or a move by a seat outside ``old``, starts a new prompt."""
    if old.get("type") != "decision" or new.get("type") != "decision":
        return False
    if old.get("kind") != new.get("kind"):
        return False
    if any(isinstance(e, (events.ChanceOutcome, events.MovesUndone)) for e in tr.events):
        return False  # an agreed undo starts a new prompt: older versions are stale
    old_seats, new_seats = set(old["seats"]), set(new["seats"])
    movers = {e.seat for e in tr.events if isinstance(e, events.Move)}
    if not movers:
        return new_seats == old_seats
    return new_seats < old_seats and movers <= old_seats - new_seats
