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
waited for with the long-poll). Both sides time moves only: the bare app's games are
one row each, made as its phase starts; the product's 2-seat games last about seven
moves, so ``ARBITER_BENCH_GAMES`` (default 200, then 1.5x what a phase used) ready
games, setup rolls done, are made before each B phase, and the CPU that cost is printed
per game apart; a client that runs out makes one inline, counted in B and reported.

Printed: per phase and in total, accepted moves/s of A and B and the ratio B/A; the
server CPU (user + system, read from ``/proc`` for each server's process tree: A's web
process; B's web process and worker) per accepted move of each, and the ratio. The
machine is shared: the figures are noisy, compare them within one run only.

Run alone: ``.venv/bin/python bench/baseline.py``.
"""

from __future__ import annotations

import os
import queue
import random
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import common
import requests

CLIENTS = int(os.environ.get("ARBITER_BENCH_CLIENTS", "4"))
SECONDS = float(os.environ.get("ARBITER_BENCH_SECONDS", "10"))
# ready games made before each product phase (grown to 1.5x what a phase used)
PREPARED = int(os.environ.get("ARBITER_BENCH_GAMES", "200"))
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
        tally.add(
            http.post(
                f"{url}/games/{game}/moves",
                timeout=TIMEOUT,
                json={"move": {"card": 3}, "expected_version": version},
            )
        )


class ProductGame:
    """One Dark Horse game as a client sees it: tokens, version, who is to act."""

    def __init__(self, http: requests.Session, url: str) -> None:
        answer = http.post(
            f"{url}/v1/games",
            timeout=TIMEOUT,
            json={"engine": "dark-horse", "players": [{"name": "Ann"}, {"name": "Bob"}]},
        )
        if answer.status_code != 201:
            raise RuntimeError(f"POST /v1/games -> {answer.status_code}: {answer.text[:300]}")
        made = answer.json()
        self.id, self.tokens = made["id"], [s["token"] for s in made["seats"]]
        self.version, self.to_act, self.status = made["version"], made["to_act"], "active"


def ready_game(http: requests.Session, url: str) -> ProductGame:
    """Create a Dark Horse game and wait until its setup rolls are done (a seat to act)."""
    game = ProductGame(http, url)
    while not game.to_act and game.status == "active":
        http.get(
            f"{url}/v1/games/{game.id}/events",
            timeout=TIMEOUT,
            params={"after": game.version, "wait": 5},
        )
        summary = http.get(f"{url}/v1/games/{game.id}", timeout=TIMEOUT).json()
        game.version, game.to_act, game.status = (
            summary["version"],
            summary["to_act"],
            summary["status"],
        )
    return game


class Pool:
    """Games made ready before a product phase, so that the phase times moves only (the
    bare app's games, one row each, are made before its phase too); a client that runs
    out makes one inline, counted in the phase's time and CPU and reported."""

    def __init__(self) -> None:
        self.games: queue.SimpleQueue[ProductGame] = queue.SimpleQueue()
        self.inline = 0
        self.lock = threading.Lock()

    def fill(self, url: str, count: int) -> None:
        """Make ``count`` ready games with ``CLIENTS`` threads."""

        def make(_):
            self.games.put(ready_game(requests.Session(), url))

        with ThreadPoolExecutor(CLIENTS) as pool:
            list(pool.map(make, range(count)))

    def take(self, http: requests.Session, url: str) -> ProductGame:
        """A ready game from the pool, or a new one made now."""
        try:
            return self.games.get_nowait()
        except queue.Empty:
            with self.lock:
                self.inline += 1
            return ready_game(http, url)


def product_client(url: str, tally: Tally, deadline: float, seed: int, pool: Pool) -> None:
    """Play random legal moves in ready games of the pool until ``deadline``."""
    rng = random.Random(seed)
    http = requests.Session()
    game = pool.take(http, url)
    while time.monotonic() < deadline:
        if game.status != "active":
            game = pool.take(http, url)
            continue
        if not game.to_act:
            http.get(
                f"{url}/v1/games/{game.id}/events",
                timeout=TIMEOUT,
                params={"after": game.version, "wait": 5},
            )
            summary = http.get(f"{url}/v1/games/{game.id}", timeout=TIMEOUT).json()
            game.version, game.to_act, game.status = (
                summary["version"],
                summary["to_act"],
                summary["status"],
            )
            continue
        answer = common.play_random(http, url, game.id, game.tokens[game.to_act[0]], rng, TIMEOUT)
        tally.add(answer)
        if answer.status_code == 201:
            body = answer.json()
            game.version, game.to_act, game.status = (
                body["version"],
                body["to_act"],
                body["status"],
            )
        else:
            game.to_act = []


def phase(label: str, url: str, pids: list[int], client, *extra) -> dict:
    """Run ``CLIENTS`` closed-loop clients for ``SECONDS`` (each called as
    ``client(url, tally, deadline, index, *extra)``); return the figures."""
    tally = Tally()
    cpu_before = sum(common.tree_cpu_seconds(pid) for pid in pids)
    started = time.monotonic()
    deadline = started + SECONDS
    threads = [
        threading.Thread(target=client, args=(url, tally, deadline, i, *extra))
        for i in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    cpu = sum(common.tree_cpu_seconds(pid) for pid in pids) - cpu_before
    return {
        "label": label,
        "moves": tally.accepted,
        "seconds": elapsed,
        "cpu": cpu,
        "refused": tally.refused,
    }


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
    print(
        f"baseline: {common.machine()}; {CLIENTS} clients, {ROUNDS} x (A, B) of {SECONDS:.0f} s",
        flush=True,
    )
    common.raise_fd_limit()
    try:
        with (
            common.postgres_schema() as pg,
            common.redis_database() as broker,
            common.instance_dir("baseline") as folder,
        ):
            run(report, folder, pg, broker)
    except common.Skip as why:
        report.skip("postgres + redis", str(why))
    report.done()


def run(report: common.Report, folder, pg: str, broker: str) -> None:
    """Start both servers, alternate the phases, report."""
    import bare_app

    from arbiter.settings import database_url

    bare_app.create_tables(database_url(pg, ""))
    port = common.free_port()
    bare_url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": pg, "WEB_THREADS": "8"}
    (folder / "logs").mkdir(parents=True, exist_ok=True)
    bare = subprocess.Popen(
        [str(c) for c in common.web_command(port, 2, "bare_app:create_asgi", common.BENCH)],
        env=env,
        cwd=common.ROOT,
        stdout=open(folder / "logs" / "bare.log", "w"),
        stderr=subprocess.STDOUT,
    )
    try:
        with common.Stack(folder / "product", pg, broker, web_workers=2, threads=8) as product:
            wait_up(f"{bare_url}/games/none")
            a, b = [], []
            pids = [p.pid for p in product.procs]
            need = PREPARED
            for _ in range(ROUNDS):
                a.append(phase("A", bare_url, [bare.pid], bare_client))
                pool = Pool()
                cpu_before, started = sum(map(common.tree_cpu_seconds, pids)), time.monotonic()
                pool.fill(product.url, need)
                made_cpu = sum(map(common.tree_cpu_seconds, pids)) - cpu_before
                print(
                    f"  made {need} ready games in {time.monotonic() - started:.1f} s, "
                    f"CPU {1000 * made_cpu / need:.1f} ms per game (not in B)",
                    flush=True,
                )
                b.append(phase("B", product.url, pids, product_client, pool))
                used = need - pool.games.qsize() + pool.inline
                b[-1]["inline"] = pool.inline
                need = max(need, int(used * 1.5))
                for row in (a[-1], b[-1]):
                    print(
                        f"  phase {row['label']}: {row['moves']} moves in "
                        f"{row['seconds']:.1f} s, CPU {row['cpu']:.2f} s, refused "
                        f"{row['refused'] or 'none'}"
                        + (f", {row['inline']} games made inline" if "inline" in row else ""),
                        flush=True,
                    )
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
