"""The unit of work of the write path: one transaction, then what follows it.

A context function writes through a :class:`UnitOfWork`: it appends a game's events
(:func:`arbiter.games.commit.write`), which records the transition here; the handlers
registered for a transition then run in two phases, each testable alone:

- **staged** handlers run inside the transaction, once the events are flushed: they
  write the rows that must commit with the events or not at all (turn mails, web hook
  deliveries, ratings) and name the tasks to enqueue once they have (:meth:`enqueue`);
- **committed** handlers run after the commit, with what the transaction committed
  at once (:class:`Committed`: every transition, and the notices a context function
  announced with :meth:`UnitOfWork.announce`, small typed records such as a revoked
  token): they tell the streams, and enqueue rolls and tournament progress.

The handlers are registered in one place, :mod:`arbiter.follow_ups`, at start-up;
this module knows none of them. The edge of a channel may hand the unit of work an
answer keeper (:mod:`arbiter.idempotency`): it turns the context function's result
into the row that stores the answer for an ``Idempotency-Key``, in the same
transaction as the events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from arbiter import queue
from arbiter.errors import Conflict
from arbiter.extensions import db
from arbiter.models import Event, Game
from engines.base import Engine


@dataclass(frozen=True)
class Appended:
    """One game's transition as written, for the handlers.

    :param game: the game row, its snapshot already moved forward.
    :param engine: its engine; :param state: the state after the transition.
    :param events: the appended events (with their ``seq``).
    :param prompt: the prompt written (``{"type": "idle"}`` for a game that is not
        active: it gets no mails, web hooks or rolls).
    :param version: the game's version after the transition.
    :param new_prompt: the prompt started with this transition (not the same decision
        part-way); :param started: a waiting game started with it.
    :param result: the final result of a game that ended, else None.
    :param since: the version at which the prompt began (``prompt_since``).
    :param deadline: the prompt's deadline (UTC) or None; :param deadlines: each
        seat's deadline (UTC) on a running clock, for the turn mails.
    """

    game: Game
    engine: Engine
    state: dict
    events: list[Event]
    prompt: dict
    version: int
    new_prompt: bool
    started: bool
    result: dict | None
    since: int = 0
    deadline: Any = None
    deadlines: dict | None = None
    game_id: str = ""
    """The game's id, read before the commit expires the game row."""


@dataclass(frozen=True)
class Committed:
    """What one transaction committed, for the committed handlers.

    :param appended: every game transition written, in order.
    :param notices: the notices announced (:meth:`UnitOfWork.announce`), in order:
        small frozen dataclasses that the context defining them documents (e.g.
        :class:`arbiter.accounts.accounts.TokenRevoked`); a handler picks the kinds it
        knows with ``isinstance`` and ignores the rest.
    """

    appended: tuple[Appended, ...] = ()
    notices: tuple[Any, ...] = ()


StagedHandler = Callable[["UnitOfWork", Appended], None]
CommittedHandler = Callable[[Committed], None]


@dataclass
class Handlers:
    """The registered handlers (see the module): filled once by
    :func:`arbiter.follow_ups.install`."""

    staged: list[StagedHandler] = field(default_factory=list)
    committed: list[CommittedHandler] = field(default_factory=list)


HANDLERS = Handlers()


def register(staged: Sequence[StagedHandler], committed: Sequence[CommittedHandler]) -> None:
    """Set the handlers every unit of work runs (replacing any set before)."""
    HANDLERS.staged[:] = staged
    HANDLERS.committed[:] = committed


class AnswerKeeper(Protocol):
    """What the edge gives a unit of work to keep an idempotent answer
    (:class:`arbiter.idempotency.Keeper`)."""

    def row(self, result: Any) -> Any:
        """Return the row storing ``result`` as the request's answer (or None)."""

    def replayed(self) -> None:
        """Raise :class:`arbiter.idempotency.Answered` when a twin request with the
        same key has committed its answer meanwhile."""


class AnswerRace(Conflict):
    """A twin request with the same Idempotency-Key committed first (409
    ``stale-version``); the edge answers with the twin's answer."""

    code = "stale-version"


class UnitOfWork:
    """One transaction of the write path (see the module).

    :param session: the SQLAlchemy session (default: the app's scoped session).
    :param keeper: the edge's answer keeper, or None (no Idempotency-Key).
    """

    def __init__(self, session: Session | None = None, keeper: AnswerKeeper | None = None):
        self.session = session if session is not None else db.session
        self.keeper = keeper
        self.appended: list[Appended] = []
        self.notices: list[Any] = []
        self.tasks: list[tuple[str, tuple]] = []
        self.memo: dict = {}
        """What a handler may keep for the rest of this transaction (a cache)."""
        self._rows: list[tuple[str, Any]] = []

    def record(self, appended: Appended) -> None:
        """Run the staged handlers for a transition just appended, in the transaction."""
        for handler in HANDLERS.staged:
            handler(self, appended)
        self.appended.append(appended)

    def announce(self, notice: Any) -> None:
        """Hand ``notice`` (a small frozen dataclass of the context) to the committed
        handlers once the transaction has committed (:class:`Committed`); nothing is
        announced when it rolls back."""
        self.notices.append(notice)

    def enqueue(self, task: str, *args: Any) -> None:
        """Enqueue ``task`` with ``args`` once the transaction has committed."""
        self.tasks.append((task, args))

    def enqueue_row(self, task: str, row: Any) -> None:
        """Enqueue ``task`` with the id of ``row`` (a row added to the session, whose id
        the flush gives) once the transaction has committed."""
        self._rows.append((task, row))

    def replayed(self) -> None:
        """Before trying again after a lost race: raise the edge's
        :class:`arbiter.idempotency.Answered` when a twin request has answered."""
        if self.keeper is not None:
            self.keeper.replayed()

    def commit(self, result: Any = None) -> None:
        """Write the answer row for ``result`` (when the edge keeps answers), commit,
        then run the committed handlers and enqueue the tasks.

        :raises AnswerRace: a twin request with the same Idempotency-Key committed
            first; nothing of this one is written.
        """
        try:
            if self.keeper is not None and result is not None:
                row = self.keeper.row(result)
                if row is not None:
                    self.session.add(row)
            if self._rows:
                self.session.flush()
            for task, row in self._rows:
                self.tasks.append((task, (row.id,)))  # read before the commit expires it
            self.session.commit()
        except IntegrityError as err:
            self.rollback()
            raise AnswerRace(
                "Another request with this Idempotency-Key was answered meanwhile."
            ) from err
        except BaseException:
            self.rollback()
            raise
        self.after_commit()

    def after_commit(self) -> None:
        """Run the committed handlers with what was committed (:class:`Committed`) and
        enqueue the tasks (once)."""
        done = Committed(tuple(self.appended), tuple(self.notices))
        self.appended, self.notices = [], []
        tasks, self.tasks = self.tasks, []
        self.memo, self._rows = {}, []
        if done.appended or done.notices:
            for handler in HANDLERS.committed:
                handler(done)
        for task, args in tasks:
            queue.enqueue(task, *args)

    def rollback(self) -> None:
        """Roll the transaction back and forget what was to follow it."""
        self.session.rollback()
        self.appended, self.notices, self.tasks, self._rows, self.memo = [], [], [], [], {}
