"""``POST /v1/tournaments/{id}/extend`` takes an Idempotency-Key like the other
writes (issue 22, item 15)."""

from __future__ import annotations

from tests.arbiter.tournaments.test_tournaments import accounts, create, enter_all, log_kinds, start
from tests.helpers import auth


def test_extend_with_an_idempotency_key_moves_the_deadline_once(any_app):
    """Issue 22, item 15: ``extend`` ignored ``Idempotency-Key``, so a client's retry
    (its first answer lost) moved the round's deadline twice. Now the retry gets the
    first answer and nothing moves again; the key with another body is refused."""
    client = any_app.test_client()
    organiser, *players = accounts(client, any_app, 3)
    t = create(
        client,
        organiser,
        rounds=2,
        round_seconds=3600,
        clock={"type": "per-move", "seconds": 86400},
    )
    enter_all(client, t["id"], players)
    start(client, t["id"], organiser)
    base = f"/v1/tournaments/{t['id']}"
    before = client.get(f"{base}/rounds/1").json["deadline"]
    headers = {**auth(organiser), "Idempotency-Key": "extend-round-1-by-600"}
    first = client.post(f"{base}/extend", json={"seconds": 600}, headers=headers)
    assert first.status_code == 200, first.json
    moved = client.get(f"{base}/rounds/1").json["deadline"]
    assert moved > before
    again = client.post(f"{base}/extend", json={"seconds": 600}, headers=headers)
    assert again.status_code == 200 and again.json == first.json
    assert client.get(f"{base}/rounds/1").json["deadline"] == moved
    assert log_kinds(any_app, t["id"]).count("round-extended") == 1
    other = client.post(f"{base}/extend", json={"seconds": 60}, headers=headers)
    assert other.status_code == 422 and other.json["code"] == "idempotency-key-reused"
    plain = client.post(f"{base}/extend", json={"seconds": 60}, headers=auth(organiser))
    assert plain.status_code == 200
    assert log_kinds(any_app, t["id"]).count("round-extended") == 2
