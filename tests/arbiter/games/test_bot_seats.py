"""Bot seats (issue 25): made at creation by every way in, shown as bots, moved by the
game worker through the write path, refused clearly when the bot is no bot."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import bot_moves
from arbiter.models import Event, Game, Seat
from tests.arbiter.games.bot_helpers import ENGINES_QUICK_FIRST, bot_game, drive, moves_of
from tests.helpers import auth, sampled, summary, until_decision

MCTS = {"kind": "mcts", "level": 2}


def test_a_bot_seat_is_stored_and_shown_as_a_bot(any_app):
    """Given a human and a bot seat, the bot seat has no token or link, its name says
    it is a bot, and the summary shows its bot."""
    client = any_app.test_client()
    made = bot_game(client, "space-worm", [None, MCTS])
    assert made["seats"][1]["token"] is None and made["seats"][1]["link"] is None
    assert made["seats"][1]["bot"] == MCTS
    assert made["seats"][0]["token"]
    players = summary(client, made["id"])["players"]
    assert players[1]["name"] == "Robo1 (bot)" and players[1]["bot"] == MCTS
    assert "bot" not in players[0]
    with any_app.app_context():
        seat = db.session.get(Seat, (made["id"], 1))
        assert seat.bot == MCTS and seat.email is None and seat.account_id is None


@pytest.mark.parametrize(
    "bot, field",
    sampled(
        [
            ({"kind": "deep-blue"}, "players[1].bot"),
            ({"kind": "mcts", "level": 9}, "players[1].bot"),
            ({"kind": "mcts", "level": "2"}, "players[1].bot"),
            ({"kind": "mcts", "depth": 3}, "players[1].bot"),
            ("mcts", "players[1].bot"),
        ],
    ),
)
def test_a_bad_bot_is_a_422_and_writes_nothing(app, client, bot, field):
    """Given a bot that is none, creation answers 422 bad-bot naming the seat, and no
    game is written."""
    answer = client.post(
        "/v1/games",
        json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "R", "bot": bot}]},
    )
    assert answer.status_code == 422, answer.json
    assert answer.json["code"] == "bad-bot" and answer.json["field"] == field
    assert answer.headers["Content-Type"].startswith("application/problem+json")
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0


@pytest.mark.parametrize(
    "bot, says",
    [
        ({"kind": "mcts", "level": 0}, "has no level 0: a level is a whole number from 1 to 5"),
        ({"kind": "mcts", "level": 9}, "has no level 9: a level is a whole number from 1 to 5"),
        ({"level": "2"}, "has no level '2': a level is a whole number from 1 to 5"),
        ({"kind": "deep-blue", "level": 2}, "has no kind 'deep-blue': the kinds are random, mcts"),
        ({"kind": "deep-blue", "level": 0}, "has no kind 'deep-blue': the kinds are random, mcts"),
    ],
)
def test_a_bad_bots_detail_names_the_cause(client, bot, says):
    """Given a bad level, the detail says a level is a whole number from 1 to 5; given
    a bad kind, it lists the kinds; the code stays bad-bot."""
    answer = client.post(
        "/v1/games",
        json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "R", "bot": bot}]},
    )
    assert answer.status_code == 422 and answer.json["code"] == "bad-bot"
    assert answer.json["detail"] == f"The bot in players[1].bot {says}."


def test_a_bot_with_an_email_is_refused(app, client):
    """Given a bot seat with an address, 422 bad-bot: a bot gets no mail."""
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "Ann"}, {"name": "R", "email": "r@example.org", "bot": {}}],
        },
    )
    assert answer.status_code == 422 and answer.json["code"] == "bad-bot"


def test_an_open_bot_seat_is_refused(app, client):
    """Given a seat both open in the lobby and a bot's, 422 bad-bot and no game: a
    person taking it would be played by the bot."""
    answer = client.post(
        "/v1/games",
        json={"engine": "worms", "players": [{"name": "A"}, {"open": True, "bot": {}}]},
    )
    assert answer.status_code == 422 and answer.json["code"] == "bad-bot"
    assert answer.json["field"] == "players[1].bot"
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0


def test_bulk_creation_takes_bot_seats_and_names_a_bad_one(app, client):
    """Given a batch with bot seats, every game has them; a bad bot in game 2 makes
    the batch 422 bad-game with the seat's own problem, and nothing is written."""
    good = {"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "R", "bot": MCTS}]}
    answer = client.post("/v1/bulk-games", json={"games": [good, good]})
    assert answer.status_code == 201, answer.json
    for made in answer.json["games"]:
        assert made["seats"][1]["bot"] == MCTS and made["seats"][1]["token"] is None
    bad = {"engine": "space-worm", "players": [{"name": "A"}, {"name": "R", "bot": {"level": 0}}]}
    with app.app_context():
        before = db.session.scalar(sa.select(sa.func.count()).select_from(Game))
    answer = client.post("/v1/bulk-games", json={"games": [good, bad]})
    assert answer.status_code == 422
    assert answer.json["code"] == "bad-game" and answer.json["index"] == 1
    assert answer.json["problem"]["code"] == "bad-bot"
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == before


@pytest.mark.parametrize("engine", ENGINES_QUICK_FIRST)
def test_a_game_of_two_bots_plays_to_its_end(any_app, engine):
    """Given two bot seats of each engine, the worker's tasks alone finish the game,
    every move a bot move recorded as such (via channel bot) in /events and the
    record."""
    client = any_app.test_client()
    made = bot_game(client, engine, [MCTS, {"kind": "random"}])
    game = drive(any_app, made["id"])
    assert game.status == "over"
    moves = moves_of(any_app, made["id"])
    assert moves and all(m.payload["via"]["channel"] == "bot" for m in moves)
    record = client.get(f"/v1/games/{made['id']}/record").json
    logged = [e for e in record["events"] if e["kind"] == "move"]
    assert {e["payload"]["via"]["bot"]["kind"] for e in logged} <= {"mcts", "random"}
    events = client.get(f"/v1/games/{made['id']}/events").json["events"]
    assert any(e["kind"] == "move" and e["payload"]["via"]["channel"] == "bot" for e in events)


def test_the_bot_answers_each_move_of_a_person(any_app):
    """Given a person against a bot, after each of the person's moves the bot's turn
    is taken by the worker (no sweep), until the game ends."""
    client = any_app.test_client()
    made = bot_game(client, "space-worm", [None, MCTS])
    token = made["seats"][0]["token"]
    game_id = made["id"]
    answered = 0
    while True:
        game = drive(any_app, game_id)
        if game.status == "over":
            break
        s = until_decision(client, any_app, game_id)
        assert s["to_act"] == [0]
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(token)).json
        answer = client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(token),
            json={"move": legal["moves"][0], "expected_version": legal["version"]},
        )
        assert answer.status_code == 201, answer.json
        answered += 1
    seats = [m.seat for m in moves_of(any_app, game_id)]
    assert answered > 3 and 1 in seats and 0 in seats
    bot_moves_ = [m for m in moves_of(any_app, game_id) if m.seat == 1]
    assert all(m.payload["via"] == {"channel": "bot", "bot": MCTS} for m in bot_moves_)


def test_a_bot_task_for_an_old_version_does_nothing(app, client):
    """Given a bot task for a version the game has passed (a task delivered twice),
    nothing is written."""
    made = bot_game(client, "space-worm", [MCTS, MCTS])
    drive(app, made["id"], limit=3, strict=False)
    with app.app_context():
        version = db.session.get(Game, made["id"]).version
        assert bot_moves.play_bot(made["id"], 1) == -1
        count = db.session.scalar(
            sa.select(sa.func.count()).select_from(Event).where(Event.game_id == made["id"])
        )
        assert count == version


def test_the_game_page_names_the_bot_as_a_bot(app, client):
    """Given a game with a bot seat, its page shows the bot's name saying bot."""
    made = bot_game(client, "space-worm", [None, MCTS])
    page = client.get(f"/games/{made['id']}")
    assert page.status_code == 200
    assert "Robo1 (bot)" in page.get_data(as_text=True)


def test_a_campaign_keeps_its_bot_seats_in_every_game(app, client):
    """Given a campaign with a bot player, its next game has that bot seat; a bad bot
    is 422 bad-bot and no campaign is made."""
    players = [{"name": "Ann"}, {"name": "Robo", "bot": MCTS}]
    bad = client.post(
        "/v1/campaigns",
        json={
            "engine": "star-maps",
            "name": "C",
            "players": [{"name": "A"}, {"name": "R", "bot": 1}],
        },
    )
    assert bad.status_code == 422 and bad.json["code"] == "bad-bot"
    made = client.post(
        "/v1/campaigns", json={"engine": "star-maps", "name": "C", "players": players}
    )
    assert made.status_code == 201, made.json
    game = client.post(
        f"/v1/campaigns/{made.json['id']}/games",
        headers=auth(made.json["token"]),
        json={},
    )
    assert game.status_code == 201, game.json
    assert game.json["seats"][1]["bot"] == MCTS and game.json["seats"][1]["token"] is None


def test_the_sweep_finds_a_bot_whose_task_was_lost(any_app):
    """Given a game waiting for a bot's move longer than the delay (a lost task), the
    chance sweep's query lists it at its version; once the bot moved, it does not."""
    client = any_app.test_client()
    made = bot_game(client, "space-worm", [MCTS, None])
    s = until_decision(client, any_app, made["id"])
    assert s["to_act"] == [0]
    with any_app.app_context():
        assert made["id"] not in {g for g, _ in bot_moves.stalled_bots(older_than_seconds=60)}
        assert (made["id"], s["version"]) in bot_moves.stalled_bots(older_than_seconds=-1)
    drive(any_app, made["id"])
    with any_app.app_context():
        assert made["id"] not in {g for g, _ in bot_moves.stalled_bots(older_than_seconds=-1)}


def test_the_new_game_form_seats_a_bot(app, client):
    """Given the new-game page's bot row (the web form of issue 23), the game has a
    bot seat of the strength chosen, which moves at its turn."""
    from tests.arbiter.web.test_web_accounts import browser_sign_in
    from tests.arbiter.web.test_web_start import _create, _game_id

    browser_sign_in(client, app, "host@example.org", "Host")
    game_id = _game_id(_create(client, **{"kind-1": "bot", "name-1": "Robo", "bot-1": "mcts-2"}))
    with app.app_context():
        seat = db.session.get(Seat, (game_id, 1))
        assert seat.bot == MCTS and seat.name == "Robo (bot)"
    assert "Robo (bot)" in client.get(f"/games/{game_id}").get_data(as_text=True)
