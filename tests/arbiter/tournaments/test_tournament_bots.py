"""Built-in bots in tournaments (issue 25): an organiser's bot entries, and a Swiss
with an odd number of entrants filled by a bot at the start instead of a bye."""

from __future__ import annotations

import random

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Seat, Tournament
from tests.arbiter.games.bot_helpers import drive
from tests.arbiter.tournaments.test_tournaments import (
    accounts,
    advance,
    create,
    enter_all,
    log_kinds,
    problem,
    start,
)
from tests.conftest import make_app
from tests.helpers import auth, random_move

BOT = {"kind": "mcts", "level": 1}


def play_with_bots(client, app, tournament_id: str, number: int, token_of: dict, rng) -> dict:
    """Play round ``number``: people by random legal moves, bots by the worker's
    tasks (in process); return the round."""
    rnd = client.get(f"/v1/tournaments/{tournament_id}/rounds/{number}").json
    for table in rnd["tables"]:
        tokens = [token_of.get(p["entry"]) for p in table["players"]]
        while drive(app, table["game"]).status != "over":
            _, _, answer = random_move(client, app, table["game"], tokens, rng)
            assert answer.status_code == 201, answer.json
    return rnd


def test_a_swiss_with_an_odd_number_of_entrants_is_filled_by_a_bot(any_app):
    """Given three entrants and fill_with_bot, the start enters a filler bot (logged
    entry-added with its bot): every round seats everyone, no byes; the bot's seats
    are bot seats, it plays its games through the worker, and it is ranked."""
    client = any_app.test_client()
    organiser, *players = accounts(client, any_app, 4)
    t = create(client, organiser, rounds=2, fill_with_bot=BOT)
    assert t["fill_with_bot"] == BOT
    entries = enter_all(client, t["id"], players)
    token_of = dict(zip(entries, players))
    start(client, t["id"], organiser)
    listed = client.get(f"/v1/tournaments/{t['id']}").json["entries"]
    [filler] = [e for e in listed if e.get("bot")]
    assert filler["bot"] == BOT and filler["account"] is None
    assert filler["name"] == "Filler (bot)"
    rng = random.Random(5)
    game_ids = []
    for number in (1, 2):
        rnd = play_with_bots(client, any_app, t["id"], number, token_of, rng)
        game_ids += [table["game"] for table in rnd["tables"]]
        assert rnd["byes"] == [] and len(rnd["tables"]) == 2
        seated = {p["entry"] for table in rnd["tables"] for p in table["players"]}
        assert filler["id"] in seated
        assert advance(any_app, t["id"]) == "advanced"
    done = client.get(f"/v1/tournaments/{t['id']}").json
    assert done["status"] == "over"
    kinds = log_kinds(any_app, t["id"])
    assert kinds.index("entry-added", 3) < kinds.index("tournament-started")
    with any_app.app_context():
        bot_seats = db.session.scalars(
            sa.select(Seat).where(Seat.bot.is_not(None), Seat.game_id.in_(game_ids))
        ).all()
        assert len(bot_seats) == 2 and all(s.name == "Filler (bot)" for s in bot_seats)


def test_an_organiser_enters_bots_at_creation(any_app):
    """Given bots entered at creation, they are entries without an account, paired
    like anyone; an even field needs no filler."""
    client = any_app.test_client()
    organiser, player = accounts(client, any_app, 2)
    t = create(client, organiser, rounds=1, bots=[{"name": "Robo", "bot": BOT}], fill_with_bot=BOT)
    [entry] = enter_all(client, t["id"], [player])
    start(client, t["id"], organiser)
    listed = client.get(f"/v1/tournaments/{t['id']}").json["entries"]
    assert [e["name"] for e in listed] == ["Robo (bot)", listed[1]["name"]]
    rnd = play_with_bots(client, any_app, t["id"], 1, {entry: player}, random.Random(1))
    assert rnd["byes"] == [] and len(rnd["tables"]) == 1
    assert advance(any_app, t["id"]) == "advanced"
    assert client.get(f"/v1/tournaments/{t['id']}").json["status"] == "over"


def test_fillers_count_towards_a_first_table(app, client):
    """Given fewer entrants than a table, fill_with_bot fills it at the start (the
    start counts the fillers before it refuses too-few-entries); without it, 409."""
    organiser, *players = accounts(client, app, 3)
    filled = create(client, organiser, rounds=1, table_size=3, fill_with_bot=BOT)
    enter_all(client, filled["id"], players[:2])
    start(client, filled["id"], organiser)
    rnd = client.get(f"/v1/tournaments/{filled['id']}/rounds/1").json
    [table] = rnd["tables"]
    names = sorted(p["name"] for p in table["players"])
    assert len(names) == 3 and names[0] == "Filler (bot)"
    bare = create(client, organiser, rounds=1, table_size=3)
    enter_all(client, bare["id"], players[:2])
    answer = client.post(f"/v1/tournaments/{bare['id']}/start", headers=auth(organiser))
    problem(answer, 409, "too-few-entries")


def test_a_bad_bot_in_a_tournament_is_a_422_and_writes_nothing(app, client):
    """Given a filler or an entered bot that is no bot, 422 bad-bot, no tournament."""
    [organiser] = accounts(client, app, 1)
    body = {"engine": "space-worm", "table_size": 2, "format": "swiss", "rounds": 2}
    for extra in (
        {"fill_with_bot": {"kind": "oracle"}},
        {"bots": [{"name": "R", "bot": {"level": 6}}]},
    ):
        answer = client.post("/v1/tournaments", json={**body, **extra}, headers=auth(organiser))
        problem(answer, 422, "bad-bot")
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 0


def test_migration_i25a_downgrades_and_upgrades(empty_db_url):
    """Given the schema at head, i25a (bot seats, autopilot, bot entries, bot ratings)
    goes down and up again on either database."""
    from flask_migrate import downgrade, upgrade

    app = make_app(empty_db_url)
    with app.app_context():
        downgrade(revision="i24m_notifications")  # the revision i25a builds on
        inspector = sa.inspect(db.engine)
        assert "bot" not in {c["name"] for c in inspector.get_columns("seats")}
        assert "bot_ratings" not in inspector.get_table_names()
        upgrade()
        inspector = sa.inspect(db.engine)
        assert {"bot", "autopilot"} <= {c["name"] for c in inspector.get_columns("seats")}
        assert "fill_with_bot" in {c["name"] for c in inspector.get_columns("tournaments")}
        assert "bot_ratings" in inspector.get_table_names()
        db.engine.dispose()


def test_a_rated_tournament_plays_a_table_of_bots_only_unrated(any_app):
    """Given a rated round robin of one person and two bots, every round is paired;
    the person's games are rated, the bots' game against each other is not (a rated
    game needs a person: arbiter.accounts.ratings.check_rated), and it counts."""
    client = any_app.test_client()
    [organiser] = accounts(client, any_app, 1)
    bots = [{"name": "Robo", "bot": BOT}, {"name": "Deep", "bot": {"kind": "random"}}]
    t = create(client, organiser, format="round_robin", rounds=None, rated=True, bots=bots)
    [entry] = enter_all(client, t["id"], [organiser])
    start(client, t["id"], organiser)
    rated, rng = {}, random.Random(3)
    for number in (1, 2, 3):
        rnd = play_with_bots(client, any_app, t["id"], number, {entry: organiser}, rng)
        for table in rnd["tables"]:
            people = any(p["entry"] == entry for p in table["players"])
            rated[people] = client.get(f"/v1/games/{table['game']}").json["rated"]
        assert advance(any_app, t["id"]) == "advanced"
    assert rated == {True: True, False: False}
    assert client.get(f"/v1/tournaments/{t['id']}").json["status"] == "over"
