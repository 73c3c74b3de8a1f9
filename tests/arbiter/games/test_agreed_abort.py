"""Agreed abort (issue 24, item 3) and the record of games with agreements: an
aborted game ends unscored and unrated, a tournament's game cannot be aborted by its
players, and ``arbiter verify`` checks records with undone moves and aborts (and
catches an undo marker that takes back anything but the asker's last move)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

from arbiter.verify import verify
from tests.arbiter.accounts.test_ratings import accounts, rated_game
from tests.arbiter.games.test_agreed_undo import answer, ask, play
from tests.arbiter.tournaments.test_tournaments import create, enter_all, start
from tests.helpers import auth, event_count, new_game, play_out, until_decision


def test_an_abort_everyone_agrees_to_ends_the_game_unrated(any_app):
    """Given a rated 3-player game, when one proposes to abort and both others accept,
    the game is over with reason ``aborted``, no scores, and no rating changes; the
    record verifies."""
    client = any_app.test_client()
    people = accounts(client, any_app, 3)
    game = rated_game(client, people, "space-worm")
    game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
    until_decision(client, any_app, game_id)
    proposed = ask(client, game_id, tokens[0], "abort")
    assert proposed.status_code == 201 and proposed.json["waiting_for"] == [1, 2]
    first = answer(client, game_id, tokens[1], proposed.json["request"], "accept", "abort")
    assert first.json["status"] == "pending" and first.json["waiting_for"] == [2]
    assert client.get(f"/v1/games/{game_id}").json["status"] == "active"
    last = answer(client, game_id, tokens[2], proposed.json["request"], "accept", "abort")
    assert last.status_code == 201 and last.json["status"] == "agreed"
    assert last.json["game_status"] == "over"
    summary = client.get(f"/v1/games/{game_id}").json
    assert summary["status"] == "over" and summary["result"]["reason"] == "aborted"
    assert summary["result"]["scores"] == [None, None, None]
    for _, _, token in people:
        assert client.get("/v1/me", headers=auth(token)).json["ratings"] == []
    record = client.get(f"/v1/games/{game_id}/record").json
    assert verify(record).ok, verify(record).mismatch


def test_an_abort_refused_or_proposed_twice_goes_on(app, client):
    game_id, tokens = new_game(client, players=2)
    until_decision(client, app, game_id)
    number = ask(client, game_id, tokens[0], "abort").json["request"]
    twice = ask(client, game_id, tokens[1], "abort")
    assert (twice.status_code, twice.json["code"]) == (409, "abort-pending")
    refused = answer(client, game_id, tokens[1], number, "refuse", "abort")
    assert refused.json["status"] == "refused"
    read = client.get(f"/v1/games/{game_id}/abort-requests/{number}")
    assert read.status_code == 200 and read.json["status"] == "refused"
    assert read.json["why"] == "P1 refused this request."
    assert client.get(f"/v1/games/{game_id}").json["status"] == "active"


def test_a_tournament_game_cannot_be_aborted_by_its_players(app, client):
    organiser, *players = [p[2] for p in accounts(client, app, 3)]
    t = create(client, organiser, rounds=1)
    enter_all(client, t["id"], players)
    start(client, t["id"], organiser)
    rnd = client.get(f"/v1/tournaments/{t['id']}/rounds/1").json
    game_id = rnd["tables"][0]["game"]
    count = event_count(app, game_id)
    refused = client.post(f"/v1/games/{game_id}/abort-requests", headers=auth(players[0]))
    assert refused.status_code == 409 and refused.json["code"] == "abort-not-allowed"
    assert "tournament" in refused.json["detail"]
    assert event_count(app, game_id) == count


def undone_record(app, client) -> dict:
    """The record of a finished game in which a move was taken back by agreement."""
    game_id, tokens = new_game(client, players=2)
    ann = until_decision(client, app, game_id)["to_act"][0]
    play(client, game_id, tokens[ann])
    number = ask(client, game_id, tokens[ann]).json["request"]
    assert answer(client, game_id, tokens[1 - ann], number, "accept").json["status"] == "agreed"
    play_out(client, app, game_id, tokens, seed=5)
    return client.get(f"/v1/games/{game_id}/record").json


def test_arbiter_verify_checks_a_record_with_an_undone_move(app, client, tmp_path):
    record = undone_record(app, client)
    assert any(e["kind"] == "moves-undone" for e in record["events"])
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "verify", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_verify_catches_an_undo_of_anything_but_the_last_own_move(app, client):
    """A forged marker naming an earlier move (or a roll) is a mismatch, and so is a
    record that drops the marker (the replay then differs)."""
    record = undone_record(app, client)
    forged = copy.deepcopy(record)
    marker = next(e for e in forged["events"] if e["kind"] == "moves-undone")
    roll = next(e for e in forged["events"] if e["kind"] == "chance")
    marker["payload"]["seqs"] = [roll["seq"]]
    verdict = verify(forged)
    assert not verdict.ok and f"seq {marker['seq']}" in verdict.mismatch
    dropped = copy.deepcopy(record)
    marker = next(e for e in dropped["events"] if e["kind"] == "moves-undone")
    marker["kind"] = "note"
    assert not verify(dropped).ok
