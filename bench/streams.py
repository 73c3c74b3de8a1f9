"""Thousands of open SSE streams: does the API stay responsive, how fast do events
arrive?

What it measures: on PostgreSQL (a fresh schema) + Redis, the web process as the
Procfile runs it (uvicorn, 2 workers) and a Celery worker. ``ARBITER_BENCH_GAMES``
(default 1,000) Dark Horse games are created; then ``ARBITER_BENCH_STREAMS`` (default
5,000) SSE streams are opened from one asyncio client, half on one "hot" game and
half spread over the others, each with ``Last-Event-ID`` at the game's version.
Figures:

- the p50 of an unrelated request (``GET /v1/engines/dark-horse``, 40 in a row)
  before any stream is open and while all of them are (target: within 1.25x);
- delivery, commit to subscriber: ``ARBITER_BENCH_MOVES`` (default 20) moves are
  played on the hot game and one on each of 20 cold games; for every event each
  stream receives, the time it arrived minus the event's ``at`` (written just before
  the commit, so this slightly overstates the delay); p50 and p95 (targets 100 ms and
  500 ms), and how many deliveries arrived out of the expected (the client waits up
  to ``ARBITER_BENCH_DRAIN`` seconds, default 60, for all of them).

The client raises its open-file limit to the hard limit (``ulimit -Hn``) and the
servers inherit it. The client, the servers and PostgreSQL share the machine's cores
(and other developers' work): the figures are noisy.

Run alone: ``.venv/bin/python bench/streams.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import common
import requests

GAMES = int(os.environ.get("ARBITER_BENCH_GAMES", "1000"))
STREAMS = int(os.environ.get("ARBITER_BENCH_STREAMS", "5000"))
MOVES = int(os.environ.get("ARBITER_BENCH_MOVES", "20"))
COLD_MOVES = 20
DRAIN = float(os.environ.get("ARBITER_BENCH_DRAIN", "60"))
"""Seconds to wait after the last move for the deliveries still on their way (the
percentiles are of what arrived: cutting the wait short hides the slowest)."""
TIMEOUT = 60


class Stream:
    """One SSE reader on a raw asyncio connection; keeps ``(arrival time, data line)``
    of every event, parsed after the run (so that the client's own JSON work does not
    delay what it reads next and inflate the figures)."""

    def __init__(self, game_id: str, after: int) -> None:
        self.game_id, self.after = game_id, after
        self.lines: list[tuple[float, bytes]] = []
        self.open = False

    async def run(self, host: str, port: int, opened: asyncio.Semaphore) -> None:
        async with opened:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write((f"GET /v1/games/{self.game_id}/stream HTTP/1.1\r\nHost: {host}\r\n"
                          f"Last-Event-ID: {self.after}\r\nAccept: text/event-stream\r\n\r\n")
                         .encode())
            status = await reader.readline()
            if b" 200 " not in status:
                raise RuntimeError(status.decode(errors="replace"))
            self.open = True
        rest = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            arrived = time.time()
            *lines, rest = (rest + chunk).split(b"\n")
            self.lines += [(arrived, line) for line in lines if line.startswith(b"data: ")]

    def events(self) -> list[tuple[int, float]]:
        """Return ``(seq, delay in seconds)`` of each event received: arrival minus
        the event's ``at``."""
        out = []
        for arrived, line in self.lines:
            event = json.loads(line[6:])
            at = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
            out.append((event["seq"], arrived - at))
        return out


def p50_unrelated(url: str, count: int = 40) -> float:
    """Return the median time of ``count`` sequential unrelated requests (seconds)."""
    http = requests.Session()
    times = []
    for _ in range(count):
        started = time.perf_counter()
        http.get(f"{url}/v1/engines/dark-horse", timeout=TIMEOUT).raise_for_status()
        times.append(time.perf_counter() - started)
    return common.percentile(times, 50)


def create_games(url: str, count: int) -> list[dict]:
    """Create ``count`` two-seat Dark Horse games with 8 client threads."""
    def one(_):
        answer = requests.post(f"{url}/v1/games", timeout=TIMEOUT, json={
            "engine": "dark-horse", "players": [{"name": "Ann"}, {"name": "Bob"}]})
        answer.raise_for_status()
        return answer.json()

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, range(count)))


def settled(url: str, game: dict) -> dict:
    """Wait until the worker has rolled the game's setup; return its summary."""
    for _ in range(300):
        summary = requests.get(f"{url}/v1/games/{game['id']}", timeout=TIMEOUT).json()
        if summary["to_act"]:
            return summary
        time.sleep(0.1)
    raise RuntimeError(f"game {game['id']} was never rolled")


def play_one(url: str, game: dict, rng: random.Random) -> int:
    """Play one random legal move in ``game``; return the number of new events (0 if
    the game no longer waits for a decision)."""
    summary = requests.get(f"{url}/v1/games/{game['id']}", timeout=TIMEOUT).json()
    if not summary["to_act"]:
        return 0
    token = game["seats"][summary["to_act"][0]]["token"]
    answer = common.play_random(requests, url, game["id"], token, rng, TIMEOUT)
    return answer.json()["version"] - summary["version"] if answer.status_code == 201 else 0


def main() -> None:
    report = common.Report("streams")
    limit = common.raise_fd_limit()
    print(f"streams: {common.machine()}; {STREAMS} streams over {GAMES} games; open-file "
          f"limit {limit}", flush=True)
    try:
        with common.postgres_schema() as pg, common.redis_database() as broker, \
                common.instance_dir("streams") as folder, \
                common.Stack(folder, pg, broker, web_workers=2, threads=8) as stack:
            run(report, stack.url)
    except common.Skip as why:
        report.skip("postgres + redis", str(why))
    report.done()


def run(report: common.Report, url: str) -> None:
    """Create the games, measure, open the streams, measure again, play, report."""
    case = "postgres + redis"
    started = time.monotonic()
    games = create_games(url, GAMES)
    hot, cold = games[0], games[1:] or games
    summaries = {g["id"]: settled(url, g) for g in [hot, *cold[:COLD_MOVES]]}
    print(f"  {len(games)} games in {time.monotonic() - started:.0f} s", flush=True)
    quiet = p50_unrelated(url)
    versions = {g["id"]: summaries.get(g["id"], {}).get("version", 3) for g in games}
    streams = [Stream(hot["id"], versions[hot["id"]]) for _ in range(STREAMS // 2)]
    streams += [Stream(g["id"], versions[g["id"]])
                for g, _ in zip(_cycle(cold), range(STREAMS - len(streams)))]
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    host, port = url.removeprefix("http://").split(":")
    gate = asyncio.Semaphore(100)

    async def open_all():
        return [loop.create_task(s.run(host, int(port), gate)) for s in streams]

    tasks = asyncio.run_coroutine_threadsafe(open_all(), loop).result()
    opening = time.monotonic()
    while time.monotonic() - opening < 180:
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception()]
        if sum(s.open for s in streams) + len(failed) >= len(streams):
            break
        time.sleep(0.5)
    report.add(case, "streams open", f"{sum(s.open for s in streams)} of {len(streams)} "
               f"({len(failed)} failed) in {time.monotonic() - opening:.0f} s")
    if failed:
        report.note(f"a stream failed to open: {failed[0].exception()!r}"[:300])
    time.sleep(2)
    for s in streams:  # what arrived so far is the backlog of setup rolls
        s.lines.clear()
    busy = p50_unrelated(url)
    report.add(case, "unrelated p50 no streams", common.ms(quiet))
    report.add(case, f"unrelated p50, {len(streams)} open", common.ms(busy))
    report.add(case, "unrelated ratio (<= 1.25)", f"{busy / quiet:.2f}")
    rng = random.Random(13)
    expected = 0
    hot_readers = sum(1 for s in streams if s.game_id == hot["id"] and s.open)
    for _ in range(MOVES):
        expected += play_one(url, hot, rng) * hot_readers
        time.sleep(0.3)
    for game in cold[:COLD_MOVES]:
        readers = sum(1 for s in streams if s.game_id == game["id"] and s.open)
        expected += play_one(url, game, rng) * readers
    waited = time.monotonic()  # until every expected delivery is in (at most DRAIN s)
    while (sum(len(s.lines) for s in streams) < expected
           and time.monotonic() - waited < DRAIN):
        time.sleep(0.5)
    time.sleep(1)
    received = {id(s): s.events() for s in streams}
    delays = [d for events in received.values() for _, d in events]
    report.add(case, "deliveries received", f"{len(delays)} (moves alone: {expected})")
    report.add(case, "delivery p50 (<= 100 ms)", common.ms(common.percentile(delays, 50)))
    report.add(case, "delivery p95 (<= 500 ms)", common.ms(common.percentile(delays, 95)))
    duplicates = sum(len(e) - len({seq for seq, _ in e}) for e in received.values())
    report.add(case, "duplicate deliveries", str(duplicates))
    report.note(f"load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())} after the "
                f"moves (2 cores shared with other work)")
    for task in tasks:
        loop.call_soon_threadsafe(task.cancel)


def _cycle(items: list):
    while True:
        yield from items


if __name__ == "__main__":
    main()
