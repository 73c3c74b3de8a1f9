"""The steps of a saved playthrough and their digest: what "replays identically" means.

Replaying a record on the engine of its version gives, after setup and after each logged
input, a state, a prompt and every seat's legal moves; :func:`digest` hashes them all.
``digests.json`` holds the digest of every saved record, so that ``test_playthroughs.py``
can tell a replay that still verifies but no longer goes the same way (an older
version's rules changed, or today's changed what its saved games did).

Run ``python -m tests.playthroughs.steps`` to write the digests again after recording
playthroughs (``record_games.py`` does it) or after a deliberate change of today's rules.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import engines
from engines.base import Input, apply

HERE = Path(__file__).parent
DIGESTS = HERE / "digests.json"


def records() -> list[Path]:
    """Return the saved records, in name order."""
    return sorted(HERE.glob("*/*.json"))


def steps(record: dict) -> Iterator[list]:
    """Yield ``[state, prompt, legal moves of every seat]`` after setup and after each
    logged move or chance outcome, replayed on the engine of the record's version."""
    engine = engines.at_version(record["engine"], record["engine_version"])
    players = len(record["players"])
    state = engine.setup(players, engine.load_options(players, record["options"]))
    events = [e for e in record["events"] if e["kind"] in ("move", "chance")]
    for event in [None, *events]:
        if event is not None:
            value = event["payload"]["move" if event["kind"] == "move" else "outcome"]
            state = apply(engine, state, Input(event["kind"], event["seat"], value))
        prompt = engine.prompt(state).to_json()
        yield [state, prompt, [engine.legal_moves(state, s) for s in range(players)]]


def digest(record: dict) -> str:
    """Return the SHA-256 of a record's :func:`steps` (JSON, keys sorted)."""
    h = hashlib.sha256()
    for step in steps(record):
        h.update(json.dumps(step, sort_keys=True).encode())
    return h.hexdigest()


def key(path: Path) -> str:
    """Return a record's name in ``digests.json``: ``<engine>/<file>``."""
    return f"{path.parent.name}/{path.name}"


def write_digests() -> None:
    """Write the digest of every saved record to ``digests.json``."""
    table = {key(p): digest(json.loads(p.read_text())) for p in records()}
    DIGESTS.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    write_digests()
    print(DIGESTS)
