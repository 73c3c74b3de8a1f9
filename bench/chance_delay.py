"""Delay from a move's commit to the dice outcome the worker appends after it.

What it measures: the web process (uvicorn) and a Celery worker run as subprocesses on loopback (as
in
``http_moves.py``), on the embedded default (SQLite + kombu's filesystem broker), then
on PostgreSQL (fresh schema) + Redis (an empty database) as in production. One
client plays 4-seat Space Worm games over HTTP, one move at a time, nothing else
running on the service. Each move that ends a round leaves the game waiting for the
round's roll: the web process commits the move, then enqueues ``resolve_chance``; the
worker appends the ``chance`` event. For each such move (``ARBITER_BENCH_CHANCE_SAMPLES``,
default 25, at most ``ARBITER_BENCH_CHANCE_SECONDS`` = 45 s per backend) it reads the
log with a long-poll (``/events?after=V&wait=10``) and records:

- commit -> roll: the chance event's ``at`` minus the move event's ``at``. Both are
  stamped by the server (UTC) when the events are appended, in the transaction that
  commits them; this is the figure the issue asks for;
- POST returned -> roll: the chance event's ``at`` minus the client's clock when the
  POST answer arrived (same machine, same clock; negative when the worker was faster
  than the HTTP answer);
- seen by the client: from the POST answer to the long-poll returning the roll (adds a
  summary GET and the long-poll's 0.1 s polling step).

Reported: median and p95 of each. The filesystem broker is polled by the worker once a
second (kombu's default ``polling_interval``), so expect about half a second there;
on that broker, after each roll it sees (a new game's start roll too) the client pauses
a random 0-1 s so that its moves fall at random moments of that cycle.

Run alone: ``.venv/bin/python bench/chance_delay.py``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from datetime import UTC, datetime

import common
import requests

SAMPLES = int(os.environ.get("ARBITER_BENCH_CHANCE_SAMPLES", "25"))
SECONDS = float(os.environ.get("ARBITER_BENCH_CHANCE_SECONDS", "45"))
PLAYERS = 4
TIMEOUT = 30


def stamp(text: str) -> float:
    """Return the POSIX time of an ``at`` value such as ``2026-12-01T12:00:00.123456Z``."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()


def ok(answer: requests.Response) -> dict:
    if answer.status_code >= 300:
        raise RuntimeError(
            f"{answer.request.method} {answer.url} -> {answer.status_code}: {answer.text[:500]}"
        )
    return answer.json()


class Client:
    def __init__(self, url: str, pauses: bool) -> None:
        self.url = url
        self.pauses = pauses
        self.http = requests.Session()
        self.rng = random.Random(7)

    def new_game(self) -> tuple[str, list[str]]:
        body = {"engine": "space-worm", "players": [{"name": f"P{i}"} for i in range(PLAYERS)]}
        data = ok(self.http.post(f"{self.url}/v1/games", json=body, timeout=TIMEOUT))
        return data["id"], [s["token"] for s in data["seats"]]

    def events_after(self, game_id: str, after: int, wait: float = 0) -> list[dict]:
        return ok(
            self.http.get(
                f"{self.url}/v1/games/{game_id}/events",
                params={"after": after, "wait": wait},
                timeout=TIMEOUT,
            )
        )["events"]

    def sample(self, game_id: str, tokens: list[str]) -> tuple[float, float, float] | None:
        """Play one move; when it leaves the game waiting for dice, return the three
        delays (seconds), else None. Returns None when the game is over too."""
        summary = ok(self.http.get(f"{self.url}/v1/games/{game_id}", timeout=TIMEOUT))
        if summary["status"] != "active":
            raise EOFError
        if not summary["to_act"]:  # after creation: the start roll is on its way
            self.events_after(game_id, summary["version"], wait=10)
            self.pause()
            return None
        seat = summary["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        legal = ok(
            self.http.get(
                f"{self.url}/v1/games/{game_id}/legal-moves", headers=auth, timeout=TIMEOUT
            )
        )
        body = {"move": self.rng.choice(legal["moves"]), "expected_version": legal["version"]}
        answer = ok(
            self.http.post(
                f"{self.url}/v1/games/{game_id}/moves", json=body, headers=auth, timeout=TIMEOUT
            )
        )
        returned = time.time()
        if answer["status"] != "active":
            raise EOFError
        move_seq = answer["seq"]
        after = ok(self.http.get(f"{self.url}/v1/games/{game_id}", timeout=TIMEOUT))
        if after["version"] == move_seq and after["prompt"].get("type") != "chance":
            return None  # the next seat chooses a die: no roll after this move
        deadline = time.monotonic() + 20
        events: list[dict] = []
        while not any(e["seq"] > move_seq for e in events):
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"game {game_id}: no roll 20 s after move {move_seq} "
                    f"(a lost resolve_chance task?)"
                )
            events = self.events_after(game_id, move_seq, wait=10)
        seen = time.time()
        logged = {e["seq"]: e for e in self.events_after(game_id, move_seq - 1)}
        move, roll = logged[move_seq], logged[move_seq + 1]
        if move["kind"] != "move" or roll["kind"] != "chance":
            raise RuntimeError(
                f"game {game_id}: expected move then chance at "
                f"{move_seq}, {move_seq + 1}; got {move['kind']}, "
                f"{roll['kind']}"
            )
        self.pause()
        return (
            stamp(roll["at"]) - stamp(move["at"]),
            stamp(roll["at"]) - returned,
            seen - returned,
        )

    def pause(self) -> None:
        """Sleep a random 0-1 s after seeing a roll, so that the next round-ending move
        falls at a random moment of the filesystem broker's 1 s polling cycle (else the
        client's steady pace locks onto that cycle and every sample shows one delay).
        Redis pushes messages to the worker: no pause there."""
        if self.pauses:
            time.sleep(self.rng.uniform(0, 1))


def run(report: common.Report, case: str, folder, database_url, broker_url) -> None:
    with common.Stack(folder, database_url, broker_url) as stack:
        client = Client(stack.url, pauses=broker_url is None)
        game_id, tokens = client.new_game()
        samples: list[tuple[float, float, float]] = []
        started = time.monotonic()
        while len(samples) < SAMPLES and time.monotonic() - started < SECONDS:
            try:
                found = client.sample(game_id, tokens)
            except EOFError:
                game_id, tokens = client.new_game()
                continue
            if found is not None:
                samples.append(found)
        logged = stack.problems()
    if not samples:
        report.add(case, "error", "no sample collected")
        return
    for index, figure in enumerate(
        (
            "commit -> roll (event at)",
            "POST returned -> roll (event at)",
            "POST returned -> client sees roll",
        )
    ):
        values = [s[index] for s in samples]
        report.add(
            case,
            figure,
            f"median {common.ms(common.percentile(values, 50))}, "
            f"p95 {common.ms(common.percentile(values, 95))} "
            f"(n={len(values)})",
        )
    for text in logged[:5]:
        report.note(f"{case}: {text}")
    if logged:
        (folder / "KEEP").touch()


def main(argv: list[str] | None = None) -> None:
    report = common.Report("chance_delay", argv)
    print(
        f"chance_delay: move commit -> dice appended by the worker, {SAMPLES} samples "
        f"per backend ({common.machine()})",
        flush=True,
    )
    common.run_on_backends(report, run)


if __name__ == "__main__":
    main(sys.argv[1:])
