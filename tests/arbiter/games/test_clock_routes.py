"""Pause, resume, extend and vacation over the API: events in the log, visible in the
summary; bad input is a problem+json with a stable code and appends nothing."""

from __future__ import annotations

import time_machine

from tests.arbiter.clock_helpers import (
    T0,
    after,
    clocked_game,
    deadline_of,
    events,
    parse,
    sweep,
    timeouts,
)
from tests.arbiter.games.test_games_api import assert_problem
from tests.helpers import auth, event_count, play_out, summary

DAY = 86400
CLOCK = {"type": "per-move", "seconds": 3600, "vacation_days": 5}


def test_pause_stops_every_clock_and_resume_moves_deadlines_by_the_pause(app, client):
    """Given a pause of two hours, no timeout happens meanwhile and the deadline moves
    two hours later; both are events and the summary shows the pause."""
    with time_machine.travel(T0, tick=False) as traveller:
        game_id, _, creator, s = clocked_game(client, app, CLOCK)
        deadline = parse(s["deadline"])
        traveller.move_to(after(T0, 600))
        answer = client.post(f"/v1/games/{game_id}/pause", headers=auth(creator))
        assert answer.status_code == 201 and answer.json["kind"] == "clock-paused"
        paused = summary(client, game_id)
        assert paused["clock"]["paused"] is True and paused["deadline"] is None
        assert sweep(app, after(deadline, 60))["timeouts"] == 0
        assert_problem(
            client.post(f"/v1/games/{game_id}/pause", headers=auth(creator)), 409, "already-paused"
        )
        traveller.move_to(after(T0, 600 + 7200))
        assert client.post(f"/v1/games/{game_id}/resume", headers=auth(creator)).status_code == 201
    assert deadline_of(client, game_id) == after(deadline, 7200)
    assert [e.kind for e in events(app, game_id)][-2:] == ["clock-paused", "clock-resumed"]
    assert not timeouts(app, game_id)


def test_the_creator_extends_a_deadline(app, client):
    """Given the creator token, extend moves the running deadline later."""
    with time_machine.travel(T0, tick=False):
        game_id, _, creator, s = clocked_game(client, app, CLOCK)
        seat = s["to_act"][0]
        answer = client.post(
            f"/v1/games/{game_id}/extend",
            headers=auth(creator),
            json={"seconds": 1800, "seat": seat},
        )
    assert answer.status_code == 201
    assert deadline_of(client, game_id) == after(parse(s["deadline"]), 1800)
    [ext] = events(app, game_id, "deadline-extended")
    assert ext.payload == {"reason": "creator", "seconds": 1800, "seats": [seat]}


def test_vacation_stops_the_players_clock_within_the_allowance(app, client):
    """Given 5 vacation days a year, declaring 2 moves the deadline 2 days later and
    leaves 3; asking for 4 more is refused."""
    with time_machine.travel(T0, tick=False):
        game_id, tokens, _, s = clocked_game(client, app, CLOCK)
        seat = s["to_act"][0]
        answer = client.post(
            f"/v1/games/{game_id}/vacation", headers=auth(tokens[seat]), json={"days": 2}
        )
        assert answer.status_code == 201
        s2 = summary(client, game_id)
        before = event_count(app, game_id)
        assert_problem(
            client.post(
                f"/v1/games/{game_id}/vacation", headers=auth(tokens[seat]), json={"days": 4}
            ),
            422,
            "vacation-exceeds-allowance",
        )
    assert parse(s2["deadline"]) == after(parse(s["deadline"]), 2 * DAY)
    assert s2["clock"]["seats"][seat]["vacation_days_left"] == 3
    assert s2["clock"]["seats"][seat]["vacation_until"]
    assert event_count(app, game_id) == before


def test_bad_clock_requests_are_refused_and_append_nothing(app, client):
    """Without the creator token, with a seat token, on a game over, on a game without
    a clock, with bad values: 4xx problem+json, nothing appended."""
    game_id, tokens, creator, s = clocked_game(client, app, CLOCK)
    url = f"/v1/games/{game_id}"
    before = event_count(app, game_id)
    assert_problem(client.post(f"{url}/extend", json={"seconds": 60}), 401, "missing-token")
    assert_problem(
        client.post(f"{url}/extend", headers=auth(tokens[0]), json={"seconds": 60}),
        401,
        "not-creator",
    )
    assert_problem(client.post(f"{url}/pause", headers=auth("forged")), 401, "not-creator")
    assert_problem(
        client.post(f"{url}/extend", headers=auth(creator), json={"seconds": -60}),
        422,
        "invalid-request",
    )
    assert_problem(
        client.post(f"{url}/extend", headers=auth(creator), json={"seconds": 60, "seat": 9}),
        422,
        "no-such-seat",
    )
    idle = 1 - s["to_act"][0]
    assert_problem(
        client.post(f"{url}/extend", headers=auth(creator), json={"seconds": 60, "seat": idle}),
        409,
        "not-on-clock",
    )
    assert_problem(client.post(f"{url}/resume", headers=auth(creator)), 409, "not-paused")
    assert_problem(
        client.post(f"{url}/vacation", headers=auth(tokens[0]), json={"days": 0}),
        422,
        "invalid-request",
    )
    assert_problem(client.post(f"{url}/vacation", json={"days": 1}), 401, "missing-token")
    assert event_count(app, game_id) == before
    play_out(client, app, game_id, tokens, seed=2)
    over = event_count(app, game_id)
    assert_problem(client.post(f"{url}/pause", headers=auth(creator)), 409, "game-over")
    assert_problem(
        client.post(f"{url}/vacation", headers=auth(tokens[0]), json={"days": 1}), 409, "game-over"
    )
    assert event_count(app, game_id) == over
    plain = client.post(
        "/v1/games", json={"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]}
    ).json
    assert_problem(
        client.post(
            f"/v1/games/{plain['id']}/vacation",
            headers=auth(plain["seats"][0]["token"]),
            json={"days": 1},
        ),
        409,
        "no-clock",
    )


def test_a_retried_pause_with_its_idempotency_key_answers_the_same(app, client):
    game_id, _, creator, _ = clocked_game(client, app, CLOCK)
    headers = {**auth(creator), "Idempotency-Key": "pause-key-000001"}
    first = client.post(f"/v1/games/{game_id}/pause", headers=headers)
    again = client.post(f"/v1/games/{game_id}/pause", headers=headers)
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert len(events(app, game_id, "clock-paused")) == 1
