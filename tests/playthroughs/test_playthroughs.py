"""Saved playthroughs of every engine replay and verify under today's rules.

A failure here means a rule change would break games already recorded: bump the
engine's ``version`` and handle old logs, or fix the change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines
from arbiter.verify import verify

HERE = Path(__file__).parent
RECORDS = sorted(HERE.glob("*/*.json"))


def test_every_registered_engine_has_saved_playthroughs():
    recorded = {p.parent.name for p in RECORDS}
    missing = set(engines.ENGINE_MODULES) - recorded
    assert not missing, f"record playthroughs: python -m tests.playthroughs.record_games {' '.join(missing)}"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_saved_playthrough_replays_and_verifies(path):
    record = json.loads(path.read_text())
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert not verdict.notes, "the engine version changed since this game was recorded"
