"""A random player over HTTP only: create a game on a running server and play it to
the end with random legal moves, then fetch and verify the record.

Used by ``arbiter play`` and by the end-to-end tests; it works for every engine in
the registry because it only asks the server what is legal.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

from arbiter.verify import Verdict, verify
from engines import move_parts


class PlayError(RuntimeError):
    """The server refused something the random player did not expect, or timed out."""


@dataclass
class Played:
    """A finished game: its id, record, where the record was saved, and its verdict."""

    game_id: str
    record: dict
    path: Path
    verdict: Verdict
    moves: int


def play(
    url: str,
    engine: str,
    players: int,
    seed: int | None = None,
    out_dir: str | Path = ".",
    emails: list[str] | None = None,
    echo: Callable[[str], None] = print,
    timeout: float = 600.0,
    token: str | None = None,
) -> Played:
    """Create a game of ``engine`` for ``players`` seats at ``url`` and play it out.

    :param emails: one address per seat (for turn mails), or None.
    :param timeout: seconds before giving up (:class:`PlayError`).
    :param token: a personal API token with ``games:create``, for servers where
        creation is closed (``OPEN_CREATION`` off); None creates without one.
    :returns: the :class:`Played` game, its record saved as
        ``<out_dir>/<engine>-<id>.json``.
    """
    http = requests.Session()
    rng = random.Random(seed)
    base = url.rstrip("/")
    names = [f"Player {i + 1}" for i in range(players)]
    body = {
        "engine": engine,
        "players": [
            {"name": n, "email": emails[i] if emails else None} for i, n in enumerate(names)
        ],
    }
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    created = _ok(http.post(f"{base}/v1/games", json=body, headers=auth, timeout=30))
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    echo(f"created {engine} game {game_id} for {players} players at {base}")
    moves, started = 0, time.monotonic()
    while True:
        if time.monotonic() - started > timeout:
            raise PlayError(f"game {game_id} did not end within {timeout:.0f} s")
        summary = _ok(http.get(f"{base}/v1/games/{game_id}", timeout=30))
        if summary["status"] == "over":
            break
        if not summary["to_act"]:
            http.get(
                f"{base}/v1/games/{game_id}/events",
                params={"after": summary["version"], "wait": 5},
                timeout=30,
            )
            continue
        seat = rng.choice(summary["to_act"])
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        legal = _ok(http.get(f"{base}/v1/games/{game_id}/legal-moves", headers=auth, timeout=30))
        move = move_parts.pick(legal, rng)
        if move is None:
            continue
        answer = http.post(
            f"{base}/v1/games/{game_id}/moves",
            json={"move": move, "expected_version": legal["version"]},
            headers={**auth, "Idempotency-Key": uuid.uuid4().hex},
            timeout=30,
        )
        if answer.status_code == 409:
            continue
        accepted = _ok(answer)
        moves += 1
        echo(f"  move {moves:4d}  v{accepted['version']:<5d} {names[seat]}: {accepted['text']}")
    record = _ok(http.get(f"{base}/v1/games/{game_id}/record", timeout=30))
    played = save_and_verify(record, engine, game_id, out_dir, moves)
    _report(echo, record, names, played.path, played.verdict)
    return played


def save_and_verify(
    record: dict, engine: str, game_id: str, out_dir: str | Path, moves: int
) -> Played:
    """Save ``record`` as ``<out_dir>/<engine>-<id>.json`` and verify it."""
    path = Path(out_dir) / f"{engine}-{game_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1))
    return Played(game_id, record, path, verify(record), moves)


def _ok(response: requests.Response) -> dict:
    """Return the JSON of a 2xx response; raise :class:`PlayError` with the problem."""
    if response.status_code >= 300:
        raise PlayError(
            f"{response.request.method} {response.url} -> "
            f"{response.status_code}: {response.text[:500]}"
        )
    return response.json()


def _report(echo, record: dict, names: list[str], path: Path, verdict: Verdict) -> None:
    result = record["result"] or {}
    scores = result.get("scores") or [None] * len(names)
    echo(f"game over ({result.get('reason', '?')}); scores:")
    for seat, name in enumerate(names):
        echo(f"  {name}: {scores[seat]}")
    ranking = "; ".join(", ".join(names[s] for s in g) for g in result.get("ranking", []))
    echo(f"ranking, best first: {ranking}")
    status = "verified" if verdict.ok else f"NOT verified: {verdict.mismatch}"
    echo(f"record: {path} ({status}; {verdict.rolls} rolls, {verdict.moves} moves)")
