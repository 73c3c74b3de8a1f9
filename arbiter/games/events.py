"""The kinds of event in a game's log, one small typed class each.

Every event the service appends to the game log is built as one of the frozen
dataclasses below rather than as a kind string with a dict: ``Resigned(seat=2,
name="Ann")`` instead of ``NewEvent("resigned", 2, {"name": "Ann"})``. Each class
has:

- ``kind``, a class attribute: the string stored in ``events.kind`` (unchanged:
  ``"move"``, ``"chance"``, ``"resigned"``, ...);
- typed fields: ``seat`` (for kinds a seat acts in) and the payload's keys;
- ``seat``, ``payload`` and ``visible_to``, which is all :func:`arbiter.games.store.append`
  reads (the store's :class:`~arbiter.games.store.NewEvent` protocol).

The row written is exactly the one written before the classes existed: ``payload``
holds the fields other than ``seat`` (and ``private`` / ``visible_to``) in the
order they are declared, and leaves out an optional field (default ``None``) whose
value is ``None``; a field without a default is always written. The saved
playthroughs (``tests/playthroughs``) check the rows byte for byte.

Readers go the other way with :func:`read`: a logged row (an ORM ``Event`` or
anything with ``kind``, ``seat``, ``payload`` and ``visible_to``) becomes its typed
event, so code asks ``isinstance(e, Move)`` instead of ``e.kind == "move"``. A row
whose kind or payload keys no class knows (an older log, a newer writer) reads as
:class:`Logged`, which carries the row as it is.

The design: ``DESIGN.md`` ("The write path": event kinds are small typed classes),
issue 21.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

# fields that are not keys of the payload
_NOT_PAYLOAD = frozenset({"seat", "private", "visible_to"})


@dataclass(frozen=True, kw_only=True)
class GameEvent:
    """The base of the typed events: the row the store writes from the fields."""

    kind: ClassVar[str]
    seat: int | None = None

    @property
    def payload(self) -> dict[str, Any]:
        """Return the JSON payload: the payload fields in declared order, an
        optional field left out when it is ``None``."""
        out = {}
        for f in dataclasses.fields(self):
            if f.name in _NOT_PAYLOAD:
                continue
            value = getattr(self, f.name)
            if value is None and f.default is None:
                continue
            out[f.name] = value
        return out

    @property
    def visible_to(self) -> list[int] | None:
        """Return the seats that may read the payload before the game is over
        (``None``: everyone)."""
        return None


@dataclass(frozen=True, kw_only=True)
class GameCreated(GameEvent):
    """``game-created``: the engine, its options and players, the seed's commitment."""

    kind: ClassVar[str] = "game-created"
    engine: str
    engine_version: str
    options: dict
    players: list[str]
    seed_commitment: str


@dataclass(frozen=True, kw_only=True)
class SeatJoined(GameEvent):
    """``seat-joined``: ``seat`` is taken by the player ``name``."""

    kind: ClassVar[str] = "seat-joined"
    seat: int
    name: str


@dataclass(frozen=True, kw_only=True)
class Move(GameEvent):
    """``move``: ``seat`` played ``move`` (``text``: the engine's notation).

    :param private: only ``seat`` may read it until the game is over.
    :param via: the channel it came by, when the command named one;
    :param auto: ``"resigned"`` when the arbiter played it for a resigned seat;
    :param timeout: the deadline that passed, when the clock played it.
    """

    kind: ClassVar[str] = "move"
    seat: int
    move: Any
    text: str
    private: bool = False
    via: str | None = None
    auto: str | None = None
    timeout: dict | None = None

    @property
    def visible_to(self) -> list[int] | None:
        return [self.seat] if self.private else None


@dataclass(frozen=True, kw_only=True)
class ChanceOutcome(GameEvent):
    """``chance``: the outcome derived for ``spec`` (``visible_to``: who may see it
    before the game is over, ``None``: everyone)."""

    kind: ClassVar[str] = "chance"
    spec: dict
    outcome: Any
    text: str
    visible_to: list[int] | None = None  # type: ignore[assignment]


@dataclass(frozen=True, kw_only=True)
class Resigned(GameEvent):
    """``resigned``: ``seat`` left the game; its later decisions are timeout moves.

    The player's own resignation has only ``name``. The clock's forfeit has
    ``forfeit`` and ``misses``; a tournament round's deadline ``forfeit``,
    ``round_deadline``, ``tournament``, ``owed``, ``absent``; a withdrawn entry
    ``withdrawn``, ``tournament`` and ``by`` (``"entrant"`` or ``"organiser"``); a
    deleted bot account's seat ``account_deleted``.
    """

    kind: ClassVar[str] = "resigned"
    seat: int
    name: str
    withdrawn: bool | None = None
    forfeit: bool | None = None
    misses: int | None = None
    round_deadline: str | None = None
    tournament: str | None = None
    owed: bool | None = None
    absent: bool | None = None
    by: str | None = None
    account_deleted: bool | None = None


@dataclass(frozen=True, kw_only=True)
class GameOver(GameEvent):
    """``game-over``: the final ``result`` (scores, ranking, reason)."""

    kind: ClassVar[str] = "game-over"
    result: dict


@dataclass(frozen=True, kw_only=True)
class SeedRevealed(GameEvent):
    """``seed-revealed``: the game's secret seed, once it is over."""

    kind: ClassVar[str] = "seed-revealed"
    seed: str


@dataclass(frozen=True, kw_only=True)
class GameStarted(GameEvent):
    """``game-started``: a waiting game starts; ``unfilled``: seats nobody took."""

    kind: ClassVar[str] = "game-started"
    unfilled: list[int]


@dataclass(frozen=True, kw_only=True)
class GameCancelled(GameEvent):
    """``game-cancelled``: a waiting game never starts."""

    kind: ClassVar[str] = "game-cancelled"
    reason: str
    unfilled: list[int]


@dataclass(frozen=True, kw_only=True)
class ClockPaused(GameEvent):
    """``clock-paused``: every clock stops; ``by``: ``creator``, ``invitations`` or
    the organiser that paused it."""

    kind: ClassVar[str] = "clock-paused"
    by: str


@dataclass(frozen=True, kw_only=True)
class ClockResumed(GameEvent):
    """``clock-resumed``: running deadlines move later by the pause's ``seconds``
    (``paused_at`` and ``seconds`` are left out when the invitations resume it)."""

    kind: ClassVar[str] = "clock-resumed"
    by: str
    paused_at: str | None = None
    seconds: float | None = None


@dataclass(frozen=True, kw_only=True)
class DeadlineExtended(GameEvent):
    """``deadline-extended``: the deadlines of ``seats`` move ``seconds`` later;
    ``reason`` ``creator``, or ``outage`` with the outage's id and span."""

    kind: ClassVar[str] = "deadline-extended"
    reason: str
    outage: int | None = None
    seconds: float
    seats: list[int]
    outage_from: str | None = None
    outage_to: str | None = None


@dataclass(frozen=True, kw_only=True)
class Vacation(GameEvent):
    """``vacation``: ``seat``'s clock stops ``days`` days (of ``year``'s allowance),
    ``until`` then."""

    kind: ClassVar[str] = "vacation"
    seat: int
    days: int
    year: str
    until: str


@dataclass(frozen=True, kw_only=True)
class UndoRequested(GameEvent):
    """``undo-requested``: ``seat`` asks the others to take back its move of seq
    ``move_seq`` (``text``: the move in words, left out when the move was private);
    the request lapses at ``expires_at`` or when anyone moves first
    (:mod:`arbiter.games.agreements`)."""

    kind: ClassVar[str] = "undo-requested"
    seat: int
    move_seq: int
    text: str | None = None
    expires_at: str


@dataclass(frozen=True, kw_only=True)
class RequestAnswer(GameEvent):
    """The base of the answers to an undo or abort request: ``seat`` answers the
    request of seq ``request``."""

    seat: int
    request: int


@dataclass(frozen=True, kw_only=True)
class UndoAccepted(RequestAnswer):
    """``undo-accepted``: ``seat`` agrees to the undo request of seq ``request``."""

    kind: ClassVar[str] = "undo-accepted"


@dataclass(frozen=True, kw_only=True)
class UndoRefused(RequestAnswer):
    """``undo-refused``: ``seat`` refuses the undo request of seq ``request`` (it ends)."""

    kind: ClassVar[str] = "undo-refused"


@dataclass(frozen=True, kw_only=True)
class MovesUndone(GameEvent):
    """``moves-undone``: everyone agreed to the request of seq ``request``; the events
    of ``seqs`` stay in the log but the state is the fold without them
    (:func:`arbiter.games.loading.inputs_of`)."""

    kind: ClassVar[str] = "moves-undone"
    request: int
    seqs: list[int]


@dataclass(frozen=True, kw_only=True)
class AbortProposed(GameEvent):
    """``abort-proposed``: ``seat`` proposes to end the game unscored and unrated; the
    proposal lapses at ``expires_at``."""

    kind: ClassVar[str] = "abort-proposed"
    seat: int
    expires_at: str


@dataclass(frozen=True, kw_only=True)
class AbortAccepted(RequestAnswer):
    """``abort-accepted``: ``seat`` agrees to the abort proposal of seq ``request``."""

    kind: ClassVar[str] = "abort-accepted"


@dataclass(frozen=True, kw_only=True)
class AbortRefused(RequestAnswer):
    """``abort-refused``: ``seat`` refuses the abort proposal of seq ``request``."""

    kind: ClassVar[str] = "abort-refused"


@dataclass(frozen=True, kw_only=True)
class AutopilotOn(GameEvent):
    """``autopilot-on``: the clock handed absent ``seat`` to a built-in ``bot``
    (``{"kind", "level"}``) when its ``deadline`` passed, until the player returns
    (``until`` ``"return"``) or to the end (``"end"``) (:mod:`arbiter.games.autopilot`)."""

    kind: ClassVar[str] = "autopilot-on"
    seat: int
    name: str
    bot: dict
    until: str
    deadline: str


@dataclass(frozen=True, kw_only=True)
class AutopilotOff(GameEvent):
    """``autopilot-off``: ``seat``'s player took it back from the autopilot (``reason``
    ``"move"``: by moving; ``"back"``: by saying so)."""

    kind: ClassVar[str] = "autopilot-off"
    seat: int
    name: str
    reason: str


@dataclass(frozen=True)
class Logged:
    """A logged row no typed class reads (unknown kind or payload keys): as stored."""

    kind: str
    seat: int | None
    payload: dict
    visible_to: list[int] | None = None


AGREEMENT_EVENTS: tuple[type[GameEvent], ...] = (
    UndoRequested,
    UndoAccepted,
    UndoRefused,
    MovesUndone,
    AbortProposed,
    AbortAccepted,
    AbortRefused,
)
"""The events of agreed undo and abort (issue 24, item 3: :mod:`arbiter.games.agreements`)."""

KINDS: dict[str, type[GameEvent]] = {
    cls.kind: cls
    for cls in (
        GameCreated,
        SeatJoined,
        Move,
        ChanceOutcome,
        Resigned,
        GameOver,
        SeedRevealed,
        GameStarted,
        GameCancelled,
        ClockPaused,
        ClockResumed,
        DeadlineExtended,
        Vacation,
        *AGREEMENT_EVENTS,
        AutopilotOn,
        AutopilotOff,
    )
}
"""Each typed event class by the kind string stored for it."""


def read(row: Any) -> GameEvent | Logged:
    """Return the typed event of a logged row (``kind``, ``seat``, ``payload``,
    ``visible_to``: an ORM ``Event``, a dict-free record, or a typed event itself).

    :returns: an instance of the class :data:`KINDS` names for ``row.kind`` whose
        ``seat``, ``payload`` and ``visible_to`` equal the row's; :class:`Logged`
        when no class reads the row so (unknown kind, extra or missing keys).
        Never raises for a row the store wrote.
    """
    if isinstance(row, (GameEvent, Logged)):
        return row
    payload = row.payload if isinstance(row.payload, dict) else {}
    cls = KINDS.get(row.kind)
    if cls is not None:
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {k: v for k, v in payload.items() if k in names - _NOT_PAYLOAD}
        if "seat" in names:
            kwargs["seat"] = row.seat
        if "private" in names:
            kwargs["private"] = row.visible_to is not None
        if "visible_to" in names:
            kwargs["visible_to"] = row.visible_to
        try:
            event = cls(**kwargs)
        except TypeError:  # a required field is missing
            event = None
        if (
            event is not None
            and event.seat == row.seat
            and event.payload == row.payload
            and event.visible_to == row.visible_to
        ):
            return event
    return Logged(row.kind, row.seat, row.payload, row.visible_to)


def undone_seqs(rows) -> set[int]:
    """Return the seqs that the ``moves-undone`` events among ``rows`` (ORM events or
    record dicts) name."""
    undone: set[int] = set()
    for e in rows:
        kind = e["kind"] if isinstance(e, dict) else e.kind
        if kind == "moves-undone":
            payload = e["payload"] if isinstance(e, dict) else e.payload
            undone.update(payload.get("seqs") or [])
    return undone
