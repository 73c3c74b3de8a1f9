"""The autopilot (issue 25): a clock's timeout hands an absent seat to a bot, which
plays it from the worker until the player returns (by moving, or saying so) or to the
end; the log records the hand-over and the return; the result marks the game."""

from __future__ import annotations

import pytest

from arbiter.models.timestamps import utcnow
from arbiter.verify import verify
from tests.arbiter.clock_helpers import after, events, sweep
from tests.arbiter.games.bot_helpers import ENGINES_QUICK_FIRST, bot_game, drive, moves_of
from tests.helpers import auth, summary

BOT = {"kind": "mcts", "level": 1}
FORFEIT = {"timeout_policy": "forfeit", "forfeit_after": 2}


def autopilot_clock(until: str = "return") -> dict:
    """A per-move clock of a minute whose timeouts hand the seat to a random bot."""
    return {
        "type": "per-move",
        "seconds": 60,
        "timeout_policy": "autopilot",
        "autopilot": {"kind": "random", "level": 1},
        "autopilot_until": until,
    }


def absent_until_over(app, game_id: str) -> None:
    """Drive the game (rolls, bot moves) and sweep the clock later and later until it
    is over (the absent seat's deadlines pass)."""
    now = utcnow()
    for step in range(1, 200):
        game = drive(app, game_id)
        if game.status == "over":
            return
        sweep(app, after(now, 120 * step))
    raise AssertionError("the autopilot did not finish the game")


@pytest.mark.parametrize("engine", ENGINES_QUICK_FIRST)
def test_the_autopilot_finishes_a_game_whose_seat_times_out(own_app, engine):
    """Given a bot and an absent person under the autopilot policy (to the end), the
    person's first missed deadline hands the seat over (autopilot-on, then the bot's
    move for that decision, a missed deadline) and the bot plays it to the end; the
    result lists the seat under autopilot."""
    client = own_app.test_client()
    made = bot_game(client, engine, [BOT, None], clock=autopilot_clock("end"))
    absent_until_over(own_app, made["id"])
    s = summary(client, made["id"])
    assert s["status"] == "over" and s["result"]["autopilot"] == [1]
    assert s["players"][1]["autopilot"] == {
        "bot": {"kind": "random", "level": 1},
        "until": "end",
        "active": True,
    }
    [handed] = events(own_app, made["id"], "autopilot-on")
    assert handed.seat == 1 and handed.payload["bot"] == {"kind": "random", "level": 1}
    mine = [m for m in moves_of(own_app, made["id"]) if m.seat == 1]
    assert mine and all(m.payload["via"]["autopilot"] is True for m in mine)
    assert mine[0].seq == handed.seq + 1 and "timeout" in mine[0].payload
    record = client.get(f"/v1/games/{made['id']}/record").json
    assert verify(record).ok, verify(record).mismatch


def test_the_player_takes_the_seat_back_by_moving_or_saying_so(own_app):
    """Given a seat the autopilot holds until its player returns, "I'm back" takes it
    back (autopilot-off, reason back); the next missed deadline hands it over again,
    and the player's own move takes it back (reason move) in the move's transaction."""
    client = own_app.test_client()
    made = bot_game(client, "space-worm", [None, None], clock=autopilot_clock())
    game_id, token = made["id"], made["seats"][1]["token"]
    now = utcnow()
    step = 1
    while not events(own_app, game_id, "autopilot-on"):
        game = drive(own_app, game_id)
        if 0 in game.to_act:  # seat 0 plays its own moves at once
            legal = client.get(
                f"/v1/games/{game_id}/legal-moves", headers=auth(made["seats"][0]["token"])
            ).json
            client.post(
                f"/v1/games/{game_id}/moves",
                headers=auth(made["seats"][0]["token"]),
                json={"move": legal["moves"][0]},
            )
            continue
        sweep(own_app, after(now, 120 * step))
        step += 1
    assert summary(client, game_id)["players"][1]["autopilot"]["active"] is True
    back = client.post(f"/v1/games/{game_id}/back", headers=auth(token))
    assert back.status_code == 201, back.json
    [off] = events(own_app, game_id, "autopilot-off")
    assert off.seat == 1 and off.payload["reason"] == "back"
    assert summary(client, game_id)["players"][1]["autopilot"]["active"] is False
    again = client.post(f"/v1/games/{game_id}/back", headers=auth(token))
    assert again.status_code == 409 and again.json["code"] == "no-autopilot"


def test_a_players_move_takes_the_seat_back(own_app):
    """Given the autopilot holding a seat (until return) at the player's turn, the
    player's move appends autopilot-off (reason move) and their own move."""
    from arbiter.extensions import db
    from arbiter.games import events as kinds
    from arbiter.games.commit import commit
    from arbiter.games.games import load
    from arbiter.games.transition import Transition

    client = own_app.test_client()
    made = bot_game(client, "space-worm", [None, None], clock=autopilot_clock())
    game_id = made["id"]
    drive(own_app, game_id)
    s = summary(client, game_id)
    seat = s["to_act"][0]
    with own_app.app_context():  # the hand-over as the sweep writes it, without the move
        game, engine, state = load(game_id)
        tr = Transition(game, engine, state)
        row = game.seats[seat]
        tr.events.append(
            kinds.AutopilotOn(
                seat=seat, name=row.name, bot=BOT, until="return", deadline="2026-12-01T12:00:00Z"
            )
        )
        row.autopilot = {"bot": BOT, "until": "return", "since": game.version + 1, "active": True}
        commit(tr)
        db.session.remove()
    token = made["seats"][seat]["token"]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token)).json
    moved = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(token),
        json={"move": legal["moves"][0], "expected_version": legal["version"]},
    )
    assert moved.status_code == 201, moved.json
    [off] = events(own_app, game_id, "autopilot-off")
    assert off.payload["reason"] == "move" and off.seq == moved.json["seq"] - 1
    mine = [m for m in moves_of(own_app, game_id) if m.seq == moved.json["seq"]]
    assert mine and "via" not in mine[0].payload
    # the seat is the player's again, as stored (a move writes its seat through the store)
    assert summary(client, game_id)["players"][seat]["autopilot"]["active"] is False


def test_until_the_end_the_players_moves_are_refused(app, client):
    """Given the autopilot holding a seat to the end, the player's move and "I'm back"
    are refused with 409 autopilot-holds-seat, and nothing is written."""
    made = bot_game(client, "space-worm", [None, None], clock=autopilot_clock("end"))
    game_id = made["id"]
    now = utcnow()
    step = 1
    while not events(app, game_id, "autopilot-on"):
        drive(app, game_id)
        sweep(app, after(now, 120 * step))
        step += 1
    held = [e.seat for e in events(app, game_id, "autopilot-on")]
    s = summary(client, game_id)
    token = made["seats"][held[0]]["token"]
    version = s["version"]
    back = client.post(f"/v1/games/{game_id}/back", headers=auth(token))
    assert back.status_code == 409 and back.json["code"] == "autopilot-holds-seat"
    assert summary(client, game_id)["version"] == version


@pytest.mark.parametrize(
    "clock, code",
    [
        ({"timeout_policy": "autopilot", "autopilot": {"kind": "alpha"}}, "bad-bot"),
        ({"timeout_policy": "autopilot", "autopilot_until": "never"}, "bad-clock"),
        ({"timeout_policy": "forfeit", "forfeit_after": 2, "autopilot": {}}, "bad-clock"),
    ],
)
def test_a_bad_autopilot_is_a_422(client, clock, code):
    """Given an autopilot that is no bot, or autopilot settings on another policy,
    creation answers 422 with a clear code."""
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "A"}, {"name": "B"}],
            "clock": {"type": "per-move", "seconds": 60, **clock},
        },
    )
    assert answer.status_code == 422 and answer.json["code"] == code, answer.json


@pytest.mark.parametrize("policy", [{"timeout_policy": "autopilot"}, FORFEIT])
@pytest.mark.parametrize("kind", [{}, {"type": "none"}])
def test_a_timeout_policy_without_a_clock_is_a_422(app, client, policy, kind):
    """Given the autopilot or forfeit policy on a game without a clock (no deadline
    ever passes, so it could never act), 422 bad-clock naming timeout_policy, and no
    game."""
    body = {"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]}
    answer = client.post("/v1/games", json={**body, "clock": {**kind, **policy}})
    assert answer.status_code == 422 and answer.json["code"] == "bad-clock", answer.json
    assert "needs a clock" in answer.json["detail"]
    assert "timeout_policy" in answer.json["errors"]
    assert client.get("/v1/games").json == []


def test_a_late_bot_seat_plays_its_own_move_never_a_forfeit(own_app):
    """Given a bot seat whose deadline passed before its task moved it (under the
    forfeit policy), the sweep plays the bot's own move (via bot, with the timeout):
    no forfeit, no autopilot."""
    from tests.helpers import until_decision

    client = own_app.test_client()
    clock = {"type": "per-move", "seconds": 60, "timeout_policy": "forfeit", "forfeit_after": 1}
    made = bot_game(client, "space-worm", [BOT, None], clock=clock)
    s = until_decision(client, own_app, made["id"])
    assert s["to_act"] == [0]
    sweep(own_app, after(utcnow(), 120))
    [move] = [m for m in moves_of(own_app, made["id"]) if m.seat == 0]
    assert move.payload["via"] == {"channel": "bot", "bot": BOT} and "timeout" in move.payload
    assert events(own_app, made["id"], "resigned") == []
    assert events(own_app, made["id"], "autopilot-on") == []
