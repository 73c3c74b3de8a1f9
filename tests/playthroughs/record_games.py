"""Record playthroughs: play games of every registered engine through the API (on a
throw-away SQLite database) and save their records under ``tests/playthroughs/<engine>/``.

Run it when an engine is added or its version changes: ``python -m
tests.playthroughs.record_games [engine ...]``. New records are named
``<engine>-v<version>-<players>p-<n>.json``; older records stay as they are (those named
without a version were recorded with version 1) and keep replaying on the version they
were recorded with. The saved records are replayed by ``test_playthroughs.py``; when a
rule change makes an old record fail, the build fails instead of the games in play. Their
step digests (``digests.json``, :mod:`tests.playthroughs.steps`) are written again after
recording.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import engines
from tests.conftest import make_app
from tests.helpers import new_game, play_out
from tests.playthroughs.steps import write_digests

HERE = Path(__file__).parent

OPTIONS: dict[str, list[dict]] = {
    "dark-horse": [{}, {"dilly_dally": True}, {"dilly_dally": True}],
    "space-worm": [{}, {"start_roll": "shared", "hungriest_seat": 1}, {"hungriest_seat": 2}],
    "star-maps": [{}, {"sheet": "arms"}, {"unlocked_bonuses": ["bridge"]}],
    "worms": [
        {},
        {"larger_map": True, "extra_tiles": 1, "parting_gifts": True, "sudden_death_draft": True},
        {"setup": "first-game", "reduced_blast": True, "timer": True, "timer_seconds": 600},
    ],
}
"""Options of the recorded games of an engine, game by game (default: none)."""


def record_engine(engine_id: str, games: int = 3) -> list[Path]:
    """Play ``games`` games of ``engine_id`` and save their records; return the paths."""
    engine = engines.get(engine_id)
    counts = list(range(engine.min_players, engine.max_players + 1))
    paths = []
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(f"sqlite:///{tmp}/record.sqlite3")
        client = app.test_client()
        for i in range(games):
            players = counts[i * 7 % len(counts)]
            options = OPTIONS.get(engine_id, [{}] * games)[i]
            game_id, tokens = new_game(client, engine_id, players, options=options)
            play_out(client, app, game_id, tokens, seed=1000 + i)
            record = client.get(f"/v1/games/{game_id}/record").json
            path = HERE / engine_id / f"{engine_id}-v{engine.version}-{players}p-{i}.json"
            path.parent.mkdir(exist_ok=True)
            path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
            paths.append(path)
    return paths


if __name__ == "__main__":
    for engine_id in sys.argv[1:] or list(engines.ENGINE_MODULES):
        for saved in record_engine(engine_id):
            print(saved)
    write_digests()
