"""The product against the bare stack, same run, same database, same client.

What it measures: on PostgreSQL (a fresh schema) + Redis, two servers run at once on
loopback, both as the Procfile runs the web process (uvicorn, 2 workers, the Flask
requests in 8 threads each): **A**, the bare stack (``bench/bare_app.py``: Flask +
Flask-SQLAlchemy reading a head and appending a row), and **B**, the product (its web
process and a Celery worker, concurrency 2). The same closed-loop client,
``ARBITER_BENCH_CLIENTS`` (default 4) threads each with its own ``requests.Session``
and its own game, then drives A, B, A, B for ``ARBITER_BENCH_SECONDS`` (default 10)
seconds each: per move one read and one write. On A: ``GET /games/<id>`` then
``POST /games/<id>/moves``. On B, Dark Horse games of two seats (no chance after the
setup): ``GET /legal-moves`` for the seat on turn, then ``POST /moves`` with one of
them and ``expected_version`` (the answer's ``to_act`` says who is next; a roll is
waited for with the long-poll; a finished game is replaced by a new one, its creation
counted in B's time and CPU).

Printed: per phase and in total, accepted moves/s of A and B and the ratio B/A; the
server CPU (user + system, read from ``/proc`` for each server's process tree: A's web
process; B's web process and worker) per accepted move of each, and the ratio. The
machine is shared: the figures are noisy, compare them within one run only.

Run alone: ``.venv/bin/python bench/baseline.py``.
"""

from __future__ import annotations

import os
import random
import subprocess
import threading
import time

import common
import requests

CLIENTS = int(os.environ.get("ARBITER_BENCH_CLIENTS", "4"))
SECONDS = float(os.environ.get("ARBITER_BENCH_SECONDS", "10"))
ROUNDS = 2
TIMEOUT = 30


class Tally:
    """Accepted moves and refusals of one phase, across the client threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.accepted = 0
        self.refused: dict[str, int] = {}

    def add(self, answer: requests.Response) -> None:
        with self.lock:
            if answer.status_code == 201:
                self.accepted += 1
            else:
                key = str(answer.status_code)
                self.refused[key] = self.refused.get(key, 0) + 1


def bare_client(url: str, tally: Tally, deadline: float, _seed: int) -> None:
    """Read the head, append, until ``deadline``."""
    http = requests.Session()
    game = http.post(f"{url}/games", timeout=TIMEOUT).json()["id"]
    while time.monotonic() < deadline:
        version = http.get(f"{url}/games/{game}", timeout=TIMEOUT).json()["version"]
        tally.add(http.post(f"{url}/games/{game}/moves", timeout=TIMEOUT,
                            json={"move": {"card": 3}, "expected_version": version}))


class ProductGame:
    """One Dark Horse game as a client sees it: tokens, version, who is to act."""

    def __init__(self, http: requests.Session, url: str) -> None:
        answer = http.post(f"{url}/v1/games", timeout=TIMEOUT, json={
            "engine": "dark-horse", "players": [{"name": "Ann"}, {"name": "Bob"}]})
        if answer.status_code != 201:
            raise RuntimeError(f"POST /v1/games -> {answer.status_code}: {answer.text[:300]}")
        made = answer.json()
        self.id, self.tokens = made["id"], [s["token"] for s in made["seats"]]
        self.version, self.to_act, self.status = made["version"], made["to_act"], "active"


def product_client(url: str, tally: Tally, deadline: float, seed: int) -> None:
    """Play random legal moves in the client's own game until ``deadline``."""
    rng = random.Random(seed)
    http = requests.Session()
    game = ProductGame(http, url)
    while time.monotonic() < deadline:
        if game.status != "active":
            game = ProductGame(http, url)
            continue
        if not game.to_act:
            http.get(f"{url}/v1/games/{game.id}/events", timeout=TIMEOUT,
                     params={"after": game.version, "wait": 5})
            summary = http.get(f"{url}/v1/games/{game.id}", timeout=TIMEOUT).json()
            game.version, game.to_act, game.status = (summary["version"], summary["to_act"],
                                                      summary["status"])
            continue
        answer = common.play_random(http, url, game.id, game.tokens[game.to_act[0]], rng,
                                    TIMEOUT)
        tally.add(answer)
        if answer.status_code == 201:
            body = answer.json()
            game.version, game.to_act, game.status = (body["version"], body["to_act"],
                                                      body["status"])
        else:
            game.to_act = []


def phase(label: str, url: str, pids: list[int], client) -> dict:
    """Run ``CLIENTS`` closed-loop clients for ``SECONDS``; return the figures."""
    tally = Tally()
    cpu_before = sum(common.tree_cpu_seconds(pid) for pid in pids)
    started = time.monotonic()
    deadline = started + SECONDS
    threads = [threading.Thread(target=client, args=(url, tally, deadline, i))
               for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    cpu = sum(common.tree_cpu_seconds(pid) for pid in pids) - cpu_before
    return {"label": label, "moves": tally.accepted, "seconds": elapsed, "cpu": cpu,
            "refused": tally.refused}


def figures(report: common.Report, case: str, a: list[dict], b: list[dict]) -> None:
    """Report moves/s, CPU ms per move and the ratios of A and B."""
    def rate(rows):
        return sum(r["moves"] for r in rows) / sum(r["seconds"] for r in rows)

    def cpu_ms(rows):
        return 1000 * sum(r["cpu"] for r in rows) / max(1, sum(r["moves"] for r in rows))

    report.add(case, "bare moves/s (A)", f"{rate(a):.1f}")
    report.add(case, "product moves/s (B)", f"{rate(b):.1f}")
    report.add(case, "moves/s ratio B/A (>= 0.6)", f"{rate(b) / rate(a):.2f}")
    report.add(case, "bare CPU ms/move", f"{cpu_ms(a):.2f}")
    report.add(case, "product CPU ms/move", f"{cpu_ms(b):.2f}")
    report.add(case, "CPU ratio B/A (<= 2)", f"{cpu_ms(b) / cpu_ms(a):.2f}")


def main() -> None:
    report = common.Report("baseline")
    print(f"baseline: {common.machine()}; {CLIENTS} clients, {ROUNDS} x (A, B) of "
          f"{SECONDS:.0f} s", flush=True)
    common.raise_fd_limit()
    try:
        with common.postgres_schema() as pg, common.redis_database() as broker, \
                common.instance_dir("baseline") as folder:
            run(report, folder, pg, broker)
    except common.Skip as why:
        report.skip("postgres + redis", str(why))
    report.done()


def run(report: common.Report, folder, pg: str, broker: str) -> None:
    """Start both servers, alternate the phases, report."""
    import bare_app
    from arbiter.config import database_url

    bare_app.create_tables(database_url(pg, ""))
    port = common.free_port()
    bare_url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": pg, "WEB_THREADS": "8"}
    (folder / "logs").mkdir(parents=True, exist_ok=True)
    bare = subprocess.Popen([str(c) for c in common.web_command(
        port, 2, "bare_app:create_asgi", common.BENCH)], env=env, cwd=common.ROOT,
        stdout=open(folder / "logs" / "bare.log", "w"), stderr=subprocess.STDOUT)
    try:
        with common.Stack(folder / "product", pg, broker, web_workers=2, threads=8) as product:
            wait_up(f"{bare_url}/games/none")
            a, b = [], []
            for _ in range(ROUNDS):
                a.append(phase("A", bare_url, [bare.pid], bare_client))
                b.append(phase("B", product.url, [p.pid for p in product.procs],
                               product_client))
                for row in (a[-1], b[-1]):
                    print(f"  phase {row['label']}: {row['moves']} moves in "
                          f"{row['seconds']:.1f} s, CPU {row['cpu']:.2f} s, refused "
                          f"{row['refused'] or 'none'}", flush=True)
            figures(report, "postgres + redis", a, b)
    finally:
        bare.terminate()
        bare.wait(timeout=20)


def wait_up(url: str, seconds: float = 60) -> None:
    """Wait until the bare server answers."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            requests.get(url, timeout=2)
            return
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError("the bare server did not come up")


if __name__ == "__main__":
    main()
