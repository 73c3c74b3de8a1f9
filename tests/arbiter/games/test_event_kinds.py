"""Typed event kinds (arbiter/games/events.py; DESIGN.md, "The write path"; issue 21):
each kind the service logs is a small frozen dataclass whose row is the one written
before the classes existed, and a logged row reads back as its typed event."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import events
from arbiter.models import Event
from tests.helpers import new_game, play_out
from tests.playthroughs import steps

# each typed event, and the (kind, seat, payload, visible_to) written for it before the
# classes existed (the NewEvent("kind", seat, {...}) of each writer, keys in its order)
CASES = [
    (
        events.GameCreated(
            engine="worms", engine_version="2", options={}, players=["A"], seed_commitment="c"
        ),
        (
            "game-created",
            None,
            {
                "engine": "worms",
                "engine_version": "2",
                "options": {},
                "players": ["A"],
                "seed_commitment": "c",
            },
            None,
        ),
    ),
    (events.SeatJoined(seat=1, name="A"), ("seat-joined", 1, {"name": "A"}, None)),
    (events.Move(seat=0, move=[1], text="t"), ("move", 0, {"move": [1], "text": "t"}, None)),
    (
        events.Move(seat=2, move="x", text="t", private=True, via="mail"),
        ("move", 2, {"move": "x", "text": "t", "via": "mail"}, [2]),
    ),
    (
        events.Move(seat=0, move=1, text="t", auto="resigned"),
        ("move", 0, {"move": 1, "text": "t", "auto": "resigned"}, None),
    ),
    (
        events.Move(seat=0, move=1, text="t", timeout={"deadline": "d", "turn": True}),
        ("move", 0, {"move": 1, "text": "t", "timeout": {"deadline": "d", "turn": True}}, None),
    ),
    (
        events.ChanceOutcome(spec={"type": "dice"}, outcome=[3], text="3", visible_to=[1]),
        ("chance", None, {"spec": {"type": "dice"}, "outcome": [3], "text": "3"}, [1]),
    ),
    (events.Resigned(seat=1, name="A"), ("resigned", 1, {"name": "A"}, None)),
    (
        events.Resigned(seat=1, name="A", forfeit=True, misses=3),
        ("resigned", 1, {"name": "A", "forfeit": True, "misses": 3}, None),
    ),
    (
        events.Resigned(
            seat=0,
            name="A",
            forfeit=True,
            round_deadline="d",
            tournament="t",
            owed=True,
            absent=False,
        ),
        (
            "resigned",
            0,
            {
                "name": "A",
                "forfeit": True,
                "round_deadline": "d",
                "tournament": "t",
                "owed": True,
                "absent": False,
            },
            None,
        ),
    ),
    (
        events.Resigned(seat=0, name="A", withdrawn=True, tournament="t", by="organiser"),
        (
            "resigned",
            0,
            {"name": "A", "withdrawn": True, "tournament": "t", "by": "organiser"},
            None,
        ),
    ),
    (events.GameOver(result={"s": [1]}), ("game-over", None, {"result": {"s": [1]}}, None)),
    (events.SeedRevealed(seed="s"), ("seed-revealed", None, {"seed": "s"}, None)),
    (events.GameStarted(unfilled=[]), ("game-started", None, {"unfilled": []}, None)),
    (
        events.GameCancelled(reason="unfilled seats", unfilled=[1]),
        ("game-cancelled", None, {"reason": "unfilled seats", "unfilled": [1]}, None),
    ),
    (events.ClockPaused(by="creator"), ("clock-paused", None, {"by": "creator"}, None)),
    (events.ClockResumed(by="invitations"), ("clock-resumed", None, {"by": "invitations"}, None)),
    (
        events.ClockResumed(by="creator", paused_at="p", seconds=1.5),
        ("clock-resumed", None, {"by": "creator", "paused_at": "p", "seconds": 1.5}, None),
    ),
    (
        events.DeadlineExtended(reason="creator", seconds=60, seats=[0]),
        ("deadline-extended", None, {"reason": "creator", "seconds": 60, "seats": [0]}, None),
    ),
    (
        events.DeadlineExtended(
            reason="outage", outage=4, seconds=9.0, seats=[1], outage_from="a", outage_to="b"
        ),
        (
            "deadline-extended",
            None,
            {
                "reason": "outage",
                "outage": 4,
                "seconds": 9.0,
                "seats": [1],
                "outage_from": "a",
                "outage_to": "b",
            },
            None,
        ),
    ),
    (
        events.Vacation(seat=1, days=2, year="2026", until="u"),
        ("vacation", 1, {"days": 2, "year": "2026", "until": "u"}, None),
    ),
    (
        events.AutopilotOn(
            seat=1, name="A", bot={"kind": "mcts", "level": 2}, until="return", deadline="d"
        ),
        (
            "autopilot-on",
            1,
            {
                "name": "A",
                "bot": {"kind": "mcts", "level": 2},
                "until": "return",
                "deadline": "d",
            },
            None,
        ),
    ),
    (
        events.AutopilotOff(seat=1, name="A", reason="back"),
        ("autopilot-off", 1, {"name": "A", "reason": "back"}, None),
    ),
]

CASES += [  # agreed undo and abort (issue 24, item 3)
    (
        events.UndoRequested(seat=0, move_seq=7, text="die 0 left", expires_at="t"),
        ("undo-requested", 0, {"move_seq": 7, "text": "die 0 left", "expires_at": "t"}, None),
    ),
    (
        events.UndoRequested(seat=0, move_seq=7, expires_at="t"),  # a private move: no text
        ("undo-requested", 0, {"move_seq": 7, "expires_at": "t"}, None),
    ),
    (events.UndoAccepted(seat=1, request=8), ("undo-accepted", 1, {"request": 8}, None)),
    (events.UndoRefused(seat=1, request=8), ("undo-refused", 1, {"request": 8}, None)),
    (
        events.MovesUndone(request=8, seqs=[7]),
        ("moves-undone", None, {"request": 8, "seqs": [7]}, None),
    ),
    (
        events.AbortProposed(seat=2, expires_at="t"),
        ("abort-proposed", 2, {"expires_at": "t"}, None),
    ),
    (events.AbortAccepted(seat=0, request=9), ("abort-accepted", 0, {"request": 9}, None)),
    (events.AbortRefused(seat=0, request=9), ("abort-refused", 0, {"request": 9}, None)),
]


def _row(kind, seat, payload, visible_to=None):
    return SimpleNamespace(kind=kind, seat=seat, payload=payload, visible_to=visible_to)


@pytest.mark.parametrize("event, row", CASES, ids=lambda c: getattr(c, "kind", ""))
def test_a_typed_event_writes_the_row_written_before_byte_for_byte(event, row):
    kind, seat, payload, visible_to = row
    assert (event.kind, event.seat, event.visible_to) == (kind, seat, visible_to)
    assert json.dumps(event.payload) == json.dumps(payload)  # the keys in the same order


@pytest.mark.parametrize("event, row", CASES, ids=lambda c: getattr(c, "kind", ""))
def test_a_logged_row_reads_back_as_its_typed_event(event, row):
    assert events.read(_row(*row)) == event


def test_every_kind_has_a_case():
    assert {e.kind for e, _ in CASES} == set(events.KINDS)


def test_a_row_no_class_reads_is_kept_as_it_is():
    for row in [
        _row("forged", None, {"a": 1}),
        _row("resigned", 1, {"name": "A", "undo": True}),  # a key no field has
        _row("game-over", None, {}),  # a field missing
    ]:
        read = events.read(row)
        assert isinstance(read, events.Logged)
        assert (read.kind, read.seat, read.payload) == (row.kind, row.seat, row.payload)


def test_every_event_of_the_saved_playthroughs_reads_as_a_typed_event():
    for path in steps.records():
        for e in json.loads(path.read_text())["events"]:
            read = events.read(_row(e["kind"], e["seat"], e["payload"]))
            assert isinstance(read, events.GameEvent), (path.name, e)
            assert (read.seat, read.payload) == (e["seat"], e["payload"])


def test_the_rows_a_played_game_stores_read_back_as_they_are(app, client):
    game_id, tokens = new_game(client)
    play_out(client, app, game_id, tokens, seed=3)
    with app.app_context():
        rows = db.session.scalars(
            sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq)
        ).all()
        assert rows
        for row in rows:
            read = events.read(row)
            assert isinstance(read, events.GameEvent), row.kind
            assert (read.kind, read.seat, read.payload, read.visible_to) == (
                row.kind,
                row.seat,
                row.payload,
                row.visible_to,
            )
