"""Exactly once: a move and the timeout of its deadline, submitted at the same moment
from two threads, on SQLite and PostgreSQL: one is recorded, the other is told (409
for the move, a no-op for the timeout). Also the clocks of a simultaneous turn."""

from __future__ import annotations

import threading
from datetime import timedelta

from arbiter.errors import Conflict
from arbiter.extensions import db
from arbiter.games import clock, clock_sweep, moves
from arbiter.models.timestamps import utcnow
from arbiter.uow import UnitOfWork
from tests.arbiter.clock_helpers import clocked_game, timeouts
from tests.helpers import auth, event_count


def test_a_move_racing_its_timeout_is_recorded_exactly_once(own_app):
    """Given a deadline just passed, the seat's move and the sweep's timeout start
    together (a barrier): exactly one of them is appended, ten times over."""
    app, client = own_app, own_app.test_client()
    outcomes = []
    for _round in range(10):
        game_id, tokens, _, s = clocked_game(
            client, app, {"type": "per-move", "seconds": 1}, players=1
        )
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
        before = event_count(app, game_id)
        now = utcnow() + timedelta(seconds=5)
        with app.app_context():
            version = dict(clock_sweep.claim_due(now))[game_id]
        barrier = threading.Barrier(2)
        result = {}

        def mover():
            with app.app_context():
                barrier.wait()
                try:
                    command = moves.SubmitMove(
                        game_id, tokens[0], legal["moves"][0], legal["version"]
                    )
                    moves.submit_move(UnitOfWork(), command)
                    result["move"] = 201
                except Conflict:
                    result["move"] = 409
                finally:
                    db.session.remove()

        def timer():
            with app.app_context():
                barrier.wait()
                result["timeout"] = clock_sweep.enforce(game_id, version, now)
                db.session.remove()

        threads = [threading.Thread(target=mover), threading.Thread(target=timer)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        won_move = result["move"] == 201
        won_timeout = result["timeout"] == "timeouts"
        assert won_move != won_timeout, result
        assert result["move"] in (201, 409) and result["timeout"] in ("timeouts", "none")
        assert len(timeouts(app, game_id)) == (1 if won_timeout else 0)
        assert event_count(app, game_id) == before + 1  # one move or one timeout
        outcomes.append("move" if won_move else "timeout")
    assert len(outcomes) == 10


class _Seat:
    def __init__(self, seat):
        self.seat, self.resigned = seat, False


class _Game:
    """A game row stand-in for the clock fold (no database needed)."""

    def __init__(self, players):
        self.clock = clock.load_config({"type": "per-move", "seconds": 600})
        self.clock_state = None
        self.seats = [_Seat(i) for i in range(players)]


def test_a_simultaneous_turn_gives_each_seat_its_own_deadline():
    """Given a decision for seats 0, 1 and 2 together (Star Maps' round), each gets a
    deadline; seat 1 answering stops only its clock; the game's deadline is the
    earliest of those still running."""
    game = _Game(3)
    t0 = utcnow()
    prompt = {"type": "decision", "seats": [0, 1, 2]}
    cols = clock.advance(game, [], prompt, True, set(), t0)
    game.clock_state = cols["clock_state"]
    assert cols["deadline"] == t0 + timedelta(seconds=600)
    assert set(clock.deadlines(game)) == {0, 1, 2}
    later = t0 + timedelta(seconds=100)
    cols = clock.advance(game, [], {"type": "decision", "seats": [0, 2]}, False, set(), later)
    game.clock_state = cols["clock_state"]
    assert set(clock.deadlines(game)) == {0, 2}
    assert cols["deadline"] == t0 + timedelta(seconds=600)


def test_a_simultaneous_round_fills_every_missing_answer_when_its_deadline_passes(app):
    """Given Star Maps (every player answers the same roll) with 60 s per move, one
    seat answers and the other does not: the sweep plays the timeout move for the
    missing one only, marked with its deadline (like a no-moves-received rule)."""
    import time_machine

    from tests.arbiter.clock_helpers import T0, after, sweep
    from tests.helpers import summary, until_decision

    client = app.test_client()
    with time_machine.travel(T0, tick=False):
        body = {
            "engine": "star-maps",
            "clock": {"type": "per-move", "seconds": 60},
            "players": [{"name": "A"}, {"name": "B"}],
        }
        created = client.post("/v1/games", json=body).json
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        s = until_decision(client, app, game_id)
        if len(s["to_act"]) < 2:
            import pytest

            pytest.skip("star-maps did not open with a simultaneous round")
        assert len(s["clock"]["seats"]) == 2 and all(x["deadline"] for x in s["clock"]["seats"])
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
        assert (
            client.post(
                f"/v1/games/{game_id}/moves",
                headers=auth(tokens[0]),
                json={"move": legal["moves"][0]},
            ).status_code
            == 201
        )
        assert summary(client, game_id)["clock"]["seats"][0]["deadline"] is None
    assert sweep(app, after(T0, 61))["timeouts"] == 1
    [late] = timeouts(app, game_id)
    assert late.seat == 1 and late.payload["timeout"]["deadline"]
