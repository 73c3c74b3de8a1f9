"""The turn clock: time controls, per-seat deadlines, and the fold that keeps them.

A game's time control (``games.clock``) is chosen at creation and validated by
:class:`ClockSchema`:

- ``{"type": "per-move", "seconds": N}``: every decision a seat owes gets N seconds;
- ``{"type": "bank", "initial": N, "increment": M}``: each seat has a bank of N seconds
  that its thinking time is taken from, and M seconds are added after each of its moves;
- ``{"type": "none"}`` (the default): no deadlines.

plus ``reminders`` (seconds before a deadline, default 24 h and 1 h), ``timeout_policy``
(``timeout-move``, ``forfeit`` after ``forfeit_after`` missed deadlines, or
``autopilot``: a built-in bot, ``autopilot``, takes the absent seat until its player
returns or, ``autopilot_until: end``, to the end: :mod:`arbiter.games.autopilot`) and
``vacation_days`` (a yearly allowance per player).

The clocks themselves (``games.clock_state``) are a fold of the log and the time each
event was written: :func:`advance` is called by :func:`arbiter.games.commit.commit`
for every transition and returns the new clock columns, written by the event store in
the same guarded UPDATE as the events. So a deadline never changes but through an
append, and restarting any process never moves one. Each seat that owes a move has
``started`` (UTC) and ``budget`` (seconds); its deadline is ``started + budget``.
Stopping a seat's clock (vacation, pause, an extension, an outage) moves ``started``
later. ``games.deadline`` holds the earliest deadline (the indexed column the sweep
claims on), ``games.remind_at`` the earliest reminder.

A **turn clock** (an engine's Timer, :class:`engines.base.Decision` ``turn_clock``) is
kept beside the seats' clocks in ``clock_state["turn"]``: ``{"id", "seat", "seconds",
"started", "owing"}``. It starts at the first decision of a new turn id, runs through
the turn's rolls and decisions, and is dropped at the first decision without it. Its
deadline (``started + seconds``) counts, while its seat owes a decision, as that seat's
deadline (the earlier of the two), with any time control, ``none`` included; it is
paused and extended like the seats' clocks, reminded of like them (the ``reminders``
shorter than the turn clock: none under ``none``), and its timeouts are not counted
as missed deadlines for the forfeit policy.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from arbiter.bots import specs
from arbiter.errors import Unprocessable, field_messages
from arbiter.games import events
from arbiter.models import Game
from arbiter.models.timestamps import iso
from engines.option_fields import WholeNumber

DAY = 86400
MAX_SECONDS = 366 * DAY
"""No time control, reminder or extension may exceed a year (in seconds)."""
DEFAULT_REMINDERS = [DAY, 3600]
TYPES = ("per-move", "bank", "none")
POLICIES = ("timeout-move", "forfeit", "autopilot")
AUTOPILOT_UNTIL = ("return", "end")
"""How long the ``autopilot`` policy's bot holds an absent seat: until its player
returns (moves, or says so), or to the game's end."""

CLOCK_KINDS = tuple(
    cls.kind
    for cls in (events.ClockPaused, events.ClockResumed, events.DeadlineExtended, events.Vacation)
)
"""Event kinds that change the clock without being an engine input."""


class ClockSchema(Schema):
    """A time control at creation (``clock`` of ``POST /v1/games``); seconds, UTC."""

    type = fields.String(load_default="none", validate=validate.OneOf(TYPES))
    seconds = WholeNumber(
        validate=validate.Range(min=1, max=MAX_SECONDS),
        metadata={"description": "per-move: seconds for each decision"},
    )
    initial = WholeNumber(
        validate=validate.Range(min=1, max=MAX_SECONDS),
        metadata={"description": "bank: each seat's starting bank"},
    )
    increment = WholeNumber(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_SECONDS),
        metadata={"description": "bank: seconds added per move"},
    )
    reminders = fields.List(
        WholeNumber(validate=validate.Range(min=1, max=MAX_SECONDS)),
        load_default=lambda: list(DEFAULT_REMINDERS),
        validate=validate.Length(max=6),
        metadata={"description": "seconds before a deadline at which to remind"},
    )
    timeout_policy = fields.String(load_default="timeout-move", validate=validate.OneOf(POLICIES))
    forfeit_after = WholeNumber(
        load_default=None, allow_none=True, validate=validate.Range(min=1, max=1000)
    )
    vacation_days = WholeNumber(
        load_default=0,
        validate=validate.Range(min=0, max=366),
        metadata={"description": "vacation days per player per year"},
    )
    autopilot = fields.Raw(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "autopilot policy: the bot that takes an absent seat, "
            '{"kind": "random" | "mcts", "level": 1-5} (default random, level 1)'
        },
    )
    autopilot_until = fields.String(
        load_default="return",
        validate=validate.OneOf(AUTOPILOT_UNTIL),
        metadata={
            "description": "autopilot policy: return (the player takes the seat back by "
            "moving or saying so) or end (the bot plays the seat to the end)"
        },
    )

    @validates_schema
    def _consistent(self, data: dict, **_: Any) -> None:
        kind = data.get("type", "none")
        if kind == "per-move" and "seconds" not in data:
            raise ValidationError("a per-move clock needs 'seconds'", "seconds")
        if kind == "bank" and "initial" not in data:
            raise ValidationError("a bank clock needs 'initial'", "initial")
        if kind != "per-move" and "seconds" in data:
            raise ValidationError("'seconds' is for per-move clocks only", "seconds")
        if kind != "bank" and ("initial" in data or data.get("increment")):
            raise ValidationError("'initial' and 'increment' are for bank clocks only", "initial")
        if kind == "none" and data.get("timeout_policy") in ("forfeit", "autopilot"):
            raise ValidationError(
                f"the {data['timeout_policy']} policy acts when a deadline passes: it needs "
                "a clock, 'type' per-move or bank",
                "timeout_policy",
            )
        if data.get("timeout_policy") == "forfeit" and not data.get("forfeit_after"):
            raise ValidationError("the forfeit policy needs 'forfeit_after'", "forfeit_after")
        if data.get("autopilot") is not None and data.get("timeout_policy") != "autopilot":
            raise ValidationError("'autopilot' is for the autopilot policy only", "autopilot")


def load_config(raw: dict | None) -> dict:
    """Return the validated, complete time control for ``raw`` (``None``/``{}``: none).

    :raises Unprocessable: 422 ``bad-clock`` with the field errors; 422 ``bad-bot``
        for an autopilot that is no bot (:func:`arbiter.bots.specs.bot_of`).
    """
    try:
        cfg = ClockSchema().load(raw or {})
    except ValidationError as err:
        raise Unprocessable(
            f"The clock is not a valid time control: {field_messages(err.messages)}.",
            code="bad-clock",
            extra={"errors": err.messages},
        ) from None
    if cfg["type"] == "none":
        cfg["reminders"] = []
    cfg["reminders"] = sorted(set(cfg["reminders"]), reverse=True)
    if cfg["timeout_policy"] == "autopilot":
        raw = {} if cfg["autopilot"] is None else cfg["autopilot"]
        cfg["autopilot"] = specs.bot_of(raw, "clock.autopilot").to_json()
    else:
        del cfg["autopilot"], cfg["autopilot_until"]
    return cfg


def check_tz(name: str | None) -> str | None:
    """Return ``name`` if it is an IANA time zone (``Europe/Paris``), else raise.

    :raises marshmallow.ValidationError: an unknown zone.
    """
    if name is None:
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationError(f"{name!r} is not an IANA time zone such as 'Europe/Paris'") from None
    return name


CONTROL_DEFAULTS = {
    "type": "none",
    "reminders": [],
    "timeout_policy": "timeout-move",
    "forfeit_after": None,
    "vacation_days": 0,
    "increment": 0,
}
"""The fields of a time control that old rows may lack."""


def config(game: Game) -> dict:
    """Return the game's time control, complete (old rows may lack fields)."""
    return {**CONTROL_DEFAULTS, **(game.clock or {})}


# --------------------------------------------------------------------------- time


def parse(value: str | None) -> datetime | None:
    """Return the aware UTC datetime of an ISO string written by :func:`iso`."""
    if value is None:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


def local(value: datetime, tz: str | None) -> str:
    """Return ``value`` as a reader in zone ``tz`` reads it, then in UTC (UTC alone
    without a zone, or in a zone that reads as UTC: an account's default)."""
    zone = ZoneInfo(tz) if tz else UTC
    text = value.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")
    utc = f"{value.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    return text if text == utc else f"{text} ({utc})"


def _shift(value: str, seconds: float) -> str:
    return iso(parse(value) + timedelta(seconds=seconds))


# --------------------------------------------------------------------------- the fold


def initial_state(cfg: dict, players: int) -> dict:
    """Return the clock state of a new game: every seat idle, banks full."""
    bank = float(cfg["initial"]) if cfg["type"] == "bank" else None
    return {
        "paused_at": None,
        "outage": 0,
        "seats": [
            {
                "bank": bank,
                "budget": None,
                "started": None,
                "misses": 0,
                "vacation_until": None,
                "vacation_used": {},
            }
            for _ in range(players)
        ],
    }


def seat_deadline(seat: dict) -> datetime | None:
    """Return the deadline of a seat's running clock (None when it owes nothing)."""
    if seat["started"] is None or seat["budget"] is None:
        return None
    return parse(seat["started"]) + timedelta(seconds=seat["budget"])


def deadlines(game: Game) -> dict[int, datetime]:
    """Return ``{seat: deadline}`` of the seats whose clock runs (none while paused)."""
    return running(config(game), game.clock_state)


def running(cfg: dict, cs: dict | None) -> dict[int, datetime]:
    """Return ``{seat: deadline}`` of clock state ``cs`` under time control ``cfg``
    (a running turn clock included: the earlier deadline of its seat)."""
    if not cs or cs.get("paused_at"):
        return {}
    out = {}
    if cfg["type"] != "none":
        for i, seat in enumerate(cs["seats"]):
            due = seat_deadline(seat)
            if due is not None:
                out[i] = due
    turn = turn_deadline(cs)
    if turn is not None:
        seat, due = turn
        out[seat] = min(due, out.get(seat, due))
    return out


def turn_deadline(cs: dict | None) -> tuple[int, datetime] | None:
    """Return ``(seat, deadline)`` of a turn clock whose seat owes a decision now."""
    turn = (cs or {}).get("turn")
    if not turn or not turn.get("owing"):
        return None
    return turn["seat"], parse(turn["started"]) + timedelta(seconds=turn["seconds"])


def turn_expired(game: Game, seat: int, now: datetime) -> datetime | None:
    """Return the deadline of ``seat``'s turn clock when it has passed at ``now``
    (not while paused), else None."""
    cs = game.clock_state
    turn = turn_deadline(cs)
    if cs and not cs.get("paused_at") and turn and turn[0] == seat and turn[1] <= now:
        return turn[1]
    return None


def _track_turn(cs: dict, prompt: dict, at: datetime) -> None:
    """Start, keep or drop the turn clock for the prompt after a transition."""
    kind = prompt.get("type")
    tc = prompt.get("turn_clock") if kind == "decision" else None
    turn = cs.get("turn")
    if kind == "chance":
        if turn:
            turn["owing"] = False
        return
    if tc is None:
        cs["turn"] = None
        return
    if not turn or turn["id"] != str(tc["turn"]):
        cs["turn"] = {
            "id": str(tc["turn"]),
            "seat": tc["seat"],
            "seconds": tc["seconds"],
            "started": iso(at),
        }
    cs["turn"]["owing"] = tc["seat"] in prompt.get("seats", [])


def advance(
    game: Game,
    new_events: Iterable[Any],
    prompt: dict,
    new_prompt: bool,
    resigned: set[int],
    now: datetime,
) -> dict:
    """Fold one transition into the game's clocks; return the game columns to write
    (``clock_state``, ``deadline``, ``remind_at``).

    :param new_events: the transition's new events (:mod:`arbiter.games.events`); moves with a
        ``timeout`` count as missed deadlines, clock events stop or move clocks.
    :param prompt: the prompt after the transition; :param new_prompt: True when it
        begins a new prompt (every running clock stops, the owing seats' start).
    :param resigned: seats that no longer play (their clocks never run).
    :param now: the time of the transition (UTC).
    """
    cfg = config(game)
    cs = (
        json.loads(json.dumps(game.clock_state))  # a copy, several times deepcopy's speed
        if game.clock_state
        else initial_state(cfg, len(game.seats))
    )
    for event in new_events:
        _apply_event(cs, event, now)
    effective = parse(cs["paused_at"]) or now
    _track_turn(cs, prompt, effective)
    if cfg["type"] == "none":
        return {"clock_state": cs, **_columns(cfg, cs, now)}
    owing = set(prompt.get("seats", [])) - resigned if prompt.get("type") == "decision" else set()
    for i, seat in enumerate(cs["seats"]):
        if seat["started"] is not None and (new_prompt or i not in owing):
            _stop(cfg, seat, effective)
    for i in sorted(owing):
        if cs["seats"][i]["started"] is None:
            _start(cfg, cs["seats"][i], effective)
    return {"clock_state": cs, **_columns(cfg, cs, now)}


def _apply_event(cs: dict, event: Any, now: datetime) -> None:
    """Apply one event's effect on the clocks (a typed event, or a logged row:
    :func:`arbiter.games.events.read`)."""
    seats, event = cs["seats"], events.read(event)
    turn = cs.get("turn")
    if isinstance(event, events.Move):
        if event.timeout is not None and not event.timeout.get("turn"):
            seats[event.seat]["misses"] += 1
    elif isinstance(event, events.ClockPaused):
        cs["paused_at"] = iso(now)
    elif isinstance(event, events.ClockResumed):
        delta = (now - parse(cs["paused_at"])).total_seconds()
        cs["paused_at"] = None
        for seat in seats:
            if seat["started"] is not None:
                seat["started"] = _shift(seat["started"], delta)
        if turn:
            turn["started"] = _shift(turn["started"], delta)
    elif isinstance(event, events.DeadlineExtended):
        for i in event.seats:
            if seats[i]["started"] is not None:
                seats[i]["started"] = _shift(seats[i]["started"], event.seconds)
        if turn and turn["seat"] in event.seats:
            turn["started"] = _shift(turn["started"], event.seconds)
        if event.outage is not None:
            cs["outage"] = max(cs.get("outage", 0), event.outage)
    elif isinstance(event, events.Vacation):
        seat = seats[event.seat]
        seat["vacation_until"] = event.until
        used = seat["vacation_used"]
        used[event.year] = used.get(event.year, 0) + event.days
        if seat["started"] is not None:
            seat["started"] = _shift(seat["started"], event.days * DAY)


def _start(cfg: dict, seat: dict, at: datetime) -> None:
    """Start a seat's clock at ``at``, or when its vacation ends if later."""
    holiday = parse(seat["vacation_until"])
    begin = max(at, holiday) if holiday else at
    seat["started"] = iso(begin)
    seat["budget"] = float(cfg["seconds"] if cfg["type"] == "per-move" else seat["bank"])


def _stop(cfg: dict, seat: dict, at: datetime) -> None:
    """Stop a seat's clock at ``at``: a bank loses the time used and gains the increment."""
    if cfg["type"] == "bank":
        used = max(0.0, (at - parse(seat["started"])).total_seconds())
        seat["bank"] = max(0.0, seat["budget"] - used) + float(cfg["increment"])
    seat["started"], seat["budget"] = None, None


def _columns(cfg: dict, cs: dict, now: datetime) -> dict:
    """Return ``deadline`` (earliest running deadline) and ``remind_at`` (the earliest
    reminder of a deadline still ahead, due at once when its time has passed)."""
    if cs.get("paused_at"):
        return {"deadline": None, "remind_at": None}
    due = [(seat_deadline(s), s["budget"]) for s in cs["seats"] if s["started"] is not None]
    turn = turn_deadline(cs)
    deadline = min([d for d, _ in due] + ([turn[1]] if turn else []), default=None)
    reminders = [
        when
        for c in reminded(cfg, cs).values()
        if c["deadline"] > now
        for when in c["times"].values()
    ]
    return {"deadline": deadline, "remind_at": min(reminders, default=None)}


def reminded(cfg: dict, cs: dict | None) -> dict[int, dict]:
    """Return, per seat that owes a move under a running clock, the deadline reminders
    count from and their times: ``{seat: {"deadline", "turn" (True: an engine's turn
    clock), "times": {threshold seconds: reminder time}}}``. Empty while paused.

    The deadline is the earlier of the seat's own (under a time control) and a turn
    clock's (an engine's Timer) while the seat owes a decision of that turn. A turn
    deadline is reminded of like any other, at the game's ``reminders`` shorter than
    the turn clock (never under ``none``, which has none); as the turn clock runs
    through several decisions, a reminder whose time came before the current decision
    began is not given again for it (the decision's turn mail gave the deadline).
    """
    if not cs or cs.get("paused_at"):
        return {}
    out = {}
    if cfg["type"] != "none":
        for i, seat in enumerate(cs["seats"]):
            if seat["started"] is not None and seat["budget"] is not None:
                out[i] = _times(cfg, seat_deadline(seat), seat["budget"], None, False)
    turn = turn_deadline(cs)
    if turn is not None and (turn[0] not in out or turn[1] < out[turn[0]]["deadline"]):
        since = (cs["seats"][turn[0]]["started"] if cfg["type"] != "none" else None) or cs["turn"][
            "started"
        ]
        out[turn[0]] = _times(cfg, turn[1], float(cs["turn"]["seconds"]), parse(since), True)
    return out


def _times(
    cfg: dict, deadline: datetime, budget: float, since: datetime | None, turn: bool
) -> dict:
    """Return one entry of :func:`reminded`: the thresholds shorter than ``budget``
    whose time is not before ``since`` (None: any)."""
    times = {t: deadline - timedelta(seconds=t) for t in cfg["reminders"] if budget > t}
    if since is not None:
        times = {t: when for t, when in times.items() if when >= since}
    return {"deadline": deadline, "turn": turn, "times": times}


def next_reminder(game: Game, after: datetime) -> datetime | None:
    """Return the first reminder time of the running clocks later than ``after``."""
    times = [
        when
        for c in reminded(config(game), game.clock_state).values()
        for when in c["times"].values()
    ]
    return min((t for t in times if t > after), default=None)


# --------------------------------------------------------------------------- reading


def vacation_left(game: Game, seat: int, now: datetime) -> int:
    """Return the vacation days seat ``seat`` may still declare this (UTC) year."""
    cs = game.clock_state or initial_state(config(game), len(game.seats))
    used = cs["seats"][seat]["vacation_used"].get(str(now.year), 0)
    return max(0, config(game)["vacation_days"] - used)


def summary(game: Game, now: datetime) -> dict:
    """Return the clock part of a game's public summary: the time control, whether it
    is paused, and each seat's deadline, bank, missed deadlines and vacation."""
    cfg = config(game)
    cs = game.clock_state or initial_state(cfg, len(game.seats))
    running = deadlines(game)
    seats = []
    for i, seat in enumerate(cs["seats"]):
        seats.append(
            {
                "seat": i,
                "deadline": iso(running.get(i)),
                "bank": seat["bank"],
                "misses": seat["misses"],
                "vacation_until": seat["vacation_until"],
                "vacation_days_left": vacation_left(game, i, now),
            }
        )
    turn = turn_deadline(cs)
    timer = None
    if turn is not None:
        timer = {
            "seat": turn[0],
            "seconds": cs["turn"]["seconds"],
            "started": cs["turn"]["started"],
            "deadline": iso(turn[1]),
        }
    return {
        **cfg,
        "paused": bool(cs.get("paused_at")),
        "paused_at": cs.get("paused_at"),
        "seats": seats,
        "turn_clock": timer,
    }


def earliest(game: Game) -> datetime | None:
    """Return the earliest deadline of a seat that owes a move (None if none runs)."""
    return min(deadlines(game).values(), default=None)


def earliest_of(control: dict | None, cs: dict | None) -> datetime | None:
    """Return :func:`earliest` from a game's ``clock`` and ``clock_state`` columns
    alone (for lists that read columns, not game rows)."""
    return min(running({**CONTROL_DEFAULTS, **(control or {})}, cs).values(), default=None)
