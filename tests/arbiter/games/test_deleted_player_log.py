"""A deleted account's name leaves the game log as it is read (issue 22, item 15):
the log stays append-only, its readers see ``(deleted player)``."""

from __future__ import annotations

import json

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Event
from tests.helpers import auth, new_game, play_out, sign_in


def test_seat_joined_reads_deleted_player_once_the_account_is_deleted(any_app):
    """Issue 22, item 15: the log's ``seat-joined`` kept showing a deleted player's
    name (in ``/events``, the stream's backlog, the record and the game page) while
    the seat itself reads ``(deleted player)``. Now every read says
    ``(deleted player)``; the stored event is unchanged."""
    client = any_app.test_client()
    game_id, tokens = new_game(client, players=2, emails=True)
    token = sign_in(client, any_app, "p0@example.org")
    assert client.delete("/v1/me", headers=auth(token)).status_code == 204

    def joined(events: list[dict]) -> dict[int, str]:
        return {e["seat"]: e["payload"]["name"] for e in events if e["kind"] == "seat-joined"}

    events = client.get(f"/v1/games/{game_id}/events").json["events"]
    assert joined(events) == {0: "(deleted player)", 1: "P1"}
    stream = client.get(f"/v1/games/{game_id}/stream?after=0").get_data(as_text=True)
    streamed = [json.loads(line[6:]) for line in stream.splitlines() if line.startswith("data: ")]
    assert joined(streamed) == {0: "(deleted player)", 1: "P1"}
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "set for P0" not in page and "A seat was set for (deleted player)." in page
    play_out(client, any_app, game_id, tokens)
    record = client.get(f"/v1/games/{game_id}/record").json
    assert joined(record["events"]) == {0: "(deleted player)", 1: "P1"}
    with any_app.app_context():
        stored = db.session.scalars(
            sa.select(Event.payload).where(Event.game_id == game_id, Event.kind == "seat-joined")
        ).all()
    assert sorted(p["name"] for p in stored) == ["P0", "P1"]
