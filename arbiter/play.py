"""A random player over HTTP only: create a game on a running server and play it to
the end with random legal moves, then fetch and verify the record.

Used by ``arbiter play`` and by the end-to-end tests; it works for every engine in
the registry because it only asks the server what is legal. It speaks to the server
through the client package (``clients/python``, :mod:`arbiter_client`), as a script
author would: Idempotency-Keys on the writes, 429 and 503 retried after Retry-After.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from arbiter_client import ApiError, ArbiterError, Client, Conflict, random_move

from arbiter.verify import Verdict, verify


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
    :param timeout: seconds before giving up.
    :param token: a personal API token with ``games:create``, for servers where
        creation is closed (``OPEN_CREATION`` off); None creates without one.
    :returns: the :class:`Played` game, its record saved as
        ``<out_dir>/<engine>-<id>.json``.
    :raises PlayError: a refusal the player did not expect (a stale version is
        expected: it lists the legal moves again), or ``timeout`` seconds passed.
    """
    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    seats = [{"name": n, "email": emails[i] if emails else None} for i, n in enumerate(names)]
    with Client(url, timeout=30) as client, refused():
        created = client.with_token(token).games.create(engine, seats)
        game_id = created["id"]
        as_seat = {s["seat"]: client.with_token(s["token"]) for s in created["seats"]}
        echo(f"created {engine} game {game_id} for {players} players at {url.rstrip('/')}")
        moves, started = 0, time.monotonic()
        while True:
            if time.monotonic() - started > timeout:
                raise PlayError(f"game {game_id} did not end within {timeout:.0f} s")
            summary = client.games.get(game_id)
            if summary["status"] == "over":
                break
            if not summary["to_act"]:
                client.events.list(game_id, after=summary["version"], wait=5)
                continue
            seat = rng.choice(summary["to_act"])
            legal = as_seat[seat].moves.legal(game_id)
            move = random_move(legal, rng)
            if move is None:
                continue
            try:
                accepted = as_seat[seat].moves.play(
                    game_id, move, expected_version=legal["version"]
                )
            except Conflict:
                continue
            moves += 1
            echo(f"  move {moves:4d}  v{accepted['version']:<5d} {names[seat]}: {accepted['text']}")
        record = client.games.record(game_id)
    played = save_and_verify(dict(record), engine, game_id, out_dir, moves)
    _report(echo, played.record, names, played.path, played.verdict)
    return played


@contextmanager
def refused() -> Iterator[None]:
    """Turn the client's errors into :class:`PlayError` (what the CLI reports)."""
    try:
        yield
    except ApiError as err:
        request = err.response.request
        raise PlayError(f"{request.method} {request.url} -> {err}") from err
    except ArbiterError as err:
        raise PlayError(str(err)) from err


def save_and_verify(
    record: dict, engine: str, game_id: str, out_dir: str | Path, moves: int
) -> Played:
    """Save ``record`` as ``<out_dir>/<engine>-<id>.json`` and verify it."""
    path = Path(out_dir) / f"{engine}-{game_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1))
    return Played(game_id, record, path, verify(record), moves)


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
