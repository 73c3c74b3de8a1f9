"""Reliability blames the right seat (issue 28, "Reliability that blames the right
seat"): counted per game, against the seat whose own clock ran out or that resigned,
never against a seat a round deadline moved while it waited for the other; a round
deadline's default policy is a forfeit of the seat that owed the move."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.models import Event, TournamentRound
from arbiter.tournaments import tournament_rounds
from tests.arbiter.tournaments.test_tournaments import accounts, create, enter_all, start
from tests.helpers import auth, random_move, until_decision


def _me(client, token: str) -> dict:
    return client.get("/v1/me", headers=auth(token)).json["reliability"]


def _one_move_then_deadline(app, policy: str | None):
    """A round robin of Ann and Cyd: the seat to move first (Ann) moves once, Cyd never
    moves, and the round's deadline passes. Returns (client, tokens by name, the game,
    the tournament)."""
    client = app.test_client()
    organiser, first, second = accounts(client, app, 3)
    fields = {"deadline_policy": policy} if policy else {}
    t = create(
        client,
        organiser,
        format="round_robin",
        rounds=None,
        round_seconds=3600,
        clock={"type": "per-move", "seconds": 86400},
        **fields,
    )
    entries = enter_all(client, t["id"], [first, second])
    token_of = dict(zip(entries, [first, second]))
    start(client, t["id"], organiser)
    table = client.get(f"/v1/tournaments/{t['id']}/rounds/1").json["tables"][0]
    game = table["game"]
    tokens = [token_of[p["entry"]] for p in table["players"]]
    ann_seat = until_decision(client, app, game)["to_act"][0]
    ann, cyd = tokens[ann_seat], tokens[1 - ann_seat]
    rng = random.Random(28)
    seat, _, answer = random_move(client, app, game, tokens, rng)
    assert answer.status_code == 201 and seat == ann_seat
    while until_decision(client, app, game)["to_act"] == [ann_seat]:  # her turn's rest
        seat, _, answer = random_move(client, app, game, tokens, rng)
        assert answer.status_code == 201
    assert until_decision(client, app, game)["to_act"] == [1 - ann_seat]
    with app.app_context():
        late = db.session.get(TournamentRound, (t["id"], 1)).deadline
    with time_machine.travel(late, tick=False), app.app_context():
        assert tournament_rounds.sweep()["advanced"] == 1
    return client, {"Ann": ann, "Cyd": cyd, "ann_seat": ann_seat}, game, t


def test_a_round_deadline_forfeits_the_absent_seat_and_blames_only_it(app):
    client, who, game, t = _one_move_then_deadline(app, None)  # the default policy
    assert t["deadline_policy"] == "forfeit"
    over = client.get(f"/v1/games/{game}").json
    assert over["status"] == "over" and over["result"]["reason"] == "resignation"
    cyd_seat = 1 - who["ann_seat"]
    assert over["result"]["ranking"][0] == [who["ann_seat"]]  # Ann wins, by forfeit
    with app.app_context():
        resigned = db.session.execute(
            sa.select(Event.seat, Event.payload).where(
                Event.game_id == game, Event.kind == "resigned"
            )
        ).all()
    assert [(s, p["forfeit"], p["owed"], p["absent"]) for s, p in resigned] == [
        (cyd_seat, True, True, True)
    ]
    assert _me(client, who["Ann"]) == {"timeouts": 0, "resignations": 0, "games": 1, "score": 1.0}
    assert _me(client, who["Cyd"]) == {"timeouts": 1, "resignations": 0, "games": 1, "score": 0.0}
    standings = client.get(f"/v1/tournaments/{t['id']}/standings").json["standings"]
    assert [s["points"] for s in standings] == [1.0, 0.0]


def test_timeout_moves_at_a_round_deadline_count_one_timeout_for_the_seat_that_owed(app):
    client, who, game, t = _one_move_then_deadline(app, "timeout-move")
    assert t["deadline_policy"] == "timeout-move"
    with app.app_context():
        moved = db.session.execute(
            sa.select(Event.seat, Event.payload).where(Event.game_id == game, Event.kind == "move")
        ).all()
    by_deadline = [(s, p["timeout"]["owed"]) for s, p in moved if "timeout" in p]
    assert len(by_deadline) > 2  # the game was played out by the deadline's moves
    assert {owed for s, owed in by_deadline if s == who["ann_seat"]} == {False}
    assert {owed for s, owed in by_deadline if s != who["ann_seat"]} == {True}
    assert _me(client, who["Ann"]) == {"timeouts": 0, "resignations": 0, "games": 1, "score": 1.0}
    assert _me(client, who["Cyd"])["timeouts"] == 1  # one game, however many moves
    # README's example threshold lets Ann in
    organiser = accounts(client, app, 1)[0]
    strict = create(client, organiser, reliability_threshold=0.2)
    answer = client.post(f"/v1/tournaments/{strict['id']}/entries", headers=auth(who["Ann"]))
    assert answer.status_code == 201, answer.json
    refused = client.post(f"/v1/tournaments/{strict['id']}/entries", headers=auth(who["Cyd"]))
    assert refused.status_code == 403 and refused.json["code"] == "too-unreliable"


@pytest.mark.parametrize("policy", ["forfeit", "timeout-move"])
def test_the_deadline_policy_is_a_choice_and_nothing_else(app, policy):
    client = app.test_client()
    (organiser,) = accounts(client, app, 1)
    made = create(client, organiser, deadline_policy=policy)
    assert made["deadline_policy"] == policy
    bad = client.post(
        "/v1/tournaments",
        json={"engine": "space-worm", "table_size": 2, "format": "swiss", "rounds": 2,
              "deadline_policy": "coin-toss"},
        headers=auth(organiser),
    )  # fmt: skip
    assert bad.status_code == 422 and bad.json["code"] == "invalid-request"


def test_migration_i28a_downgrades_and_upgrades(any_app):
    """Given the schema at head, i28a (deadline policy, bye requests, seed ratings,
    requested byes) goes down and up again on either database."""
    from flask_migrate import downgrade, upgrade

    with any_app.app_context():
        downgrade(revision="i22b_webhook_lease")
        columns = {c["name"] for c in sa.inspect(db.engine).get_columns("tournaments")}
        assert "deadline_policy" not in columns
        upgrade()
        inspector = sa.inspect(db.engine)
        assert "deadline_policy" in {c["name"] for c in inspector.get_columns("tournaments")}
        entry = {c["name"] for c in inspector.get_columns("tournament_entries")}
        assert {"bye_requests", "seed_rating"} <= entry
        rounds = {c["name"] for c in inspector.get_columns("tournament_rounds")}
        assert "requested_byes" in rounds
