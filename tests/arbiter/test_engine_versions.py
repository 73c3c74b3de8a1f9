"""A game keeps the rules of the engine version it was created with (issue 15: "saved
playthroughs of old rules must keep replaying on the version they were recorded with").

Each test creates a game while the registry holds the version 1 engine (as a server
running the old code would have), puts today's engine back, and plays on: the service
must go on with version 1's rules, and ``arbiter verify`` must replay the record with them.
"""

from __future__ import annotations

import importlib

import pytest

import engines
from arbiter import fairness
from arbiter.verify import verify
from tests.helpers import new_game, play_out, summary


def created_under_version_1(monkeypatch, client, engine_id, players, options):
    """Create a game while the registry serves ``engine_id`` version 1; then restore
    today's engine. Return the game id and the seat tokens."""
    module = importlib.import_module(engines.ENGINE_MODULES[engine_id])
    today = module.ENGINE
    with monkeypatch.context() as patch:
        patch.setattr(module, "ENGINE", today.at_version("1"))
        game_id, tokens = new_game(client, engine_id, players, options=options)
    assert engines.get(engine_id) is today and today.version == "2"
    return game_id, tokens


def test_a_dark_horse_game_of_version_1_keeps_the_black_base_on_the_last_bug_placed(
        monkeypatch, app, client):
    """Given a Dilly Dally game created under Dark Horse version 1, when it is played on
    after the upgrade, then it stays on version 1 (summary, record), its black base is the
    last Bug placed (version 1's rule), and its record verifies without a note."""
    monkeypatch.setattr(fairness, "new_seed", lambda: "33" * 32)
    game_id, tokens = created_under_version_1(monkeypatch, client, "dark-horse", 3,
                                              {"dilly_dally": True})
    assert summary(client, game_id)["engine_version"] == "1"
    final = play_out(client, app, game_id, tokens, seed=4)
    assert final["status"] == "over" and final["engine_version"] == "1"
    record = client.get(f"/v1/games/{game_id}/record").json
    assert record["engine_version"] == "1"
    placed = [e["payload"]["move"]["place"] for e in record["events"]
              if e["kind"] == "move" and "place" in e["payload"]["move"]]
    assert record["result"]["black_base"] == placed[-1]
    placed_front = [e["payload"]["move"].get("end") for e in record["events"]
                    if e["kind"] == "move" and "place" in e["payload"]["move"]][-1]
    assert placed_front == "front"  # so version 2 would have put it on another Bug
    dealt = [e for e in record["events"] if e["kind"] == "chance"][-1]["payload"]["outcome"]
    assert len(dealt) == 34  # dealt from a deck of 34 (version 1's, components-v1.json)
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert verdict.notes == []


@pytest.mark.parametrize("engine_id, players, options", [
    ("space-worm", 3, {}),
    ("star-maps", 2, {}),
])
def test_other_version_1_games_play_on_and_verify(monkeypatch, app, client, engine_id,
                                                  players, options):
    """Given a Space Worm or Star Maps game created under version 1, when it is played
    on after the upgrade, then it keeps version 1's rules (one shared start roll; no
    bonus unlocked in play) and its record verifies without a note."""
    game_id, tokens = created_under_version_1(monkeypatch, client, engine_id, players,
                                              options)
    final = play_out(client, app, game_id, tokens, seed=11)
    assert final["engine_version"] == "1"
    record = client.get(f"/v1/games/{game_id}/record").json
    if engine_id == "space-worm":
        starts = [e for e in record["events"] if e["kind"] == "chance"
                  and len(e["payload"]["outcome"]) == 2]
        assert len(starts) == 1 and "start_roll" not in record["options"]
    else:
        assert "unlocked_in_play" not in record["result"]
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert verdict.notes == []
