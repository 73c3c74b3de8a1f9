"""``make soak-multihost``: the several-machines deployment on network namespaces
(:mod:`tests.multihost.topology`), Space Worm games of random legal moves played through
the balancer, and host losses:

1. and 2. **a worker host that vanishes while it holds a write transaction**: its
   processes are frozen (SIGSTOP) at a moment when one of its database sessions is
   inside a transaction that has written (``backend_xid`` set), first one holding a
   game's row (``work1``), then one holding the clock's row (``work2``), and its link is
   cut, so PostgreSQL sees neither FIN nor RST; after ``ARBITER_MH_HOLD`` seconds it
   "reboots" (killed, link up, started again);
3. **a web host killed with SIGKILL under load**, started again 20 s later.
4. at the end, **no web host**: both killed and one replaced by a process that answers
   nothing; the balancer's own 502 and 503 must be problem+json with a Retry-After.

Then it stops making games, lets the last ones end, and checks (``tests.e2e.faults.check``
and its own): every game over with its log gapless (seq 1..n) and its record verifying;
every move a client was told was accepted in the log once, at the seq it was told, and
no move in the log that no client was told of; every mail received, once per
Message-ID (a copy with the same Message-ID only of a mail whose first send a dead host
cut off after the SMTP server took it); every deadline enforced once; no answer that is not
JSON (the balancer's error pages are problem+json); the longest stall of any game
after a host loss under two minutes. It prints its figures and exits 1 on a breach.

Run as root: ``make soak-multihost`` (haproxy must be installed: ``apt-get install -y
haproxy``). ``ARBITER_MH_GAMES`` games at a time (default 4, two of them clocked with a
seat that never moves), ``ARBITER_MH_HOLD`` (default 75 s), ``ARBITER_MH_WARMUP``
(default 30 s), ``ARBITER_MH_KEEP=1`` keeps
the logs folder.
"""

from __future__ import annotations

import os
import random
import signal
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from email import message_from_bytes
from email.policy import default as default_policy
from types import SimpleNamespace

import psycopg
import requests

from tests.multihost.topology import Testbed, address

GAMES = int(os.environ.get("ARBITER_MH_GAMES", "4"))
CLOCKED = min(2, GAMES // 2)
HOLD = float(os.environ.get("ARBITER_MH_HOLD", "75"))
WARMUP = float(os.environ.get("ARBITER_MH_WARMUP", "30"))
TARGET = 120.0
PLAYERS = 3
THINK = 0.4
SETTINGS = {
    "OPEN_CREATION": "1",
    "RATELIMIT_ENABLED": "0",  # one client address plays every seat
    "CLOCK_SWEEP_SECONDS": "2",
    "SWEEP_SECONDS": "5",
    "MAIL_CLAIM_SECONDS": "60",  # a mail a dead mailer was sending goes out after this
}
"""Settings the soak changes from the defaults (the DB_* limits stay as shipped)."""


@dataclass
class Accepted:
    game: str
    key: str
    seat: int
    seq: int
    at: float
    tries: int


@dataclass
class Answer:
    at: float
    what: str
    status: int | str
    seconds: float
    media: str = ""


@dataclass
class Driver:
    """``GAMES`` players, each playing one game after another through ``url`` until
    :meth:`finish`; a move whose answer was lost or was a 5xx is sent again with the
    same Idempotency-Key until it gets a definite answer."""

    url: str
    agree: object
    accepted: list[Accepted] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    clocked: set[str] = field(default_factory=set)
    unknown: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self._player, args=(slot,), daemon=True)
            for slot in range(GAMES)
        ]
        self.agree(
            [f"s{slot}p{seat}@example.org" for slot in range(GAMES) for seat in range(PLAYERS)]
        )

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def finish(self, seconds: float) -> bool:
        """Make no new game; wait for the games in play to end."""
        self.stopping.set()
        deadline = time.monotonic() + seconds
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(t.is_alive() for t in self.threads)

    def call(self, http, method: str, path: str, what: str, **kwargs):
        started = time.time()
        try:
            response = http.request(method, self.url + path, timeout=30, **kwargs)
        except requests.RequestException as err:
            self._keep(Answer(started, what, type(err).__name__, time.time() - started))
            return None
        self._keep(
            Answer(
                started,
                what,
                response.status_code,
                time.time() - started,
                response.headers.get("Content-Type", ""),
            )
        )
        return response

    def _keep(self, answer: Answer) -> None:
        with self.lock:
            self.answers.append(answer)

    def until_definite(self, http, method: str, path: str, what: str, **kwargs):
        """Send until the answer is neither lost nor 5xx nor 429 (the same request,
        the same Idempotency-Key); return ``(response, tries)`` or ``(None, tries)``
        after two minutes."""
        give_up = time.monotonic() + 120
        tries = 0
        while time.monotonic() < give_up:
            tries += 1
            response = self.call(http, method, path, what, **kwargs)
            if response is not None and response.status_code < 500 and response.status_code != 429:
                return response, tries
            wait = 0.5
            if response is not None and response.headers.get("Retry-After", "").isdigit():
                wait = min(float(response.headers["Retry-After"]), 5.0)
            time.sleep(wait)
        return None, tries

    def _player(self, slot: int) -> None:
        http = requests.Session()
        rng = random.Random(slot)
        clocked = slot < CLOCKED
        while not self.stopping.is_set():
            body = {
                "engine": "space-worm",
                "options": {"sheet": "small"},
                "players": [
                    {"name": f"P{seat}", "email": f"s{slot}p{seat}@example.org"}
                    for seat in range(PLAYERS)
                ],
            }
            if clocked:
                body["clock"] = {"type": "per-move", "seconds": 4}
            created, _ = self.until_definite(
                http,
                "POST",
                "/v1/games",
                "create",
                json=body,
                headers={"Idempotency-Key": uuid.uuid4().hex},
            )
            if created is None or created.status_code != 201:
                time.sleep(1)
                continue
            game = created.json()
            with self.lock:
                self.ids.append(game["id"])
                if clocked:
                    self.clocked.add(game["id"])
            self._play(http, rng, game["id"], [s["token"] for s in game["seats"]], clocked)

    def _play(self, http, rng, game_id: str, tokens: list[str], clocked: bool) -> None:
        sleepers = (1,) if clocked else ()
        give_up = time.monotonic() + 900
        while time.monotonic() < give_up:
            time.sleep(THINK)
            summary = self.call(http, "GET", f"/v1/games/{game_id}", "summary")
            if summary is None or summary.status_code != 200:
                time.sleep(0.5)
                continue
            state = summary.json()
            if state["status"] == "over":
                return
            seats = [s for s in state["to_act"] if s not in sleepers]
            if not seats:
                self.call(
                    http,
                    "GET",
                    f"/v1/games/{game_id}/events?after={state['version']}&wait=2",
                    "long-poll",
                )
                continue
            seat = rng.choice(seats)
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = self.call(
                http, "GET", f"/v1/games/{game_id}/legal-moves", "legal-moves", headers=auth
            )
            if legal is None or legal.status_code != 200 or not legal.json()["moves"]:
                time.sleep(0.5)
                continue
            key = uuid.uuid4().hex
            moved, tries = self.until_definite(
                http,
                "POST",
                f"/v1/games/{game_id}/moves",
                "move",
                headers={**auth, "Idempotency-Key": key},
                json={
                    "move": rng.choice(legal.json()["moves"]),
                    "expected_version": legal.json()["version"],
                },
            )
            if moved is None:
                with self.lock:
                    self.unknown.append(f"{game_id} key {key}")
            elif moved.status_code == 201:
                with self.lock:
                    self.accepted.append(
                        Accepted(game_id, key, seat, moved.json()["seq"], time.time(), tries)
                    )


# ------------------------------------------------------------------ observing PostgreSQL


def query(url: str, sql: str, *args) -> list[tuple]:
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        return conn.execute(sql, args).fetchall()


HELD = """
select a.pid, a.state, round(extract(epoch from now() - a.xact_start)::numeric, 1),
       left(regexp_replace(a.query, '\\s+', ' ', 'g'), 140),
       (select string_agg(distinct c.relname, ',') from pg_locks l
          join pg_class c on c.oid = l.relation
         where l.pid = a.pid and c.relkind = 'r'
           and l.mode in ('RowExclusiveLock', 'RowShareLock'))
  from pg_stat_activity a
 where a.client_addr = %s and a.backend_xid is not null
"""


def vanish_holding_a_transaction(
    bed: Testbed, host: str, table: str | None = None, seconds: float = 90
) -> dict:
    """Freeze ``host`` until one of its sessions is caught inside a transaction that
    has written (with a row of ``table`` locked, when given: for the first
    ``seconds``, then any), then cut its link; return what was caught."""
    rng = random.Random(7)
    start = time.monotonic()
    tries = 0
    while time.monotonic() - start < 2 * seconds:
        tries += 1
        bed.freeze(host)
        held = query(bed.database_url, HELD, address(host))
        wanted = table is None or time.monotonic() - start > seconds
        if held and (wanted or any(table in (row[4] or "").split(",") for row in held)):
            bed.cut(host)
            return {"tries": tries, "at": time.time(), "held": held}
        bed.thaw(host)
        time.sleep(rng.uniform(0.02, 0.25))
    bed.cut(host)  # never caught: still a dead host
    return {"tries": tries, "at": time.time(), "held": []}


def watch_held(bed: Testbed, pids: list[int], seconds: float) -> dict:
    """Poll every second for ``seconds``: when the held sessions ended, the most
    sessions waiting on a lock at once."""
    start = time.time()
    ended, most_waiting = None, 0
    while time.time() - start < seconds:
        alive = query(
            bed.database_url,
            "select count(*) from pg_stat_activity where pid = any(%s)",
            pids,
        )[0][0]
        waiting = query(
            bed.database_url,
            "select count(*) from pg_stat_activity where wait_event_type = 'Lock'",
        )[0][0]
        most_waiting = max(most_waiting, waiting)
        if not alive and ended is None:
            ended = time.time() - start
        time.sleep(1)
    return {"ended_after": ended, "most_waiting_on_a_lock": most_waiting}


# ------------------------------------------------------------------ figures


def buckets(times: list[float], start: float, end: float, width: float = 10) -> list[int]:
    n = int((end - start) // width) + 1
    out = [0] * n
    for t in times:
        if start <= t < end:
            out[int((t - start) // width)] += 1
    return out


def log_gaps(url: str, ids: list[str], start: float, end: float) -> dict[str, float]:
    """For each game, the longest gap between two events of its log among those
    around ``start``..``end`` (the gap that spans the window counts)."""
    rows = query(
        url,
        "select game_id, extract(epoch from at) from events where game_id = any(%s) "
        "order by game_id, seq",
        ids,
    )
    by_game: dict[str, list[float]] = {}
    for game, at in rows:
        by_game.setdefault(game, []).append(float(at))
    gaps = {}
    for game, times in by_game.items():
        longest = 0.0
        for before, after in zip(times, times[1:]):
            if after >= start and before <= end:
                longest = max(longest, after - before)
        if times[0] <= end and times[-1] >= start:
            gaps[game] = longest
    return gaps


def read_inbox(bed: Testbed) -> tuple[SimpleNamespace, list[str]]:
    """Return the mails the sink received, one per Message-ID (as a receiving MTA
    deduplicates), and the Message-IDs received more than once."""
    messages, seen, again = [], set(), []
    for path in sorted(bed.mail_folder.glob("*.eml"), key=lambda p: int(p.stem)):
        message = message_from_bytes(path.read_bytes(), policy=default_policy)
        if message["Message-ID"] in seen:
            again.append(message["Message-ID"])
            continue
        seen.add(message["Message-ID"])
        messages.append(message)
    return SimpleNamespace(messages=messages), again


def check_again(url: str, inbox: SimpleNamespace, again: list[str]) -> list[str]:
    """A mail received twice must be one whose first send was cut off by a host that
    died between the SMTP server's answer and the outbox's commit, so that it was sent
    again once its claim ran out (``attempts`` over 1); a mail sent twice otherwise is
    a breach."""
    problems = []
    outbox = {m["Message-ID"]: int(m["X-Arbiter-Outbox"]) for m in inbox.messages}
    for message_id in again:
        rows = query(url, "select attempts from outbox where id = %s", outbox[message_id])
        if not rows or rows[0][0] < 2:
            problems.append(f"{message_id} received twice although sent once")
    return problems


def mail_delays(url: str, ids: list[str]) -> list[float]:
    rows = query(
        url,
        "select extract(epoch from sent_at - created_at) from outbox "
        "where sent_at is not null and (game_id = any(%s) or game_id is null)",
        ids,
    )
    return sorted(float(r[0]) for r in rows)


def check_moves(url: str, driver: Driver) -> list[str]:
    """Every accepted move in its game's log once, at the seq its answer named, as a
    move of its seat; no move by a client in the logs that no answer accepted."""
    problems = []
    rows = query(
        url,
        "select game_id, seq, seat, payload::jsonb ? 'timeout' from events "
        "where kind = 'move' and game_id = any(%s)",
        driver.ids,
    )
    logged = {(g, s): (seat, timeout) for g, s, seat, timeout in rows}
    seen = Counter((a.game, a.seq) for a in driver.accepted)
    for (game, seq), n in seen.items():
        if n > 1:
            problems.append(f"{game}: seq {seq} accepted {n} times")
    for a in driver.accepted:
        found = logged.get((a.game, a.seq))
        if found is None or found[0] != a.seat or found[1]:
            problems.append(f"{a.game}: accepted move at seq {a.seq} is not in the log")
    by_client = {k for k, (_, timeout) in logged.items() if not timeout}
    stray = by_client - set(seen)
    if stray:
        problems.append(
            f"{len(stray)} moves in the logs that no answer accepted: {sorted(stray)[:5]}"
        )
    return problems


def fmt(seconds) -> str:
    return "-" if seconds is None else f"{seconds:.1f} s"


def worker_host_vanishes(bed: Testbed, host: str, table: str | None) -> dict:
    """Scenario: ``host`` frozen and cut inside a write transaction, dead for ``HOLD``
    seconds, then rebooted; return what was caught and measured."""
    what = f"a row of {table}" if table else "a write transaction"
    print(f"[multihost] freezing {host} while it holds {what}, cutting its link", flush=True)
    caught = vanish_holding_a_transaction(bed, host, table)
    watched = watch_held(bed, [row[0] for row in caught["held"]], HOLD)
    bed.kill_host(host)
    bed.mend(host)
    bed.start_host(host)
    end = time.time()
    print(f"[multihost] {host} back after {end - caught['at']:.0f} s", flush=True)
    return {"host": host, "table": table, **caught, **watched, "end": end}


def web_host_killed(bed: Testbed, host: str) -> dict:
    """Scenario: every process of ``host`` SIGKILLed under load, started again 20 s
    later; return when it answered ``/readyz`` again."""
    print(f"[multihost] SIGKILL to every process of {host}", flush=True)
    at = time.time()
    bed.kill_host(host)
    time.sleep(20)
    bed.start_host(host)
    back = None
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://{address(host)}:8000/readyz", timeout=3).ok:
                back = time.time() - at
                break
        except requests.RequestException:
            pass
        time.sleep(1)
    time.sleep(15)
    return {"host": host, "at": at, "back": back, "end": time.time()}


CLOSER = """
import socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 8000))
s.listen(64)
while True:
    c, _ = s.accept()
    c.recv(65536)
    c.close()
"""
"""A web host that reads a request and closes the connection without an answer."""


def no_web_host(bed: Testbed) -> dict:
    """At the end: both web hosts killed, and on web1 a process that takes each request
    and answers nothing; what the balancer answers, at once (its 502: web1 is still
    marked up) and once its checks took both out (its 503). Each must be
    problem+json with a Retry-After, never haproxy's HTML."""
    bed.kill_host("web1")
    bed.kill_host("web2")
    bed.spawn("web1", "closer", [sys.executable, "-c", CLOSER])
    time.sleep(0.5)
    seen = []
    for wait in (0, 8):
        time.sleep(wait)
        try:
            answer = requests.get(f"{bed.url}/v1/engines", timeout=30)
        except requests.RequestException as err:
            seen.append((type(err).__name__, "", None, None))
            continue
        body = answer.json() if "json" in answer.headers.get("Content-Type", "") else None
        seen.append(
            (
                answer.status_code,
                answer.headers.get("Content-Type", ""),
                answer.headers.get("Retry-After"),
                (body or {}).get("code"),
            )
        )
    return {"answers": seen}


def main() -> int:
    started = time.time()
    for sig in (signal.SIGTERM, signal.SIGHUP):  # the testbed is removed on these too
        signal.signal(sig, lambda number, frame: sys.exit(128 + number))
    with Testbed(settings=SETTINGS) as bed:
        print(f"[multihost] building the testbed in {bed.folder}", flush=True)
        bed.up()
        print(f"[multihost] up after {time.time() - started:.0f} s; load {os.getloadavg()}")
        os.environ["ARBITER_INSTANCE_PATH"] = str(bed.folder / "checker")
        os.environ["SECRET_KEY"] = bed.env["SECRET_KEY"]
        from arbiter import create_app
        from arbiter.extensions import db
        from tests.e2e.faults import check, settle_mail
        from tests.helpers import agreed

        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": bed.database_url, "ENQUEUE": False, "TESTING": True}
        )
        driver = Driver(bed.url, lambda emails: agreed(app, *emails))
        play_start = time.time()
        driver.start()
        time.sleep(WARMUP)
        vanished = [worker_host_vanishes(bed, "work1", "games")]
        time.sleep(20)
        vanished.append(worker_host_vanishes(bed, "work2", "clock_sweeps"))
        time.sleep(20)
        killed = web_host_killed(bed, "web1")

        print("[multihost] no new games; waiting for the last ones to end", flush=True)
        all_over = driver.finish(300)
        play_end = time.time()
        stack = SimpleNamespace(url=bed.url, app=app)
        settle_mail(stack, 300, driver.ids)
        time.sleep(3)
        inbox, again = read_inbox(bed)
        outcome = check(stack, SimpleNamespace(ids=driver.ids, players=PLAYERS), inbox)
        problems = list(outcome.problems)
        problems += check_again(bed.database_url, inbox, again)
        if not all_over:
            problems.append("some games did not end within 300 s")
        problems += check_moves(bed.database_url, driver)
        problems += [f"move of unknown fate: {u}" for u in driver.unknown]
        not_json = [
            a for a in driver.answers if isinstance(a.status, int) and "json" not in a.media
        ]
        if not_json:
            problems.append(f"{len(not_json)} answers not JSON: {not_json[:3]}")
        with app.app_context():
            db.engine.dispose()
        gone = no_web_host(bed)
        for status, media, retry, code in gone["answers"]:
            if media != "application/problem+json" or not retry or not code:
                problems.append(f"with no web host the balancer answered {status} {media}")

        # ---------------------------------------------------------------- figures
        moves_at = sorted(a.at for a in driver.accepted)
        before = buckets(moves_at, play_start + 10, vanished[0]["at"])[:-1]
        delays = mail_delays(bed.database_url, driver.ids)
        retried = [a for a in driver.accepted if a.tries > 1]
        print()
        print(
            f"[multihost] {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, "
            f"load average at the end {os.getloadavg()}, {os.cpu_count()} cores"
        )
        print(
            f"  games: {outcome.games} over ({len(driver.ids)} made, {len(driver.clocked)} "
            f"clocked with a seat that never moves), {outcome.events} events; every log "
            f"gapless (seq 1..n) and verified: "
            f"{not any('gapless' in p or 'verify' in p for p in problems)}"
        )
        print(
            f"  moves accepted: {len(driver.accepted)}, each in its log once ({len(retried)} "
            f"after a retry with their Idempotency-Key); of unknown fate: {len(driver.unknown)}"
        )
        print(
            f"  deadlines enforced: {outcome.timeouts}, none twice; mails: {outcome.mails} "
            f"Message-IDs, each received (again with the same Message-ID: {len(again)}); "
            f"mail delay p50 {fmt(statistics.median(delays or [0]))}, "
            f"max {fmt(max(delays or [0]))}"
        )
        print(
            f"  accepted moves per 10 s, from the first: {buckets(moves_at, play_start, play_end)}"
        )
        print(f"  before the first fault: median {statistics.median(before or [0])} per 10 s")
        stall = 0.0
        for n, v in enumerate(vanished, 1):
            gaps = log_gaps(bed.database_url, driver.ids, v["at"], v["end"])
            longest = max(gaps.values(), default=0.0)
            stall = max(stall, longest)
            print(
                f"  {n}. worker host {v['host']} frozen and cut inside a write transaction "
                f"(wanted a row of {v['table']}; caught after {v['tries']} freezes):"
            )
            for pid, state, age, sql, tables in v["held"]:
                print(f"     backend {pid} {state} for {age} s, locked rows of {tables}: {sql}")
            print(
                f"     its sessions ended on the server after {fmt(v['ended_after'])}; "
                f"most sessions waiting on a lock at once: {v['most_waiting_on_a_lock']}"
            )
            print(f"     moves per 10 s while gone: {buckets(moves_at, v['at'], v['end'])}")
            print(
                f"     longest gap in a game's log: {longest:.1f} s (median over {len(gaps)} "
                f"games {statistics.median(gaps.values() or [0]):.1f} s)"
            )
        k = killed
        gaps = log_gaps(bed.database_url, driver.ids, k["at"], k["end"])
        longest = max(gaps.values(), default=0.0)
        stall = max(stall, longest)
        during = Counter(
            (a.what, a.status) for a in driver.answers if k["at"] <= a.at <= k["at"] + 30
        )
        errors = {f"{w} {s}": n for (w, s), n in during.items() if s not in (200, 201)}
        slowest = max(
            (a.seconds for a in driver.answers if k["at"] <= a.at <= k["at"] + 30), default=0
        )
        moves = sum(n for (w, s), n in during.items() if w == "move" and s == 201)
        print(
            f"  {len(vanished) + 1}. web host {k['host']} killed (SIGKILL), started again "
            f"after 20 s, ready again after {fmt(k['back'])}:"
        )
        print(
            f"     in the 30 s after: {moves} moves accepted, answers other than 200/201: "
            f"{errors or 'none'}; slowest answer {slowest:.1f} s"
        )
        retried_then = [a for a in retried if k["at"] <= a.at <= k["at"] + 60]
        print(
            f"     moves accepted after a retry: {len(retried_then)}; moves per 10 s: "
            f"{buckets(moves_at, k['at'], k['end'])}; longest gap in a game's log: {longest:.1f} s"
        )
        print(
            "  4. both web hosts gone (at the end): the balancer answered "
            + "; ".join(f"{s} {m} code {c}, Retry-After {r}" for s, m, r, c in gone["answers"])
        )
        print(
            f"  longest stall of any game after a host loss: {stall:.1f} s "
            f"(target under {TARGET:.0f} s)"
        )
        if stall >= TARGET:
            problems.append(f"a game stalled {stall:.0f} s after a host loss")
        print(f"  run: {time.time() - started:.0f} s in all; logs in {bed.logs}")
        if problems:
            print("[multihost] PROBLEMS:")
            for p in problems:
                print(f"  - {p}")
            return 1
        print("[multihost] OK: nothing lost, nothing doubled, every stall under the target")
        return 0


if __name__ == "__main__":
    sys.exit(main())
