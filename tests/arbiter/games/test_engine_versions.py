"""A game keeps the rules of the engine version it was created with (issue 15: "saved
playthroughs of old rules must keep replaying on the version they were recorded with").

Each test creates a game while the registry holds the version 1 engine (as a server
running the old code would have), puts today's engine back, and plays on: the service
must go on with version 1's rules, and ``arbiter verify`` must replay the record with them.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

import engines
from arbiter import fairness
from arbiter.verify import verify
from tests.arbiter.web.test_web_pages import open_seat, page
from tests.helpers import new_game, play_out, sampled, summary, until_decision

PLAYTHROUGHS = Path(__file__).parents[2] / "playthroughs" / "worms"


def created_under_version_1(monkeypatch, client, engine_id, players, options):
    """Create a game while the registry serves ``engine_id`` version 1; then restore
    today's engine. Return the game id and the seat tokens."""
    return created_under(monkeypatch, client, engine_id, "1", players, options)


def created_under(monkeypatch, client, engine_id, version, players, options):
    """Create a game while the registry serves ``engine_id`` at ``version`` (as a
    server running that code would have); then restore today's engine. Return the
    game id and the seat tokens."""
    module = importlib.import_module(engines.ENGINE_MODULES[engine_id])
    today = module.ENGINE
    old = today.at_version(version)
    assert old is not None and old is not today and old.version == version
    with monkeypatch.context() as patch:
        patch.setattr(module, "ENGINE", old)
        game_id, tokens = new_game(client, engine_id, players, options=options)
    assert engines.get(engine_id) is today and today.version != version
    return game_id, tokens


def test_a_dark_horse_game_of_version_1_keeps_the_black_base_on_the_last_bug_placed(
    monkeypatch, app, client
):
    """Given a Dilly Dally game created under Dark Horse version 1, when it is played on
    after the upgrade, then it stays on version 1 (summary, record), its black base is the
    last Bug placed (version 1's rule), and its record verifies without a note."""
    monkeypatch.setattr(fairness, "new_seed", lambda: "33" * 32)
    game_id, tokens = created_under_version_1(
        monkeypatch, client, "dark-horse", 3, {"dilly_dally": True}
    )
    assert summary(client, game_id)["engine_version"] == "1"
    final = play_out(client, app, game_id, tokens, seed=4)
    assert final["status"] == "over" and final["engine_version"] == "1"
    record = client.get(f"/v1/games/{game_id}/record").json
    assert record["engine_version"] == "1"
    placed = [
        e["payload"]["move"]["place"]
        for e in record["events"]
        if e["kind"] == "move" and "place" in e["payload"]["move"]
    ]
    assert record["result"]["black_base"] == placed[-1]
    placed_front = [
        e["payload"]["move"].get("end")
        for e in record["events"]
        if e["kind"] == "move" and "place" in e["payload"]["move"]
    ][-1]
    assert placed_front == "front"  # so version 2 would have put it on another Bug
    dealt = [e for e in record["events"] if e["kind"] == "chance"][-1]["payload"]["outcome"]
    assert len(dealt) == 34  # dealt from a deck of 34 (version 1's, components-v1.json)
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert verdict.notes == []


@pytest.mark.parametrize(
    "engine_id, players, options",
    [
        ("space-worm", 3, {}),
        ("star-maps", 2, {}),
    ],
)
def test_other_version_1_games_play_on_and_verify(
    monkeypatch, app, client, engine_id, players, options
):
    """Given a Space Worm or Star Maps game created under version 1, when it is played
    on after the upgrade, then it keeps version 1's rules (one shared start roll; no
    bonus unlocked in play) and its record verifies without a note."""
    game_id, tokens = created_under_version_1(monkeypatch, client, engine_id, players, options)
    final = play_out(client, app, game_id, tokens, seed=11)
    assert final["engine_version"] == "1"
    record = client.get(f"/v1/games/{game_id}/record").json
    if engine_id == "space-worm":
        starts = [
            e
            for e in record["events"]
            if e["kind"] == "chance" and len(e["payload"]["outcome"]) == 2
        ]
        assert len(starts) == 1 and "start_roll" not in record["options"]
    else:
        assert "unlocked_in_play" not in record["result"]
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert verdict.notes == []


@pytest.mark.parametrize("version, players", [("1", 2), ("2", 3), ("3", 2)])
def test_a_worms_game_of_an_old_version_plays_on_under_its_rules(
    monkeypatch, app, client, version, players
):
    """Given a Worms game created under version 1 (part 1), 2 (the audit fixes, 95
    cards) or 3 (version 4's rules, its option schema: larger_map a count), when it is
    played on after the upgrade, then it keeps the rules of its version (1 and 2: the
    first-game setup, no Map Tile to place), its page and board draw, it ends, and its
    record verifies without a note."""
    options = {"setup": "first-game", "larger_map": 0} if version == "3" else {}
    game_id, tokens = created_under(monkeypatch, client, "worms", version, players, options)
    s = until_decision(client, app, game_id)
    assert s["engine_version"] == version
    moves = client.get(
        f"/v1/games/{game_id}/legal-moves",
        headers={"Authorization": f"Bearer {tokens[s['to_act'][0]]}"},
    ).json
    assert moves["moves"] and all(m["move"] == "activate" for m in moves["moves"])
    assert open_seat(client, app, game_id, s["to_act"][0]).status_code == 303
    html = page(client, game_id)
    assert "<svg" in html
    assert ("tile A at" in html) == (version == "3")  # its own notation help
    assert client.get(f"/v1/games/{game_id}/board.svg").status_code == 200
    final = play_out(client, app, game_id, tokens, seed=int(version))
    assert final["status"] == "over" and final["engine_version"] == version
    record = client.get(f"/v1/games/{game_id}/record").json
    assert not any(
        e["payload"]["move"]["move"] in ("tile", "place")
        for e in record["events"]
        if e["kind"] == "move"
    )
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert verdict.notes == []


@pytest.mark.parametrize(
    "name, version",
    sampled(
        [
            ("worms-2p-0.json", "1"),
            ("worms-3p-1.json", "1"),
            ("worms-4p-2.json", "1"),
            ("worms-v2-2p-0.json", "2"),
            ("worms-v2-3p-1.json", "2"),
            ("worms-v2-4p-2.json", "2"),
        ],
        kind=lambda row: row[1],
    ),
)
def test_a_worms_record_made_by_the_old_code_replays_on_its_frozen_version(name, version):
    """Given a record saved by the Worms code of version 1 or 2 (committed when that
    code was current: tests/playthroughs/worms at ffd77cf and a4e6e83), then it replays
    and verifies on the frozen engine of its version, without a note; read as today's
    version it does not (so the frozen rules are what keeps it)."""
    record = json.loads((PLAYTHROUGHS / name).read_text())
    assert record["engine_version"] == version
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert verdict.notes == [] and verdict.moves > 0 and verdict.rolls > 0
    today = engines.get("worms").version
    assert not verify({**record, "engine_version": today}).ok
