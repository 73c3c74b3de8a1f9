"""Tournaments through the API in-process (issue 11, "Tournaments" and "Organiser
tools"): the round cycle, late entry and withdrawal, round deadlines decided by the
clock's policy, pause, extension, replacement, and a problem with a stable code for
every bad input. The whole tournaments with real worker processes are in
``tests/e2e/test_tournaments.py``."""

from __future__ import annotations

import json
import random
import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.models import Event, TournamentEvent
from arbiter.tournaments import tournament_rounds
from tests.helpers import auth, random_move, scoped_token, sign_in, until_decision


def accounts(client, app, count: int) -> list[str]:
    """Sign up ``count`` fresh accounts; return their personal tokens (every scope)."""
    tag = uuid.uuid4().hex[:8]
    return [sign_in(client, app, f"t{i}-{tag}@example.org", f"T{i}{tag}") for i in range(count)]


def create(client, token: str, **fields) -> dict:
    """Create a tournament (201 expected); return it."""
    body = {"engine": "space-worm", "table_size": 2, "format": "swiss", "rounds": 2, **fields}
    answer = client.post("/v1/tournaments", json=body, headers=auth(token))
    assert answer.status_code == 201, answer.json
    return answer.json


def enter_all(client, tournament_id: str, tokens: list[str]) -> list[str]:
    """Enter every account; return the entry ids."""
    ids = []
    for token in tokens:
        answer = client.post(f"/v1/tournaments/{tournament_id}/entries", headers=auth(token))
        assert answer.status_code == 201, answer.json
        ids.append(answer.json["id"])
    return ids


def start(client, tournament_id: str, token: str) -> dict:
    answer = client.post(f"/v1/tournaments/{tournament_id}/start", headers=auth(token))
    assert answer.status_code == 200, answer.json
    return answer.json


def play_round(
    client, app, tournament_id: str, number: int, token_of: dict, rng: random.Random
) -> dict:
    """Play every game of round ``number`` to its end by random legal moves (each
    seat with its entrant's personal token); return the round."""
    rnd = client.get(f"/v1/tournaments/{tournament_id}/rounds/{number}").json
    for table in rnd["tables"]:
        tokens = [token_of[p["entry"]] for p in table["players"]]
        while until_decision(client, app, table["game"])["status"] != "over":
            _, _, answer = random_move(client, app, table["game"], tokens, rng)
            assert answer.status_code == 201, answer.json
    return rnd


def advance(app, tournament_id: str, now=None) -> str:
    """Run what the game-over task runs."""
    with app.app_context():
        return tournament_rounds.advance(tournament_id, now)


def problem(answer, status: int, code: str) -> None:
    assert answer.status_code == status, answer.json
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == code, answer.json


def log_kinds(app, tournament_id: str) -> list[str]:
    with app.app_context():
        return list(
            db.session.scalars(
                sa.select(TournamentEvent.kind)
                .where(TournamentEvent.tournament_id == tournament_id)
                .order_by(TournamentEvent.seq)
            )
        )


def test_a_swiss_with_a_late_entry_and_a_withdrawal_runs_round_by_round(any_app):
    client = any_app.test_client()
    organiser, *players = accounts(client, any_app, 7)
    t = create(client, organiser, rounds=3)
    entries = enter_all(client, t["id"], players[:5])
    token_of = dict(zip(entries, players))
    assert start(client, t["id"], organiser)["status"] == "running"
    rng = random.Random(3)
    first = play_round(client, any_app, t["id"], 1, token_of, rng)
    assert len(first["tables"]) == 2 and len(first["byes"]) == 1
    late = client.post(f"/v1/tournaments/{t['id']}/entries", headers=auth(players[5]))
    assert late.status_code == 201 and late.json["joined_round"] == 2
    token_of[late.json["id"]] = players[5]
    gone = client.post(
        f"/v1/tournaments/{t['id']}/entries/{entries[0]}/withdraw", headers=auth(players[0])
    )
    assert gone.status_code == 200 and gone.json["withdrawn_round"] == 2
    assert advance(any_app, t["id"]) == "advanced"
    second = client.get(f"/v1/tournaments/{t['id']}/rounds/2").json
    seated = {p["entry"] for table in second["tables"] for p in table["players"]}
    sitting = {b["entry"] for b in second["byes"]}
    assert len(sitting) == 1  # 4 entrants play on, plus the late one: 5
    assert seated | sitting == set(entries[1:]) | {late.json["id"]}
    play_round(client, any_app, t["id"], 2, token_of, rng)
    assert advance(any_app, t["id"]) == "advanced"
    play_round(client, any_app, t["id"], 3, token_of, rng)
    assert advance(any_app, t["id"]) == "advanced"
    assert advance(any_app, t["id"]) == "idle"
    over = client.get(f"/v1/tournaments/{t['id']}").json
    assert over["status"] == "over" and over["round"] == 3
    listed = client.get("/v1/tournaments?status=over&engine=space-worm")
    assert t["id"] in [x["id"] for x in listed.json] and "X-Pagination" in listed.headers
    assert t["id"] not in [x["id"] for x in client.get("/v1/tournaments?status=open").json]
    far = client.get("/v1/tournaments?page=47832628055285530624")  # past any offset
    assert far.status_code == 200 and far.json == []
    for unfiltered in ("/v1/tournaments", "/v1/tournaments?engine=&page=1&page_size=10"):
        every = client.get(unfiltered)  # no filter once lost the count's FROM: 503
        assert every.status_code == 200 and t["id"] in [x["id"] for x in every.json]
        assert json.loads(every.headers["X-Pagination"])["total"] >= 1
    standings = client.get(f"/v1/tournaments/{t['id']}/standings").json["standings"]
    by_entry = {s["entry"]: s for s in standings}
    assert by_entry[entries[0]]["games"] + by_entry[entries[0]]["byes"] == 1
    assert by_entry[entries[0]]["withdrawn"]
    assert all(s["games"] + s["byes"] == 3 for e, s in by_entry.items() if e in entries[1:])
    assert by_entry[late.json["id"]]["games"] + by_entry[late.json["id"]]["byes"] == 2
    assert log_kinds(any_app, t["id"]) == [
        "tournament-created",
        *["entry-added"] * 5,
        "tournament-started",
        "round-paired",
        "entry-added",
        "entry-withdrawn",
        "round-ended",
        "round-paired",
        "round-ended",
        "round-paired",
        "round-ended",
        "tournament-over",
    ]
    csv = client.get(f"/v1/tournaments/{t['id']}/standings", headers={"Accept": "text/csv"})
    assert csv.mimetype == "text/csv"
    lines = csv.get_data(as_text=True).splitlines()
    assert lines[0].startswith("rank,entry,name,points") and len(lines) == 7
    assert client.get(f"/v1/tournaments/{t['id']}/standings?format=csv").data == csv.data
    trf = client.get(f"/v1/tournaments/{t['id']}/trf")
    assert trf.status_code == 200 and trf.mimetype == "text/plain"
    record = client.get(f"/v1/tournaments/{t['id']}/record").json
    assert len(record["games"]) == 2 + 2 + 2
    from arbiter.verify_tournament import verify_tournament

    verdict = verify_tournament(record)
    assert verdict.ok, verdict.mismatch


@pytest.mark.parametrize("policy", ["forfeit", "timeout-move"])
def test_a_round_deadline_decides_the_unfinished_games_by_the_deadline_policy(app, policy):
    client = app.test_client()
    organiser, *players = accounts(client, app, 5)
    clock = {"type": "per-move", "seconds": 86400}
    t = create(client, organiser, rounds=2, round_seconds=3600, clock=clock, deadline_policy=policy)
    enter_all(client, t["id"], players)
    start(client, t["id"], organiser)
    first = client.get(f"/v1/tournaments/{t['id']}/rounds/1").json
    deadline = first["deadline"]
    assert deadline is not None and len(first["tables"]) == 2
    assert advance(app, t["id"]) == "waiting"
    with app.app_context():
        from arbiter.models import TournamentRound

        row = db.session.get(TournamentRound, (t["id"], 1))
        late = row.deadline + timedelta(seconds=1)
    with time_machine.travel(late, tick=False):
        with app.app_context():
            counts = tournament_rounds.sweep()
    assert counts["advanced"] == 1
    for table in first["tables"]:
        game = client.get(f"/v1/games/{table['game']}").json
        assert game["status"] == "over"
        with app.app_context():
            kinds = dict(forfeit="resigned", **{"timeout-move": "move"})
            decided = db.session.scalars(
                sa.select(Event.payload).where(
                    Event.game_id == table["game"], Event.kind == kinds[policy]
                )
            ).all()
        if policy == "forfeit":
            assert game["result"]["reason"] == "resignation"
            assert decided and all(p["forfeit"] for p in decided)
        else:  # every move after the deadline is the clock's, to the game's end
            assert decided and decided[-1]["timeout"]["round"] is True
        record = client.get(f"/v1/games/{table['game']}/record").json
        from arbiter.verify import verify

        assert verify(record).ok
    assert client.get(f"/v1/tournaments/{t['id']}").json["round"] == 2
    assert "round-deadline" in log_kinds(app, t["id"])


def test_the_organiser_pauses_extends_and_replaces_and_each_is_logged(app):
    client = app.test_client()
    organiser, *players = accounts(client, app, 5)
    t = create(
        client,
        organiser,
        rounds=2,
        round_seconds=3600,
        clock={"type": "per-move", "seconds": 86400},
    )
    entries = enter_all(client, t["id"], players)
    start(client, t["id"], organiser)
    base = f"/v1/tournaments/{t['id']}"
    before = client.get(f"{base}/rounds/1").json["deadline"]
    paused = client.post(f"{base}/pause", headers=auth(organiser))
    assert paused.status_code == 200 and paused.json["paused"]
    assert len(paused.json["games"]) == 2
    for game_id in paused.json["games"]:
        assert client.get(f"/v1/games/{game_id}").json["clock"]["paused"]
    problem(client.post(f"{base}/pause", headers=auth(organiser)), 409, "already-paused")
    resumed = client.post(f"{base}/resume", headers=auth(organiser))
    assert resumed.status_code == 200 and not resumed.json["paused"]
    problem(client.post(f"{base}/resume", headers=auth(organiser)), 409, "not-paused")
    extended = client.post(f"{base}/extend", json={"seconds": 600}, headers=auth(organiser))
    assert extended.status_code == 200
    after = client.get(f"{base}/rounds/1").json["deadline"]
    assert after > before
    seated = client.get(f"{base}/rounds/1").json["tables"][0]["players"][0]["entry"]
    problem(
        client.post(f"{base}/entries/{seated}/replace", headers=auth(organiser)),
        409,
        "entry-not-withdrawn",
    )
    client.post(f"{base}/entries/{seated}/withdraw", headers=auth(organiser))
    replaced = client.post(f"{base}/entries/{seated}/replace", headers=auth(organiser))
    assert replaced.status_code == 200 and len(replaced.json["games"]) == 1
    game = client.get(f"/v1/games/{replaced.json['games'][0]}").json
    assert game["status"] == "over"  # a 2-player game ends when one seat resigns
    problem(
        client.post(f"{base}/entries/{seated}/replace", headers=auth(organiser)),
        409,
        "nothing-to-replace",
    )
    kinds = log_kinds(app, t["id"])
    for kind in (
        "tournament-paused",
        "tournament-resumed",
        "round-extended",
        "entry-withdrawn",
        "entry-replaced",
    ):
        assert kind in kinds
    assert entries


def test_every_bad_input_is_a_problem_with_a_stable_code(app):
    client = app.test_client()
    organiser, a, b, c = accounts(client, app, 4)
    no_scope = scoped_token(client, organiser, "games:play")
    problem(
        client.post(
            "/v1/tournaments",
            json={"engine": "space-worm", "table_size": 2, "format": "swiss", "rounds": 2},
            headers=auth(no_scope),
        ),
        403,
        "missing-scope",
    )
    problem(client.post("/v1/tournaments", json={}), 401, "missing-token")
    seat_token = client.post(
        "/v1/games", json={"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]}
    ).json["seats"][0]["token"]
    problem(
        client.post("/v1/tournaments", json={}, headers=auth(seat_token)),
        401,
        "not-an-account-token",
    )
    for fields, code in (
        ({"engine": "chess"}, "unknown-engine"),
        ({"table_size": 9}, "bad-player-count"),
        ({"rounds": None}, "rounds-needed"),
        ({"format": "round_robin"}, "rounds-not-allowed"),
        ({"scoring": {"place_points": [1]}}, "bad-scoring"),
        ({"scoring": {"place_points": [0, 1]}}, "bad-scoring"),
        ({"clock": {"type": "per-move"}}, "bad-clock"),
        ({"options": {"no_such_option": 1}}, "bad-options"),
        ({"format": "knockout"}, "invalid-request"),
    ):
        body = {"engine": "space-worm", "table_size": 2, "format": "swiss", "rounds": 2, **fields}
        problem(client.post("/v1/tournaments", json=body, headers=auth(organiser)), 422, code)
    t = create(client, organiser, format="round_robin", rounds=None, late_entries=False)
    base = f"/v1/tournaments/{t['id']}"
    problem(client.get("/v1/tournaments/nope"), 404, "tournament-not-found")
    problem(client.post(f"{base}/start", headers=auth(organiser)), 409, "too-few-entries")
    no_play = scoped_token(client, c, "games:read")
    problem(client.post(f"{base}/entries", headers=auth(no_play)), 403, "missing-scope")
    entries = enter_all(client, t["id"], [a, b])
    problem(client.post(f"{base}/entries", headers=auth(a)), 409, "already-entered")
    problem(client.post(f"{base}/start", headers=auth(a)), 403, "not-organiser")
    problem(
        client.post(f"{base}/entries/{entries[0]}/withdraw", headers=auth(b)), 403, "not-your-entry"
    )
    problem(client.post(f"{base}/entries/nope/withdraw", headers=auth(a)), 404, "entry-not-found")
    problem(client.get(f"{base}/record"), 409, "tournament-not-over")
    three = create(client, organiser, table_size=3)
    problem(client.get(f"/v1/tournaments/{three['id']}/trf"), 409, "not-two-player-swiss")
    problem(client.post(f"{base}/pause", headers=auth(organiser)), 409, "not-running")
    problem(
        client.post(f"{base}/extend", json={"seconds": 0}, headers=auth(organiser)),
        422,
        "invalid-request",
    )
    start(client, t["id"], organiser)
    problem(client.post(f"{base}/start", headers=auth(organiser)), 409, "already-started")
    problem(client.post(f"{base}/entries", headers=auth(c)), 409, "entries-closed")
    problem(
        client.post(f"{base}/extend", json={"seconds": 60}, headers=auth(organiser)),
        409,
        "no-round-deadline",
    )
    problem(client.get(f"{base}/rounds/9"), 404, "round-not-found")
    assert client.post(f"{base}/entries/{entries[0]}/withdraw", headers=auth(a)).status_code == 200
    problem(
        client.post(f"{base}/entries/{entries[0]}/withdraw", headers=auth(a)),
        409,
        "already-withdrawn",
    )


def test_an_entry_above_the_reliability_threshold_is_refused(app):
    client = app.test_client()
    organiser, steady, flaky = accounts(client, app, 3)
    flaky_email = client.get("/v1/me", headers=auth(flaky)).json["email"]
    steady_email = client.get("/v1/me", headers=auth(steady)).json["email"]
    game = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "F", "email": flaky_email}, {"name": "S", "email": steady_email}],
        },
    ).json
    until_decision(client, app, game["id"])
    assert client.post(f"/v1/games/{game['id']}/resign", headers=auth(flaky)).status_code == 201
    t = create(client, organiser, reliability_threshold=0.5)
    answer = client.post(f"/v1/tournaments/{t['id']}/entries", headers=auth(flaky))
    problem(answer, 403, "too-unreliable")
    assert answer.json["reliability"] == {
        "timeouts": 0,
        "resignations": 1,
        "games": 1,
        "score": 0.0,
    }
    assert (
        client.post(f"/v1/tournaments/{t['id']}/entries", headers=auth(steady)).status_code == 201
    )


@pytest.mark.parametrize("kind", ["update", "delete"])
def test_the_tournament_log_is_append_only_in_the_database(app, kind):
    client = app.test_client()
    (organiser,) = accounts(client, app, 1)
    t = create(client, organiser)
    with app.app_context():
        statement = (
            sa.update(TournamentEvent).values(kind="forged")
            if kind == "update"
            else sa.delete(TournamentEvent)
        )
        with pytest.raises(sa.exc.DatabaseError):
            db.session.execute(statement.where(TournamentEvent.tournament_id == t["id"]))
        db.session.rollback()


def test_a_round_robin_table_that_loses_its_withdrawn_player_becomes_a_bye(app):
    client = app.test_client()
    organiser, *players = accounts(client, app, 5)
    t = create(client, organiser, format="round_robin", rounds=None)
    entries = enter_all(client, t["id"], players)
    token_of = dict(zip(entries, players))
    started = start(client, t["id"], organiser)
    assert started["rounds"] == 3  # 4 entrants, 2-player tables: every pair once
    play_round(client, app, t["id"], 1, token_of, random.Random(1))
    gone = entries[0]
    client.post(f"/v1/tournaments/{t['id']}/entries/{gone}/withdraw", headers=auth(token_of[gone]))
    assert advance(app, t["id"]) == "advanced"
    second = client.get(f"/v1/tournaments/{t['id']}/rounds/2").json
    assert len(second["tables"]) == 1 and len(second["byes"]) == 1
    seated = {p["entry"] for p in second["tables"][0]["players"]}
    assert gone not in seated and second["byes"][0]["entry"] not in seated | {gone}


def test_numbers_and_booleans_are_json_types_as_the_contract_says(app):
    """Issue 16 ("every input rule in the schema"): a tournament's integers take 6.0 as
    6 (a JSON Schema integer) and refuse "2", true and 2.5; its booleans are true or
    false only; its numbers refuse strings. Each refusal is 422 invalid-request naming
    the field, and creates nothing."""
    client = app.test_client()
    (organiser,) = accounts(client, app, 1)
    made = create(client, organiser, table_size=2.0, rounds=3.0, round_seconds=86400.0)
    assert (made["table_size"], made["rounds"], made["round_seconds"]) == (2, 3, 86400)
    before = client.get("/v1/tournaments?limit=100").json
    for fields in (
        {"table_size": "2"},
        {"table_size": True},
        {"rounds": 2.5},
        {"round_seconds": "60"},
        {"rated": "yes"},
        {"rated": 1},
        {"late_entries": "false"},
        {"reliability_threshold": "0.5"},
        {"reliability_threshold": True},
        {"scoring": {"place_points": ["1", 0]}},
        {"scoring": {"place_points": [1, 0], "bye_points": "1"}},
    ):
        body = {"engine": "space-worm", "table_size": 2, "format": "swiss", "rounds": 2, **fields}
        answer = client.post("/v1/tournaments", json=body, headers=auth(organiser))
        problem(answer, 422, "invalid-request")
        assert list(fields)[0] in json.dumps(answer.json["errors"]), answer.json
    assert client.get("/v1/tournaments?limit=100").json == before
    t = create(client, organiser, round_seconds=3600)
    base = f"/v1/tournaments/{t['id']}"
    for seconds in ("60", True, 1.5):
        problem(
            client.post(f"{base}/extend", json={"seconds": seconds}, headers=auth(organiser)),
            422,
            "invalid-request",
        )


def test_a_retried_creation_with_an_idempotency_key_creates_one_tournament(app):
    """A tournament POST with an Idempotency-Key is done once per key and token: the
    retry gets the first answer (its id) and creates nothing; the key with another
    body, or too short a key, is a 422 and creates nothing either."""
    client = app.test_client()
    organiser, other = accounts(client, app, 2)
    body = {
        "engine": "space-worm",
        "table_size": 2,
        "format": "swiss",
        "rounds": 2,
        "name": f"Retried {uuid.uuid4().hex[:6]}",
    }
    key = {"Idempotency-Key": uuid.uuid4().hex}
    first = client.post("/v1/tournaments", json=body, headers={**auth(organiser), **key})
    again = client.post("/v1/tournaments", json=body, headers={**auth(organiser), **key})
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    problem(
        client.post(
            "/v1/tournaments", json={**body, "rounds": 3}, headers={**auth(organiser), **key}
        ),
        422,
        "idempotency-key-reused",
    )
    problem(
        client.post(
            "/v1/tournaments", json=body, headers={**auth(organiser), "Idempotency-Key": "short"}
        ),
        422,
        "bad-idempotency-key",
    )
    # the same key from another caller is another request
    theirs = client.post("/v1/tournaments", json=body, headers={**auth(other), **key})
    assert theirs.status_code == 201 and theirs.json["id"] != first.json["id"]
    named = [t for t in client.get("/v1/tournaments?limit=100").json if t["name"] == body["name"]]
    assert sorted(t["id"] for t in named) == sorted([first.json["id"], theirs.json["id"]])


def test_a_deleted_accounts_name_is_erased_from_its_tournaments(any_app):
    """Given an entrant of a running tournament who deletes their account, the
    summary, standings (JSON and CSV), rounds, the log as read and the tournament page
    show ``(deleted player)`` where its name was; the log in the database is unchanged."""
    client = any_app.test_client()
    organiser, *players = accounts(client, any_app, 4)
    t = create(client, organiser)
    entries = enter_all(client, t["id"], players)
    start(client, t["id"], organiser)
    name = client.get("/v1/me", headers=auth(players[0])).json["display_name"]
    with any_app.app_context():
        log_before = [
            (e.seq, e.kind, e.payload)
            for e in db.session.scalars(
                sa.select(TournamentEvent)
                .where(TournamentEvent.tournament_id == t["id"])
                .order_by(TournamentEvent.seq)
            )
        ]
    assert name in json.dumps(client.get(f"/v1/tournaments/{t['id']}/events").json)
    assert client.delete("/v1/me", headers=auth(players[0])).status_code == 204
    urls = [
        f"/v1/tournaments/{t['id']}",
        f"/v1/tournaments/{t['id']}/standings",
        f"/v1/tournaments/{t['id']}/standings?format=csv",
        f"/v1/tournaments/{t['id']}/rounds/1",
        f"/v1/tournaments/{t['id']}/events",
        f"/tournaments/{t['id']}",
    ]
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        text = answer.get_data(as_text=True)
        assert name not in text, url
    standings = client.get(f"/v1/tournaments/{t['id']}/standings").json["standings"]
    assert {s["entry"]: s["name"] for s in standings}[entries[0]] == "(deleted player)"
    events = client.get(f"/v1/tournaments/{t['id']}/events").json["events"]
    added = [e["payload"] for e in events if e["kind"] == "entry-added"]
    assert {"entry": entries[0], "name": "(deleted player)"}.items() <= next(
        p for p in added if p["entry"] == entries[0]
    ).items()
    with any_app.app_context():
        log_after = [
            (e.seq, e.kind, e.payload)
            for e in db.session.scalars(
                sa.select(TournamentEvent)
                .where(TournamentEvent.tournament_id == t["id"])
                .order_by(TournamentEvent.seq)
            )
        ]
    assert log_after == log_before


def test_a_round_robin_says_it_takes_no_late_entries(app):
    """Given a round robin created with late_entries true (or left out), its summary,
    list entry and creation log say false, and entering after the start is 409
    ``entries-closed``; a Swiss keeps what it asked."""
    client = app.test_client()
    organiser, *players = accounts(client, app, 4)
    for asked in ({}, {"late_entries": True}):
        t = create(client, organiser, format="round_robin", rounds=None, **asked)
        assert t["late_entries"] is False
        enter_all(client, t["id"], players[:2])
        assert start(client, t["id"], organiser)["late_entries"] is False
        assert client.get(f"/v1/tournaments/{t['id']}").json["late_entries"] is False
        listed = {x["id"]: x for x in client.get("/v1/tournaments").json}
        assert listed[t["id"]]["late_entries"] is False
        created = client.get(f"/v1/tournaments/{t['id']}/events").json["events"][0]
        assert created["kind"] == "tournament-created"
        assert created["payload"]["late_entries"] is False
        late = client.post(f"/v1/tournaments/{t['id']}/entries", headers=auth(players[2]))
        problem(late, 409, "entries-closed")
    assert create(client, organiser)["late_entries"] is True
    assert create(client, organiser, late_entries=False)["late_entries"] is False
