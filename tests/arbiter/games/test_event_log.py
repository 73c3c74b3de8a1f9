"""The game log (DESIGN.md, "The game log"): append-only in the database, gapless seq,
optimistic concurrency where exactly one of two racing submitters wins, idempotent
retries, and snapshots that keep loading flat."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DatabaseError

import engines
from arbiter.extensions import db
from arbiter.games import games
from arbiter.models import Event, Game
from tests.helpers import auth, event_count, new_game, play_out, summary, until_decision


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET kind = 'forged' WHERE seq = 1",
        "DELETE FROM events WHERE seq = 1",
    ],
)
def test_the_database_refuses_updates_and_deletes_of_events(any_app, statement):
    """Given a logged game, UPDATE and DELETE on events fail in the database itself."""
    client = any_app.test_client()
    game_id, _ = new_game(client)
    with any_app.app_context():
        with pytest.raises(DatabaseError, match="append-only"):
            db.session.execute(
                sa.text(statement.replace("WHERE", f"WHERE game_id = '{game_id}' AND"))
            )
            db.session.commit()
        db.session.rollback()
        assert db.session.get(Event, (game_id, 1)).kind == "game-created"


def test_seq_is_gapless_from_one(any_app):
    """Given a finished game, its seqs are 1..version without gaps."""
    client = any_app.test_client()
    game_id, tokens = new_game(client, players=2)
    final = play_out(client, any_app, game_id, tokens, seed=11)
    with any_app.app_context():
        seqs = list(
            db.session.scalars(
                sa.select(Event.seq).where(Event.game_id == game_id).order_by(Event.seq)
            )
        )
    assert seqs == list(range(1, final["version"] + 1))


def test_two_racing_submitters_exactly_one_wins(any_app):
    """Given two clients posting the same seat's move against the same version at
    once, exactly one is recorded and the other gets 409 stale-version."""
    client = any_app.test_client()
    for _attempt in range(5):
        game_id, tokens = new_game(client, players=1)
        s = until_decision(client, any_app, game_id)
        legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
        moves = legal["moves"][:2] if len(legal["moves"]) > 1 else legal["moves"] * 2
        barrier = threading.Barrier(2)
        answers = []

        def submit(move):
            c = any_app.test_client()
            barrier.wait()
            answers.append(
                c.post(
                    f"/v1/games/{game_id}/moves",
                    headers=auth(tokens[0]),
                    json={"move": move, "expected_version": s["version"]},
                )
            )

        threads = [threading.Thread(target=submit, args=(m,)) for m in moves]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(a.status_code for a in answers)
        assert codes == [201, 409], [a.json for a in answers]
        loser = next(a for a in answers if a.status_code == 409)
        assert loser.json["code"] in ("stale-version", "die-taken")
        assert event_count(any_app, game_id) == s["version"] + 1


def test_an_idempotency_key_returns_the_first_answer_and_writes_nothing(any_app):
    """Given a retried POST with the same Idempotency-Key, the answer repeats and the
    log does not grow; the same key with another body is refused."""
    client = any_app.test_client()
    game_id, tokens = new_game(client, players=1)
    s = until_decision(client, any_app, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    headers = {**auth(tokens[0]), "Idempotency-Key": "retry-key-00000001"}
    body = {"move": legal["moves"][0], "expected_version": s["version"]}
    first = client.post(f"/v1/games/{game_id}/moves", headers=headers, json=body)
    count = event_count(any_app, game_id)
    second = client.post(f"/v1/games/{game_id}/moves", headers=headers, json=body)
    assert first.status_code == second.status_code == 201
    assert first.json == second.json
    assert event_count(any_app, game_id) == count
    other = client.post(
        f"/v1/games/{game_id}/moves",
        headers=headers,
        json={"move": legal["moves"][-1], "expected_version": s["version"]},
    )
    assert other.status_code == 422 and other.json["code"] == "idempotency-key-reused"


def test_a_refused_request_keeps_no_key_so_it_can_be_fixed_and_sent_again(any_app):
    """Given a move refused (422, nothing written) under an Idempotency-Key, the key is
    not kept: the same key with a corrected, legal move is recorded (201), and from then
    on the key is the legal move's (retry: same answer; another body: 422 reused)."""
    client = any_app.test_client()
    game_id, tokens = new_game(client, players=1)
    s = until_decision(client, any_app, game_id)
    headers = {**auth(tokens[0]), "Idempotency-Key": "fix-and-retry-0001"}
    refused = client.post(
        f"/v1/games/{game_id}/moves",
        headers=headers,
        json={"move": {"die": 99, "direction": "up"}, "expected_version": s["version"]},
    )
    assert refused.status_code == 422, refused.json
    assert refused.json["code"] != "idempotency-key-reused"
    assert event_count(any_app, game_id) == s["version"]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    body = {"move": legal["moves"][0], "expected_version": s["version"]}
    fixed = client.post(f"/v1/games/{game_id}/moves", headers=headers, json=body)
    assert fixed.status_code == 201, fixed.json
    assert client.post(f"/v1/games/{game_id}/moves", headers=headers, json=body).json == fixed.json
    other = client.post(
        f"/v1/games/{game_id}/moves",
        headers=headers,
        json={"move": {"die": 99, "direction": "up"}, "expected_version": s["version"]},
    )
    assert other.status_code == 422 and other.json["code"] == "idempotency-key-reused"


def test_an_idempotency_key_used_on_another_route_is_refused(any_app):
    """A seat's key of a move, sent again to /resign (or /vacation), is refused and
    nothing is done: a key names one request, whatever its route."""
    client = any_app.test_client()
    game_id, tokens = new_game(client, players=2)
    s = until_decision(client, any_app, game_id)
    seat = s["to_act"][0]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    headers = {**auth(tokens[seat]), "Idempotency-Key": "route-key-00000001"}
    moved = client.post(
        f"/v1/games/{game_id}/moves",
        headers=headers,
        json={"move": legal["moves"][0], "expected_version": s["version"]},
    )
    assert moved.status_code == 201, moved.json
    count = event_count(any_app, game_id)
    for route, body in (("resign", None), ("vacation", {"days": 1})):
        again = client.post(f"/v1/games/{game_id}/{route}", headers=headers, json=body)
        assert again.status_code == 422, (route, again.json)
        assert again.json["code"] == "idempotency-key-reused"
    assert event_count(any_app, game_id) == count
    assert client.get(f"/v1/games/{game_id}").json["status"] == "active"


def test_creating_with_an_idempotency_key_creates_one_game(app, client):
    """Given a retried creation, one game exists and the same tokens come back."""
    body = {"engine": "space-worm", "players": [{"name": "Ann"}]}
    first = client.post("/v1/games", json=body, headers={"Idempotency-Key": "create-key-0000001"})
    second = client.post("/v1/games", json=body, headers={"Idempotency-Key": "create-key-0000001"})
    assert first.status_code == second.status_code == 201
    assert first.json["id"] == second.json["id"]
    assert first.json["seats"] == second.json["seats"]
    assert len(client.get("/v1/games").json) == 1


def test_loading_uses_the_snapshot_and_refolds_after_an_engine_change(app, client):
    """Given a game, loading reads the snapshot (no fold); when the engine version
    recorded with the snapshot differs, the log is folded again to the same state."""
    game_id, tokens = new_game(client, players=2)
    play_out(client, app, game_id, tokens, seed=2)
    with app.app_context():
        game, engine, state = games.load(game_id)
        assert state is game.state
        db.session.execute(sa.update(Game).where(Game.id == game_id).values(engine_version="0-old"))
        db.session.commit()
        db.session.expire_all()
        _, _, refolded = games.load(game_id)
        assert refolded == state
        renewed = games.get_game(game_id)
        assert renewed.engine_version == engines.get("space-worm").version  # stored once
    assert summary(client, game_id)["status"] == "over"
