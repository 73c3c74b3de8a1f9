"""Accepted moves per second through HTTP, with the dice rolled by a real Celery worker.

What it measures: the web process (uvicorn, 2 workers x 8 Flask threads, as in the Procfile) and a
Celery worker (concurrency 2) run as subprocesses on loopback; ``ARBITER_BENCH_GAMES``
(default 8) Space Worm games of 3 seats (no emails) are created, and
``ARBITER_BENCH_CLIENTS`` (default 4) client threads, each with its own
``requests.Session``, play for ``ARBITER_BENCH_SECONDS`` (default 20) seconds. Each
client repeatedly picks one of the games at random, reads its summary, and when a seat
is to act fetches that seat's ``/legal-moves`` and POSTs one of them at random with
``expected_version`` and an ``Idempotency-Key`` (as ``arbiter play`` does). When the
game waits for dice it long-polls ``/events?after=V&wait=2`` until the worker has
rolled; a finished game is replaced by a new one. Two clients may pick the same game
at once: one of them then gets 409 ``stale-version``, which is what the 409 count
shows.

Reported per backend (the embedded default, SQLite + the filesystem broker; then
PostgreSQL in a fresh schema + Redis on an empty database, skipped when a server does
not answer): accepted moves/s over the whole run (dice waits included), all requests/s,
p50/p95 latency of POST /moves, the 409 count by code, any other status, and the share
of the clients' time spent long-polling for dice (the filesystem broker is polled once
a second by the worker, so on the embedded default that share is large).

Afterwards it checks the result: for every game, the moves in its log equal the 201
answers the clients got, ``seq`` has no gap, and each finished game's ``/record``
verifies (``arbiter.verify``). Anything else (a 5xx, a lost or extra move, a record
that does not verify, a traceback in a log) is printed with the request, the answer
and the log excerpt, and the instance folder with the logs is kept.

Run alone: ``.venv/bin/python bench/http_moves.py``.
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import common
import requests

GAMES = int(os.environ.get("ARBITER_BENCH_GAMES", "8"))
CLIENTS = int(os.environ.get("ARBITER_BENCH_CLIENTS", "4"))
SECONDS = float(os.environ.get("ARBITER_BENCH_SECONDS", "20"))
PLAYERS = 3
TIMEOUT = 30


@dataclass
class Game:
    id: str
    tokens: list[str]
    accepted: int = 0


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    accepted: int = 0
    requests: int = 0
    post_latency: list[float] = field(default_factory=list)
    conflicts: Counter = field(default_factory=Counter)
    others: list[str] = field(default_factory=list)
    other_statuses: Counter = field(default_factory=Counter)
    dice_waits: int = 0
    dice_wait_seconds: float = 0.0


class Pool:
    """The games being played; a finished one is swapped for a new one."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lock = threading.Lock()
        self.slots: list[Game | None] = []
        self.every: list[Game] = []

    def create(self, http: requests.Session) -> Game:
        body = {"engine": "space-worm", "players": [{"name": f"P{i}"} for i in range(PLAYERS)]}
        answer = http.post(f"{self.url}/v1/games", json=body, timeout=TIMEOUT)
        if answer.status_code != 201:
            raise RuntimeError(f"POST /v1/games -> {answer.status_code}: {answer.text[:300]}")
        data = answer.json()
        game = Game(data["id"], [s["token"] for s in data["seats"]])
        with self.lock:
            self.every.append(game)
        return game

    def pick(self, rng: random.Random) -> tuple[int, Game] | None:
        with self.lock:
            ready = [(i, g) for i, g in enumerate(self.slots) if g is not None]
        return rng.choice(ready) if ready else None

    def replace(self, index: int, old: Game, http: requests.Session) -> None:
        with self.lock:
            if self.slots[index] is not old:
                return
            self.slots[index] = None
        new = self.create(http)
        with self.lock:
            self.slots[index] = new


def unexpected(stats: Stats, method: str, url: str, body, answer: requests.Response) -> None:
    with stats.lock:
        stats.other_statuses[answer.status_code] += 1
        if len(stats.others) < 5:
            stats.others.append(
                f"{method} {url} {body or ''} -> {answer.status_code} {answer.text[:500]}"
            )


def client(pool: Pool, stats: Stats, deadline: float, seed: int) -> None:
    """Play random legal moves in random games until ``deadline``."""
    rng = random.Random(seed)
    http = requests.Session()
    base = pool.url
    while time.monotonic() < deadline:
        picked = pool.pick(rng)
        if picked is None:
            time.sleep(0.01)
            continue
        index, game = picked
        try:
            answer = http.get(f"{base}/v1/games/{game.id}", timeout=TIMEOUT)
            requests_made = 1
            if answer.status_code != 200:
                unexpected(stats, "GET", answer.url, None, answer)
                continue
            summary = answer.json()
            if summary["status"] != "active":
                pool.replace(index, game, http)
                requests_made += 1
            elif not summary["to_act"]:
                started = time.monotonic()
                wait = http.get(
                    f"{base}/v1/games/{game.id}/events",
                    params={"after": summary["version"], "wait": 2},
                    timeout=TIMEOUT,
                )
                requests_made += 1
                with stats.lock:
                    stats.dice_waits += 1
                    stats.dice_wait_seconds += time.monotonic() - started
                if wait.status_code != 200:
                    unexpected(stats, "GET", wait.url, None, wait)
            else:
                seat = summary["to_act"][0]
                auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
                legal = http.get(
                    f"{base}/v1/games/{game.id}/legal-moves", headers=auth, timeout=TIMEOUT
                )
                requests_made += 1
                if legal.status_code != 200:
                    unexpected(stats, "GET", legal.url, None, legal)
                elif legal.json()["moves"]:
                    data = legal.json()
                    body = {"move": rng.choice(data["moves"]), "expected_version": data["version"]}
                    started = time.perf_counter()
                    posted = http.post(
                        f"{base}/v1/games/{game.id}/moves",
                        json=body,
                        headers={**auth, "Idempotency-Key": uuid.uuid4().hex},
                        timeout=TIMEOUT,
                    )
                    latency = time.perf_counter() - started
                    requests_made += 1
                    with stats.lock:
                        stats.post_latency.append(latency)
                        if posted.status_code == 201:
                            stats.accepted += 1
                            game.accepted += 1
                        elif posted.status_code == 409:
                            stats.conflicts[posted.json().get("code", "?")] += 1
                    if posted.status_code not in (201, 409):
                        unexpected(stats, "POST", posted.url, body, posted)
            with stats.lock:
                stats.requests += requests_made
        except requests.RequestException as err:
            with stats.lock:
                stats.other_statuses[type(err).__name__] += 1
                if len(stats.others) < 5:
                    stats.others.append(f"game {game.id}: {type(err).__name__}: {err}")


def wait_for_decisions(pool: Pool, http: requests.Session, seconds: float = 60) -> None:
    """Wait until the worker has rolled the start of every game."""
    deadline = time.monotonic() + seconds
    for game in pool.slots:
        while time.monotonic() < deadline:
            if http.get(f"{pool.url}/v1/games/{game.id}", timeout=TIMEOUT).json()["to_act"]:
                break
            time.sleep(0.05)
        else:
            raise RuntimeError(f"game {game.id} was never rolled for: is the worker alive?")


def check(pool: Pool, http: requests.Session) -> list[str]:
    """Compare every game's log with the answers the clients got; verify records."""
    from arbiter.verify import verify

    problems = []
    for game in pool.every:
        events, after = [], 0
        while True:
            page = http.get(
                f"{pool.url}/v1/games/{game.id}/events", params={"after": after}, timeout=TIMEOUT
            ).json()
            if not page["events"]:
                break
            events += page["events"]
            after = page["events"][-1]["seq"]
        seqs = [e["seq"] for e in events]
        if seqs != list(range(1, len(seqs) + 1)):
            problems.append(f"game {game.id}: seq is not 1..n without gaps: {seqs}")
        moves = sum(1 for e in events if e["kind"] == "move")
        if moves != game.accepted:
            problems.append(
                f"game {game.id}: {moves} move events in the log but "
                f"{game.accepted} moves answered 201"
            )
        summary = http.get(f"{pool.url}/v1/games/{game.id}", timeout=TIMEOUT).json()
        if summary["status"] == "over":
            record = http.get(f"{pool.url}/v1/games/{game.id}/record", timeout=TIMEOUT)
            verdict = verify(record.json())
            if not verdict.ok:
                problems.append(f"game {game.id}: record does not verify: {verdict.mismatch}")
    return problems


def run(report: common.Report, case: str, folder, database_url, broker_url) -> None:
    with common.Stack(folder, database_url, broker_url) as stack:
        http = requests.Session()
        pool = Pool(stack.url)
        pool.slots = [pool.create(http) for _ in range(GAMES)]
        wait_for_decisions(pool, http)
        stats = Stats()
        started = time.monotonic()
        deadline = started + SECONDS
        threads = [
            threading.Thread(target=client, args=(pool, stats, deadline, i), daemon=True)
            for i in range(CLIENTS)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        problems = check(pool, http)
        logged = stack.problems()
    posts = stats.post_latency
    report.add(
        case,
        "accepted moves/s",
        f"{stats.accepted / elapsed:.1f} ({stats.accepted} in {elapsed:.1f} s)",
    )
    report.add(case, "requests/s (all routes)", f"{stats.requests / elapsed:.1f}")
    report.add(
        case,
        "POST /moves p50 / p95",
        f"{common.ms(common.percentile(posts, 50))} / "
        f"{common.ms(common.percentile(posts, 95))} ({len(posts)} posts)",
    )
    conflicts = ", ".join(f"{n} {code}" for code, n in stats.conflicts.most_common()) or "0"
    report.add(case, "409 answers", conflicts)
    games_done = len(pool.every) - GAMES
    report.add(case, "games finished", str(games_done))
    report.add(
        case,
        "client time spent waiting for dice",
        f"{stats.dice_wait_seconds / (CLIENTS * elapsed):.0%} ({stats.dice_waits} long-polls)",
    )
    if stats.other_statuses:
        report.add(
            case,
            "other answers",
            ", ".join(f"{n} x {s}" for s, n in stats.other_statuses.most_common()),
        )
    anomalies = stats.others + problems + logged
    for text in anomalies[:8]:
        report.note(f"{case}: {text}")
    if anomalies:
        (folder / "KEEP").touch()
        report.note(f"{case}: logs kept in {stack.logs}")
    else:
        report.add(case, "log vs answers, records", "consistent, all verify")


def main(argv: list[str] | None = None) -> None:
    report = common.Report("http_moves", argv)
    print(
        f"http_moves: {CLIENTS} clients, {GAMES} games of {PLAYERS}, {SECONDS:g} s per "
        f"backend ({common.machine()})",
        flush=True,
    )
    common.run_on_backends(report, run)


if __name__ == "__main__":
    main(sys.argv[1:])
