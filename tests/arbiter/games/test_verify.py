"""``arbiter verify RECORD.json``: re-derives every roll and replays the game; exit 0
when it all matches, non-zero with the first mismatch otherwise."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from arbiter.extensions import db
from arbiter.verify import verify
from tests.conftest import make_app
from tests.helpers import new_game, play_out


@pytest.fixture(scope="module")
def played_record(tmp_path_factory):
    """The record of a finished 2-player Space Worm game, played once for the module
    (playing it is most of each test's time)."""
    folder = tmp_path_factory.mktemp("verify")
    app = make_app(f"sqlite:///{folder / 'arbiter.sqlite3'}")
    client = app.test_client()
    game_id, tokens = new_game(client, players=2)
    play_out(client, app, game_id, tokens, seed=4)
    answer = client.get(f"/v1/games/{game_id}/record").json
    with app.app_context():
        db.engine.dispose()
    return answer


@pytest.fixture
def record(played_record):
    """A copy of the module's record, this test's own to forge."""
    return copy.deepcopy(played_record)


def first_chance(record):
    return next(e for e in record["events"] if e["kind"] == "chance")


def test_a_true_record_verifies(record):
    verdict = verify(record)
    assert verdict.ok and verdict.rolls >= 2 and verdict.moves >= 8


def test_a_rerolled_outcome_is_caught(record):
    forged = copy.deepcopy(record)
    event = [e for e in forged["events"] if e["kind"] == "chance"][1]
    event["payload"]["outcome"] = [7 - v for v in event["payload"]["outcome"]]
    verdict = verify(forged)
    assert not verdict.ok and f"seq {event['seq']}" in verdict.mismatch


def test_a_seed_that_does_not_match_its_commitment_is_caught(record):
    forged = {**record, "seed": "ab" * 32}
    assert "commitment" in verify(forged).mismatch


def test_a_changed_move_or_result_or_gap_is_caught(record):
    moved = copy.deepcopy(record)
    moved["result"]["scores"][0] += 5
    assert not verify(moved).ok
    gap = copy.deepcopy(record)
    del gap["events"][4]
    assert "missing" in verify(gap).mismatch


def test_the_command_exits_0_on_a_true_record_and_1_on_a_forged_one(record, tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    forged = copy.deepcopy(record)
    roll = first_chance(forged)["payload"]
    roll["outcome"] = [v % 6 + 1 for v in roll["outcome"]]  # every die changed
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(forged))
    ok = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "verify", str(good)], capture_output=True, text=True
    )
    assert ok.returncode == 0 and ok.stdout.startswith("OK")
    fail = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "verify", str(bad)], capture_output=True, text=True
    )
    assert fail.returncode == 1 and "MISMATCH" in fail.stderr


def test_a_move_whose_text_was_changed_is_caught(record):
    forged = copy.deepcopy(record)
    move = next(e for e in forged["events"] if e["kind"] == "move")
    move["payload"]["text"] = (
        "die 7 heart" if move["payload"]["text"] != "die 7 heart" else "die 6 up"
    )
    assert "text" in verify(forged).mismatch


def test_the_command_refuses_a_record_that_is_not_an_object(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "verify", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 2 and "not a game record" in done.stderr


def test_a_record_without_its_seed_revealed_event_fails(record):
    """Given a record whose log lacks the ``seed-revealed`` event, verify fails: the
    seed the record gives was never revealed by the game's own log (issue 15, 5)."""
    forged = copy.deepcopy(record)
    forged["events"] = [e for e in forged["events"] if e["kind"] != "seed-revealed"]
    verdict = verify(forged)
    assert not verdict.ok
    assert verdict.mismatch == (
        "the record has no seed-revealed event: its log never reveals the seed it gives"
    )


def test_a_seed_revealed_event_naming_another_seed_fails(record):
    """Given a record whose ``seed-revealed`` event names another seed than the record's
    ``seed`` (the record's seed and commitment still agree), verify fails and says so."""
    forged = copy.deepcopy(record)
    event = next(e for e in forged["events"] if e["kind"] == "seed-revealed")
    event["payload"]["seed"] = "cd" * 32
    verdict = verify(forged)
    assert not verdict.ok
    assert verdict.mismatch.startswith(
        f"seq {event['seq']}: the seed-revealed event names "
        f'seed "{"cd" * 32}", not the record\'s seed'
    )


@pytest.mark.parametrize("name", ["chess", ["space-worm"], None])
def test_an_unknown_engine_is_named_as_such(record, name):
    """Given a record for an engine this arbiter does not have, verify says which
    engine, instead of a missing field or a crash."""
    verdict = verify({**record, "engine": name})
    assert not verdict.ok
    assert verdict.mismatch.startswith(
        f"this record is for engine {json.dumps(name)}, which this arbiter does not have"
    )


@pytest.mark.slow  # a process of its own (~2 s); verify() names it in make check
def test_the_command_names_an_unknown_engine(record, tmp_path):
    """``arbiter verify`` exits 1 and prints the unknown engine's name."""
    path = tmp_path / "chess.json"
    path.write_text(json.dumps({**record, "engine": "chess"}))
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "verify", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert 'this record is for engine "chess", which this arbiter does not have' in done.stderr


def test_a_version_no_longer_played_is_checked_under_todays_rules_with_a_note(record):
    """Given a record of an engine version this arbiter no longer plays, verify replays
    it under today's rules and says so in a note."""
    verdict = verify({**record, "engine_version": "0-retired"})
    assert verdict.ok
    assert verdict.notes == [
        'recorded with space-worm version "0-retired", which this '
        f"arbiter no longer plays; checked with version "
        f"{record['engine_version']}"
    ]


def test_verify_refuses_a_record_whose_roll_text_was_edited(record):
    """Issue 22, item 14: ``arbiter verify`` checked only a roll's outcome, so a record
    whose roll *text* (what players read) was edited still verified."""
    assert verify(record).ok
    forged = copy.deepcopy(record)
    event = next(e for e in forged["events"] if e["kind"] == "chance")
    assert event["payload"]["text"]
    event["payload"]["text"] = "dice: 6, 6, 6, 6, 6, 6, 6, 6"
    verdict = verify(forged)
    assert not verdict.ok
    assert f"seq {event['seq']}: the roll's text" in verdict.mismatch
