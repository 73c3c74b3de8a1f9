"""What happened since a player's last turn, in words with names, for the turn mail.

The events are read as that seat may read them (:func:`arbiter.games.reading.event_json`:
a hidden move or draw says only that it happened), and every ``seat N`` an engine wrote
reads as the player's name (:mod:`arbiter.games.naming`).
"""

from __future__ import annotations

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games.naming import named
from arbiter.games.store import events_after
from arbiter.models import Event, Game
from engines.base import Engine, EngineError

SHOWN = 40
"""At most this many events are told; earlier ones are counted."""

TOLD = ("move", "chance", "resigned", "deadline-extended", "vacation", "clock-paused")
"""The kinds of event a turn mail tells (joins, seeds and the like are left out)."""


def last_move_seq(game_id: str, seat: int, upto: int) -> int:
    """Return the seq of ``seat``'s last move in the game up to seq ``upto``, 0 when
    it had not moved."""
    return (
        db.session.scalar(
            sa.select(sa.func.max(Event.seq)).where(
                Event.game_id == game_id,
                Event.kind == "move",
                Event.seat == seat,
                Event.seq <= upto,
            )
        )
        or 0
    )


def since_last_turn(game: Game, engine: Engine, seat: int, upto: int) -> list[str]:
    """Return the sentences telling ``seat`` what happened after its last move (from
    the start when it had not moved) up to seq ``upto`` (the prompt it is told of):
    one a line, oldest first, as that seat may see them; ``[]`` when nothing did."""
    names = {s.seat: s.name for s in game.seats}
    after = last_move_seq(game.id, seat, upto)
    rows = [e for e in events_after(game.id, after) if e.kind in TOLD and e.seq <= upto]
    over = game.status == "over"
    lines = [event_words(engine, as_seen(e, seat, over), names, seat) for e in rows[-SHOWN:]]
    if len(rows) > SHOWN:
        lines.insert(0, f"({len(rows) - SHOWN} earlier events are on the game page.)")
    return lines


def chance_words(engine: Engine | None, payload: dict) -> str | None:
    """Return a chance event's outcome in the engine's words for people
    (:meth:`engines.base.Engine.outcome_words`), or None: no engine, an outcome the
    reader's payload does not carry, or an engine that shows the log's own text."""
    if engine is None or "spec" not in payload or payload.get("outcome") is None:
        return None
    try:
        return engine.outcome_words(payload["spec"], payload["outcome"])
    except (ValueError, KeyError, TypeError, IndexError):  # an old record's spec
        return None


def move_words(engine: Engine, payload: dict) -> str:
    """Return what a logged move did (``engine.move_words``), or ``played`` and its
    notation when the engine cannot read it (an older log)."""
    try:
        return engine.move_words(payload["move"])
    except (EngineError, KeyError, TypeError, ValueError):
        return f"played {payload.get('text', 'a move')}"


def as_seen(event: Event, seat: int, over: bool) -> dict:
    """Return ``{"kind", "seat", "payload"}`` of a logged event as ``seat`` may read
    it: the payload of an event visible to other seats only is ``{"hidden": true}``
    until the game is over (the rule of :func:`arbiter.games.reading.event_json`)."""
    hidden = not over and event.visible_to is not None and seat not in event.visible_to
    return {
        "kind": event.kind,
        "seat": event.seat,
        "payload": {"hidden": True, "spec": event.payload.get("spec")} if hidden else event.payload,
    }


def event_words(engine: Engine, event: dict, names: dict[int, str], me: int | None) -> str:
    """Return one event, as a reader sees it (:func:`as_seen`), as a sentence with
    names; ``me`` (the reader's seat) reads "you"."""
    payload, kind, seat = event["payload"], event["kind"], event["seat"]
    who = ("You" if seat == me else names.get(seat, "A player")) if seat is not None else ""
    if payload.get("hidden"):
        if kind == "move":
            return f"{who} made a move only they see."
        spec = payload.get("spec") or {}
        return (
            "Cards were shuffled face down." if spec.get("kind") == "shuffle" else "A hidden draw."
        )
    if kind == "move":
        text = named(move_words(engine, payload), names, me)
        how = (
            " (played for them: the deadline passed)"
            if payload.get("timeout")
            else " (played for them: they resigned)"
            if payload.get("auto")
            else ""
        )
        return f"{who} {text}{how}."
    if kind == "chance":
        shown = chance_words(engine, payload) or payload.get("text") or "A roll or a draw"
        text = named(str(shown), names, me)
        return text[:1].upper() + text[1:].rstrip(".") + "."
    if kind == "resigned":
        return f"{who} resigned."
    if kind == "vacation":
        return f"{who} took a vacation."
    if kind == "deadline-extended":
        return "A deadline was extended."
    return kind.replace("-", " ").capitalize() + "."
