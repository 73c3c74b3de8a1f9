"""Real games for the fuzzer to reach: created and moved over HTTP on a live service,
their ids and tokens written to a JSON file that ``tests/contract/hooks.py`` reads."""

from __future__ import annotations

import json
import time
from pathlib import Path

import requests

from arbiter.play import play

CLOCK = {"type": "per-move", "seconds": 86400, "vacation_days": 30}


def _create(url: str, players: int, clock: dict | None = None,
            engine: str = "space-worm") -> dict:
    """Create a game; return its id, seat tokens and creator token."""
    body = {"engine": engine, "players": [{"name": f"Fuzz {i}"} for i in range(players)]}
    if clock:
        body["clock"] = clock
    answer = requests.post(f"{url}/v1/games", json=body, timeout=30)
    answer.raise_for_status()
    created = answer.json()
    return {"id": created["id"], "tokens": [s["token"] for s in created["seats"]],
            "creator": created["creator_token"]}


def _wait_for_decision(url: str, game: dict, seconds: float = 60) -> None:
    """Wait until the worker has rolled and the game waits for a seat."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if requests.get(f"{url}/v1/games/{game['id']}", timeout=30).json()["to_act"]:
            return
        time.sleep(0.2)
    raise RuntimeError(f"game {game['id']} never waited for a decision")


def seed(url: str, folder: Path) -> Path:
    """Create the games and the campaign the fuzzer uses; return the JSON file.

    ``active``: two seats, waiting for a decision; ``clocked``: the same with a per-move
    clock and vacation days (pause, resume, extend, vacation); ``resign``: four seats
    for resignations; ``board``: Worms (a board to draw); ``over``: a finished game (record); ``campaign``: Star Maps with
    its organiser token.
    """
    games = {name: _create(url, players, clock, engine) for name, players, clock, engine in (
        ("active", 2, None, "space-worm"), ("clocked", 2, CLOCK, "space-worm"),
        ("resign", 4, None, "space-worm"), ("board", 2, None, "worms"))}
    for game in games.values():
        _wait_for_decision(url, game)
    played = play(url, "space-worm", 1, seed=7, out_dir=folder / "records",
                  echo=lambda line: None, timeout=120)
    games["over"] = {"id": played.game_id, "tokens": [], "creator": None}
    answer = requests.post(f"{url}/v1/campaigns", timeout=30, json={
        "engine": "star-maps", "players": [{"name": "Fuzz A"}, {"name": "Fuzz B"}]})
    answer.raise_for_status()
    fixtures = {"url": url, "games": games,
                "campaign": {"id": answer.json()["id"], "token": answer.json()["token"]}}
    path = folder / "fuzz-fixtures.json"
    path.write_text(json.dumps(fixtures, indent=1))
    return path
