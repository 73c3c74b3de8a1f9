"""Saved playthroughs of every engine replay and verify, each on the engine version it
was recorded with (``Engine.at_version``), and go step by step as they did when their
digests were written (``steps.py``, ``digests.json``).

A failure here means a rule change would break games already recorded: bump the
engine's ``version`` and keep playing the old rules for old logs (``engines/base.py``,
"Rules versions"), or fix the change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines
from arbiter.verify import verify
from tests.playthroughs import steps

HERE = Path(__file__).parent
RECORDS = steps.records()
DIGESTS = json.loads(steps.DIGESTS.read_text())


def test_every_registered_engine_has_saved_playthroughs():
    recorded = {p.parent.name for p in RECORDS}
    missing = set(engines.ENGINE_MODULES) - recorded
    assert not missing, (
        f"record playthroughs: python -m tests.playthroughs.record_games {' '.join(missing)}"
    )


def test_every_engine_has_playthroughs_of_its_current_version():
    """Each engine's saved games include some recorded with today's rules (older ones
    keep replaying on the version they were recorded with)."""
    versions = {
        (r["engine"], r["engine_version"]) for r in (json.loads(p.read_text()) for p in RECORDS)
    }
    stale = [e.id for e in engines.all_engines() if (e.id, e.version) not in versions]
    assert not stale, (
        f"record playthroughs: python -m tests.playthroughs.record_games {' '.join(stale)}"
    )


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_saved_playthrough_replays_and_verifies(path):
    record = json.loads(path.read_text())
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    assert not verdict.notes, "this arbiter no longer plays the version this game was recorded with"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_saved_playthrough_replays_step_by_step_as_it_did(path):
    """Given a saved record, when it is replayed on the engine of its version, then every
    step (the state, the prompt, every seat's legal moves) is what it was when its digest
    was written: an older version's rules never change, and a change of today's rules
    that changes what its saved games did is deliberate (a new version, or the digests
    written again)."""
    record = json.loads(path.read_text())
    expected = DIGESTS.get(steps.key(path))
    assert expected, "no digest for this record: python -m tests.playthroughs.steps"
    if record["engine_version"] != engines.get(record["engine"]).version:
        why = (
            f"{record['engine']} version {record['engine_version']} replays this game "
            "differently, and an older version's rules never change"
        )
    else:
        why = (
            "today's rules replay this game differently: if that is meant, give the rules "
            "a new version (engines/base.py, 'Rules versions') or write the digests again "
            "(python -m tests.playthroughs.steps)"
        )
    assert steps.digest(record) == expected, why
