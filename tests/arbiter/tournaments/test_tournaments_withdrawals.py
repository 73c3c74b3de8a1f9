"""Withdrawals at the edges of a tournament (a fresh-clone tester's findings): a field
that withdrawals leave too small for a table ends the tournament instead of failing
at every sweep, an organiser's withdrawal is not the player's resignation, a
withdrawal before the start can be taken back, and a round number or page too large
for the database is a 4xx, not a 500."""

from __future__ import annotations

import logging
import random

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Tournament, TournamentEvent, TournamentRound
from arbiter.tournaments import tournament_rounds
from tests.arbiter.tournaments.test_tournaments import (
    accounts,
    advance,
    create,
    enter_all,
    log_kinds,
    play_round,
    problem,
    start,
)
from tests.helpers import auth


def _withdraw(client, tournament_id: str, entry: str, token: str):
    answer = client.post(
        f"/v1/tournaments/{tournament_id}/entries/{entry}/withdraw", headers=auth(token)
    )
    assert answer.status_code == 200, answer.json
    return answer.json


def _over_payload(app, tournament_id: str) -> dict:
    with app.app_context():
        return db.session.scalars(
            sa.select(TournamentEvent.payload).where(
                TournamentEvent.tournament_id == tournament_id,
                TournamentEvent.kind == "tournament-over",
            )
        ).one()


def test_a_swiss_left_with_one_player_ends_and_the_organisers_forfeit_is_no_resignation(any_app):
    client = any_app.test_client()
    me, bob = accounts(client, any_app, 2)
    t = create(client, me, name="Sw2", rounds=2)
    _, bobs = enter_all(client, t["id"], [me, bob])
    start(client, t["id"], me)
    base = f"/v1/tournaments/{t['id']}"
    _withdraw(client, t["id"], bobs, me)
    replaced = client.post(f"{base}/entries/{bobs}/replace", headers=auth(me))
    assert replaced.status_code == 200 and len(replaced.json["games"]) == 1
    assert client.get(f"/v1/games/{replaced.json['games'][0]}").json["status"] == "over"

    assert advance(any_app, t["id"]) == "advanced"  # was: ValueError at every try
    over = client.get(base).json
    assert over["status"] == "over" and over["round"] == 1 and over["deadline"] is None
    assert _over_payload(any_app, t["id"])["reason"] == "too-few-entrants"
    with any_app.app_context():
        assert db.session.get(TournamentRound, (t["id"], 1)).ended_at is not None
    problem(client.get(f"{base}/rounds/2"), 404, "round-not-found")
    assert log_kinds(any_app, t["id"])[-2:] == ["round-ended", "tournament-over"]
    standings = client.get(f"{base}/standings").json
    assert standings["status"] == "over"
    assert [s["withdrawn"] for s in standings["standings"]] == [False, True]

    # the organiser withdrew and replaced Bob: that forfeit is not Bob's resignation
    assert client.get("/v1/me", headers=auth(bob)).json["reliability"]["resignations"] == 0
    strict = create(client, me, reliability_threshold=0)
    assert (
        client.post(f"/v1/tournaments/{strict['id']}/entries", headers=auth(bob)).status_code == 201
    )


def test_a_player_who_withdraws_himself_and_is_replaced_has_resigned(app):
    client = app.test_client()
    organiser, ann, bob = accounts(client, app, 3)
    t = create(client, organiser, rounds=2)
    _, bobs = enter_all(client, t["id"], [ann, bob])
    start(client, t["id"], organiser)
    _withdraw(client, t["id"], bobs, bob)
    assert (
        client.post(
            f"/v1/tournaments/{t['id']}/entries/{bobs}/replace", headers=auth(organiser)
        ).status_code
        == 200
    )
    assert client.get("/v1/me", headers=auth(bob)).json["reliability"]["resignations"] == 1


def test_a_round_robin_left_with_one_player_ends_after_the_round(any_app):
    client = any_app.test_client()
    organiser, *players = accounts(client, any_app, 4)
    t = create(client, organiser, format="round_robin", rounds=None)
    entries = enter_all(client, t["id"], players)
    token_of = dict(zip(entries, players))
    assert start(client, t["id"], organiser)["rounds"] == 3  # 3 entrants: a bye a round
    play_round(client, any_app, t["id"], 1, token_of, random.Random(5))
    for gone in entries[:2]:
        _withdraw(client, t["id"], gone, organiser)
    assert advance(any_app, t["id"]) == "advanced"
    over = client.get(f"/v1/tournaments/{t['id']}").json
    assert over["status"] == "over" and over["round"] == 1  # was: rounds of byes only
    assert _over_payload(any_app, t["id"])["reason"] == "too-few-entrants"


def test_a_tournament_that_plays_every_round_says_so(app):
    client = app.test_client()
    organiser, ann, bob = accounts(client, app, 3)
    t = create(client, organiser, rounds=1)
    entries = enter_all(client, t["id"], [ann, bob])
    start(client, t["id"], organiser)
    play_round(client, app, t["id"], 1, dict(zip(entries, [ann, bob])), random.Random(2))
    assert advance(app, t["id"]) == "advanced"
    assert _over_payload(app, t["id"])["reason"] == "rounds-played"


def test_one_broken_tournament_neither_stops_the_sweep_nor_floods_the_log(app, caplog):
    client = app.test_client()
    organiser, ann, bob, cid, dan = accounts(client, app, 5)
    broken, fine = create(client, organiser), create(client, organiser)
    for t, pair in ((broken, [ann, bob]), (fine, [cid, dan])):
        entries = enter_all(client, t["id"], pair)
        start(client, t["id"], organiser)
        play_round(client, app, t["id"], 1, dict(zip(entries, pair)), random.Random(4))
    with app.app_context():  # a row the pairing cannot read: its scoring is lost
        db.session.execute(
            sa.update(Tournament).where(Tournament.id == broken["id"]).values(scoring={})
        )
        db.session.commit()
    with caplog.at_level(logging.DEBUG, logger=tournament_rounds.__name__):
        with app.app_context():
            first = tournament_rounds.sweep()
            second = tournament_rounds.sweep()
    assert first["failed"] == 1 and first["advanced"] >= 1 and second["failed"] == 1
    assert client.get(f"/v1/tournaments/{fine['id']}").json["round"] == 2
    mine = [r for r in caplog.records if broken["id"] in r.getMessage()]
    assert [r.levelno for r in mine] == [logging.ERROR, logging.DEBUG]
    assert mine[0].exc_info is not None


def test_a_withdrawal_before_the_start_can_be_taken_back(any_app):
    client = any_app.test_client()
    organiser, ann, bob = accounts(client, any_app, 3)
    t = create(client, organiser, format="round_robin", rounds=None)
    _, bobs = enter_all(client, t["id"], [ann, bob])
    _withdraw(client, t["id"], bobs, bob)
    again = client.post(f"/v1/tournaments/{t['id']}/entries", headers=auth(bob))
    assert again.status_code == 201, again.json
    assert again.json["id"] == bobs and again.json["withdrawn_round"] is None
    problem(
        client.post(f"/v1/tournaments/{t['id']}/entries", headers=auth(bob)), 409, "already-entered"
    )
    assert start(client, t["id"], organiser)["status"] == "running"
    assert "entry-returned" in log_kinds(any_app, t["id"])


def test_a_withdrawal_after_the_start_is_final_and_the_answer_says_so(app):
    client = app.test_client()
    organiser, ann, bob, cid = accounts(client, app, 4)
    t = create(client, organiser, rounds=3, late_entries=True)
    _, bobs, _ = enter_all(client, t["id"], [ann, bob, cid])
    start(client, t["id"], organiser)
    _withdraw(client, t["id"], bobs, bob)
    answer = client.post(f"/v1/tournaments/{t['id']}/entries", headers=auth(bob))
    problem(answer, 409, "withdrawn")
    assert "final" in answer.json["detail"]


def test_a_round_number_too_large_for_the_database_is_a_404(app):
    client = app.test_client()
    (organiser,) = accounts(client, app, 1)
    t = create(client, organiser)
    base = f"/v1/tournaments/{t['id']}/rounds"
    for number in (
        "99999999999999999999",
        "9223372036854775808",
        "9223372036854775807",
        "2147483648",
    ):
        problem(client.get(f"{base}/{number}"), 404, "not-found")
    problem(client.get(f"{base}/2147483647"), 404, "round-not-found")
    spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    [param] = [
        p
        for p in spec["paths"]["/v1/tournaments/{tournament_id}/rounds/{number}"]["parameters"]
        if p["name"] == "number"
    ]
    assert param["schema"] == {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}


def test_the_web_lists_answer_a_bad_page_or_status_with_an_html_page(app):
    client = app.test_client()
    for address, said in (
        ("/games?page=99999999999999999999", "no page"),
        ("/tournaments?status=zzz", "zzz"),
    ):
        answer = client.get(address)
        assert answer.status_code == 400 and answer.mimetype == "text/html", address
        assert said in answer.get_data(as_text=True)
    assert client.get("/games?page=2").status_code == 200
    assert client.get("/tournaments?status=open").status_code == 200
