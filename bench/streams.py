"""Thousands of open SSE streams: does the API stay responsive, how fast do events
arrive?

What it measures: on PostgreSQL (a fresh schema) + Redis, the web process as the
Procfile runs it (uvicorn, 2 workers) and a Celery worker. ``ARBITER_BENCH_GAMES``
(default 1,000) Dark Horse games are created and their setup rolled; the moves below
are played once on other games with no stream open (the web processes' CPU for the
moves alone); then
``ARBITER_BENCH_STREAMS`` (default 10,000) SSE streams are opened from one client, half
on one "hot" game and half spread over the others, each with ``Last-Event-ID`` at the
game's version. The client is one thread running a uvloop loop of bare asyncio
protocols that only stamp each read's arrival (lines are parsed after the run): on the
same cores as the servers, a client that parses as it reads delays the reads after it
and inflates the figures. Figures:

- the p50 of an unrelated request (``GET /v1/engines/dark-horse``, 200 in a row)
  before any stream is open and while all of them are (target: within 1.25x);
- delivery, commit to subscriber: ``ARBITER_BENCH_MOVES`` (default 20) moves are
  played on the hot game and one on each of 20 cold games; for every event each
  stream receives, the time it arrived minus the event's ``at`` (written just before
  the commit, so this slightly overstates the delay); p50 and p95 (targets 100 ms and
  200 ms), and how many deliveries arrived out of the expected (the client waits up
  to ``ARBITER_BENCH_DRAIN`` seconds, default 60, for all of them);
- the web processes' CPU while every stream is open and idle (ms per second);
- CPU seconds (user + system, from ``/proc``) of the web processes, the worker and the
  client over the moves and the drain, and the web's CPU for streaming: that minus the
  same moves' CPU with no stream open, per event delivered and per delivery. The
  machine's load distorts the delays, much less these.

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
import uvloop

GAMES = int(os.environ.get("ARBITER_BENCH_GAMES", "1000"))
STREAMS = int(os.environ.get("ARBITER_BENCH_STREAMS", "10000"))
MOVES = int(os.environ.get("ARBITER_BENCH_MOVES", "20"))
COLD_MOVES = 20
DRAIN = float(os.environ.get("ARBITER_BENCH_DRAIN", "60"))
"""Seconds to wait after the last move for the deliveries still on their way (the
percentiles are of what arrived: cutting the wait short hides the slowest)."""
TIMEOUT = 60
IDLE = 10.0
"""Seconds over which the web processes' CPU with every stream open and idle is read
(keep-alives, the poll of watched games)."""


class Stream(asyncio.Protocol):
    """One SSE reader on a raw connection, as cheap as a client can be: an asyncio
    protocol (on uvloop) that keeps each chunk read with its arrival time and counts
    the ``data:`` lines in it; lines are split and parsed after the run, so that the
    client's own work, on the same cores as the servers, delays what it reads next
    as little as possible and inflates the figures least."""

    def __init__(self, game_id: str, after: int) -> None:
        self.game_id, self.after = game_id, after
        self.chunks: list[tuple[float, bytes]] = []
        self.received = 0
        self.open = False
        self.started: asyncio.Future | None = None
        self.transport: asyncio.Transport | None = None

    async def run(self, host: str, port: int, opened: asyncio.Semaphore) -> None:
        """Connect, ask for the stream, and return once its status line arrived.

        :raises RuntimeError: the answer is not a 200."""
        loop = asyncio.get_running_loop()
        async with opened:
            self.started = loop.create_future()
            await loop.create_connection(lambda: self, host, port)
            self.transport.write(
                (
                    f"GET /v1/games/{self.game_id}/stream HTTP/1.1\r\nHost: {host}\r\n"
                    f"Last-Event-ID: {self.after}\r\nAccept: text/event-stream\r\n\r\n"
                ).encode()
            )
            status = await self.started
            if b" 200 " not in status.split(b"\r\n", 1)[0]:
                raise RuntimeError(status[:200].decode(errors="replace"))
            self.open = True

    def connection_made(self, transport: asyncio.Transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.chunks.append((time.time(), data))
        self.received += data.count(b"\ndata: ")
        if not self.started.done():
            self.started.set_result(data)

    def connection_lost(self, exc) -> None:
        if not self.started.done():
            self.started.set_exception(RuntimeError(f"connection lost: {exc!r}"))

    def clear(self) -> None:
        """Forget what arrived so far (keeping a line cut in two by the last read)."""
        rest = b"".join(data for _, data in self.chunks).rpartition(b"\n")[2]
        self.chunks = [(0.0, rest)] if rest else []
        self.received = 0

    def events(self) -> list[tuple[int, float]]:
        """Return ``(seq, delay in seconds)`` of each event received: arrival minus
        the event's ``at`` (a line cut by a read arrived with the read that ends it)."""
        out, rest = [], b""
        for arrived, data in self.chunks:
            *lines, rest = (rest + data).split(b"\n")
            for line in lines:
                if line.startswith(b"data: "):
                    event = json.loads(line[6:])
                    at = datetime.fromisoformat(event["at"].replace("Z", "+00:00"))
                    out.append((event["seq"], arrived - at.timestamp()))
        return out


def p50_unrelated(url: str, count: int = 200) -> float:
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
        answer = requests.post(
            f"{url}/v1/games",
            timeout=TIMEOUT,
            json={"engine": "dark-horse", "players": [{"name": "Ann"}, {"name": "Bob"}]},
        )
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
    print(
        f"streams: {common.machine()}; {STREAMS} streams over {GAMES} games; open-file "
        f"limit {limit}",
        flush=True,
    )
    try:
        with (
            common.postgres_schema() as pg,
            common.redis_database() as broker,
            common.instance_dir("streams") as folder,
            common.Stack(folder, pg, broker, web_workers=2, threads=8) as stack,
        ):
            run(report, stack)
    except common.Skip as why:
        report.skip("postgres + redis", str(why))
    report.done()


def run(report: common.Report, stack: common.Stack) -> None:
    """Create the games, measure, open the streams, measure again, play, report."""
    case = "postgres + redis"
    url = stack.url
    started = time.monotonic()
    games = create_games(url, GAMES)
    hot, cold = games[0], games[1:] or games
    web, worker = stack.procs[0].pid, stack.procs[1].pid
    rng = random.Random(13)
    with ThreadPoolExecutor(8) as pool:  # every setup rolled: no backlog in the figures
        list(pool.map(lambda g: settled(url, g), games))
    print(f"  {len(games)} games in {time.monotonic() - started:.0f} s", flush=True)
    quiet = p50_unrelated(url)
    cpu_before = common.tree_cpu_seconds(web)  # as many moves, other games, no stream
    play_round(url, games[-1], games[-1 - COLD_MOVES : -1], rng, lambda game: 0)
    time.sleep(1)
    bare_cpu = common.tree_cpu_seconds(web) - cpu_before
    with ThreadPoolExecutor(8) as pool:
        versions = dict(pool.map(lambda g: (g["id"], settled(url, g)["version"]), games))
    streams = [Stream(hot["id"], versions[hot["id"]]) for _ in range(STREAMS // 2)]
    streams += [
        Stream(g["id"], versions[g["id"]])
        for g, _ in zip(_cycle(cold), range(STREAMS - len(streams)))
    ]
    loop = uvloop.new_event_loop()
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
    report.add(
        case,
        "streams open",
        f"{sum(s.open for s in streams)} of {len(streams)} "
        f"({len(failed)} failed) in {time.monotonic() - opening:.0f} s",
    )
    if failed:
        report.note(f"a stream failed to open: {failed[0].exception()!r}"[:300])
    time.sleep(2)
    for s in streams:  # what arrived so far is the backlog of setup rolls
        loop.call_soon_threadsafe(s.clear)
    time.sleep(0.5)
    idle_before = common.tree_cpu_seconds(web)
    time.sleep(IDLE)
    idle = (common.tree_cpu_seconds(web) - idle_before) / IDLE
    busy = p50_unrelated(url)
    report.add(case, "unrelated p50 no streams", common.ms(quiet))
    report.add(case, f"unrelated p50, {len(streams)} open", common.ms(busy))
    report.add(case, "unrelated ratio (<= 1.25)", f"{busy / quiet:.2f}")
    report.add(case, f"web CPU, {len(streams)} idle streams", f"{1000 * idle:.0f} ms/s")
    cpu_before = (
        common.tree_cpu_seconds(web),
        common.tree_cpu_seconds(worker),
        time.process_time(),
    )
    readers = {}
    for s in streams:
        readers[s.game_id] = readers.get(s.game_id, 0) + s.open
    expected = play_round(url, hot, cold, rng, lambda game: readers.get(game["id"], 0))
    waited = time.monotonic()  # until every expected delivery is in (at most DRAIN s)
    while sum(s.received for s in streams) < expected and time.monotonic() - waited < DRAIN:
        time.sleep(0.5)
    time.sleep(1)
    cpu = [
        after - before
        for after, before in zip(
            (common.tree_cpu_seconds(web), common.tree_cpu_seconds(worker), time.process_time()),
            cpu_before,
        )
    ]
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    received = {id(s): s.events() for s in streams}
    delays = [d for events in received.values() for _, d in events]
    report.add(case, "deliveries received", f"{len(delays)} (moves alone: {expected})")
    report.add(case, "delivery p50 (<= 100 ms)", common.ms(common.percentile(delays, 50)))
    report.add(case, "delivery p95 (<= 200 ms)", common.ms(common.percentile(delays, 95)))
    duplicates = sum(len(e) - len({seq for seq, _ in e}) for e in received.values())
    report.add(case, "duplicate deliveries", str(duplicates))
    committed = len({(s.game_id, seq) for s in streams for seq, _ in received[id(s)]})
    report.add(case, "events committed (seen)", str(committed))
    for name, seconds in zip(("web", "worker", "bench client"), cpu):
        report.add(case, f"{name} CPU s (moves + drain)", f"{seconds:.1f}")
    report.add(case, "web CPU s, same moves, no streams", f"{bare_cpu:.1f}")
    streaming = cpu[0] - bare_cpu
    report.add(case, "web CPU ms per event, streams", f"{1000 * streaming / max(committed, 1):.1f}")
    report.add(
        case, "web CPU us per delivery, streams", f"{1e6 * streaming / max(len(delays), 1):.0f}"
    )
    report.add(case, "client CPU us per delivery", f"{1e6 * cpu[2] / max(len(delays), 1):.0f}")
    report.note(f"load average {load} after the moves (2 cores shared with other work)")
    for task in tasks:
        loop.call_soon_threadsafe(task.cancel)


def play_round(url: str, hot: dict, cold: list[dict], rng: random.Random, readers) -> int:
    """Play ``MOVES`` moves on ``hot`` (0.3 s apart), then one on each of the first
    ``COLD_MOVES`` cold games; return the deliveries expected (each move's events
    times ``readers(game)``)."""
    expected = 0
    for _ in range(MOVES):
        expected += play_one(url, hot, rng) * readers(hot)
        time.sleep(0.3)
    for game in cold[:COLD_MOVES]:
        expected += play_one(url, game, rng) * readers(game)
    return expected


def _cycle(items: list):
    while True:
        yield from items


if __name__ == "__main__":
    main()
