"""The harness of the fault tests: the service's real processes on a PostgreSQL and a
Redis of the test's own, a driver that plays games over HTTP like impatient clients
and records every answer, and the checks that nothing was lost or doubled."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import requests
import sqlalchemy as sa

from arbiter import create_app
from arbiter.extensions import db
from arbiter.games.notify import TURN_OVER
from arbiter.models import OutboxMail
from arbiter.settings import environment
from arbiter.verify import verify
from tests import processes
from tests.conftest import free_port
from tests.helpers import agreed

PASSED_OVER = f"not sent: {TURN_OVER}"

BIN = processes.BIN
SOAK = os.environ.get("ARBITER_FAULT_PROFILE") == "soak"
"""``make soak`` sets ARBITER_FAULT_PROFILE=soak: more games, the outages the issue
names at full length (a minute of Redis, minutes of SMTP)."""


class Stack:
    """The Procfile's processes: web (uvicorn), worker (chance + clock), mailer (mail),
    hooks (web hooks) and beat, with ``env``; each can be killed and started again by
    name."""

    def __init__(
        self, folder: Path, database_url: str, broker_url: str, smtp_url: str, **settings: str
    ) -> None:
        self.folder, self.logs = folder, folder / "logs"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = environment(
            {
                **os.environ,
                "ARBITER_INSTANCE_PATH": str(folder / "instance"),
                "DATABASE_URL": database_url,
                "CELERY_BROKER_URL": broker_url,
                "SMTP_URL": smtp_url,
                "BASE_URL": self.url,
                "SECRET_KEY": uuid.uuid4().hex,
                "PATH": f"{BIN}:{os.environ['PATH']}",
                "CLOCK_SWEEP_SECONDS": "1",
                "SWEEP_SECONDS": "5",
                "OPEN_CREATION": "1",
                **settings,
            }
        )
        subprocess.run(
            [BIN / "arbiter", "db-upgrade"], env=self.env, check=True, capture_output=True
        )
        self.commands = {
            "web": processes.web_command(self.port),
            **processes.celery_commands(folder),
        }
        self.procs: dict[str, subprocess.Popen] = {}
        self.starts = Counter()
        self.crashes: list[tuple[str, float, int]] = []
        self.killed: set[str] = set()
        for name in self.commands:
            self.start(name)
        processes.wait_until_up(self.url, list(self.procs.values()))
        self.watching = True
        threading.Thread(target=self._supervise, daemon=True).start()
        self.app = create_app(
            {"SQLALCHEMY_DATABASE_URI": database_url, "ENQUEUE": False, "TESTING": True}
        )

    def agree(self, emails: list[str]) -> None:
        """Make each address an account (as a sign-up would), so that it has agreed to
        game mail (issue 10: no mail to an address that has not)."""
        agreed(self.app, *emails)

    def _supervise(self) -> None:
        """Restart a process that exited by itself one second later, as a process
        manager would (systemd ``Restart=always``); each such exit is kept in
        ``crashes`` as ``(name, time.time(), exit code)``."""
        while self.watching:
            time.sleep(0.5)
            for name, proc in list(self.procs.items()):
                if (
                    name not in self.killed
                    and proc.poll() is not None
                    and self.procs.get(name) is proc  # not one replaced by start() meanwhile
                    and self.watching
                ):
                    self.crashes.append((name, time.time(), proc.returncode))
                    time.sleep(1.0)
                    self.start(name)

    def start(self, name: str) -> None:
        """Start process ``name`` (its log appended to ``logs/<name>.log``); a process
        :meth:`kill` stopped counts as killed until its successor runs, so that the
        supervisor never takes the killed one for a crash."""
        self.logs.mkdir(parents=True, exist_ok=True)
        out = open(self.logs / f"{name}.log", "a")
        self.starts[name] += 1
        self.procs[name] = subprocess.Popen(
            [str(c) for c in self.commands[name]],
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.killed.discard(name)

    def kill(self, name: str) -> None:
        """SIGKILL process ``name`` and its children (a prefork worker's pool: each
        process runs in a session of its own)."""
        proc = self.procs[name]
        self.killed.add(name)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(10)

    def alive(self) -> bool:
        """True when every process is running and none exited by itself."""
        return not self.crashes and all(p.poll() is None for p in self.procs.values())

    def stop(self) -> None:
        """Stop every process (SIGTERM, then SIGKILL to each process group)."""
        self.watching = False
        processes.stop(list(self.procs.values()))
        for proc in self.procs.values():
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        with self.app.app_context():
            db.engine.dispose()

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")


@dataclass
class Answer:
    """One HTTP exchange the driver made: when (``time.time()``), what, and how."""

    at: float
    what: str
    status: int | str
    seconds: float
    media: str = ""
    retry_after: str | None = None


@dataclass
class Driver:
    """Plays ``games`` Space Worm games of ``players`` seats with emails over HTTP,
    one thread per game, retrying whatever fails; seats in ``sleepers`` never move
    (the clock plays them). Every answer is kept in ``answers``. ``agree`` is called
    with the seats' addresses before the games are made (they must have agreed to
    mail, or the games would wait for their invitations)."""

    url: str
    games: int
    players: int = 3
    options: dict = field(default_factory=dict)
    clock: dict | None = None
    sleepers: tuple[int, ...] = ()
    think: float = 0.05
    answers: list[Answer] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    tokens: dict = field(default_factory=dict)
    moved: list[float] = field(default_factory=list)
    agree: Callable[[list[str]], None] | None = None

    def __post_init__(self) -> None:
        self.http = requests.Session()
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def call(self, method: str, path: str, what: str, **kwargs):
        """Make one request; record it; return the response or None (no answer)."""
        started = time.time()
        try:
            response = self.http.request(method, self.url + path, timeout=30, **kwargs)
        except requests.RequestException as err:
            self._keep(
                Answer(started, what, type(err).__name__, time.time() - started, str(err)[:300])
            )
            return None
        self._keep(
            Answer(
                started,
                what,
                response.status_code,
                time.time() - started,
                response.headers.get("Content-Type", ""),
                response.headers.get("Retry-After"),
            )
        )
        return response

    def _keep(self, answer: Answer) -> None:
        with self.lock:
            self.answers.append(answer)

    def create(self) -> None:
        """Create the games (each retried under one Idempotency-Key until created)."""
        if self.agree:
            self.agree(
                [f"g{g}s{s}@example.org" for g in range(self.games) for s in range(self.players)]
            )
        for g in range(self.games):
            body = {
                "engine": "space-worm",
                "options": self.options,
                "players": [
                    {"name": f"P{s}", "email": f"g{g}s{s}@example.org"} for s in range(self.players)
                ],
            }
            if self.clock:
                body["clock"] = self.clock
            key = uuid.uuid4().hex
            while True:
                answer = self.call(
                    "POST", "/v1/games", "create", json=body, headers={"Idempotency-Key": key}
                )
                if answer is not None and answer.status_code == 201:
                    break
                time.sleep(0.5)
            self.ids.append(answer.json()["id"])
            self.tokens[answer.json()["id"]] = [s["token"] for s in answer.json()["seats"]]

    def start(self) -> None:
        for game_id in self.ids:
            thread = threading.Thread(target=self._play, args=(game_id,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def wait_moves(self, count: int, seconds: float = 120) -> int:
        """Wait until ``count`` moves were made in all (or ``seconds`` passed); return
        how many games are still being played, so that a fault is injected mid-game
        however fast this machine plays (a fixed sleep let quick runs finish first)."""
        deadline = time.monotonic() + seconds
        while len(self.moved) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return sum(t.is_alive() for t in self.threads)

    def wait(self, seconds: float) -> bool:
        """Wait for every game to end; return True if all did within ``seconds``."""
        deadline = time.monotonic() + seconds
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(t.is_alive() for t in self.threads)

    def _play(self, game_id: str) -> None:
        rng = random.Random(game_id)
        tokens = self.tokens[game_id]
        give_up = time.monotonic() + 900
        while time.monotonic() < give_up:
            time.sleep(self.think)
            summary = self.call("GET", f"/v1/games/{game_id}", "summary")
            if summary is None or summary.status_code != 200:
                time.sleep(0.5)
                continue
            state = summary.json()
            if state["status"] == "over":
                return
            seats = [s for s in state["to_act"] if s not in self.sleepers]
            if not seats:  # wait for the roll or the clock, as a client would
                self.call(
                    "GET",
                    f"/v1/games/{game_id}/events?after={state['version']}&wait=2",
                    "long-poll",
                )
                continue
            seat = rng.choice(seats)
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = self.call(
                "GET", f"/v1/games/{game_id}/legal-moves", "legal-moves", headers=auth
            )
            if legal is None or legal.status_code != 200:
                time.sleep(0.5)
                continue
            body = legal.json()
            if not body["moves"]:
                continue
            moved = self.call(
                "POST",
                f"/v1/games/{game_id}/moves",
                "move",
                headers={**auth, "Idempotency-Key": uuid.uuid4().hex},
                json={"move": rng.choice(body["moves"]), "expected_version": body["version"]},
            )
            if moved is not None and moved.status_code == 201:
                with self.lock:
                    self.moved.append(time.time())

    # ------------------------------------------------------------------ figures

    def during(self, start: float, end: float) -> Counter:
        """Return the answers' statuses between two ``time.time()`` instants."""
        return Counter(a.status for a in self.answers if start <= a.at <= end)

    def first_success_after(self, instant: float) -> float | None:
        """Seconds from ``instant`` to the first 2xx answer started after it."""
        ok = [
            a.at + a.seconds
            for a in self.answers
            if a.at >= instant and isinstance(a.status, int) and a.status < 300
        ]
        return min(ok) - instant if ok else None

    def bad_answers(self) -> list[Answer]:
        """Answers no client should ever get: a 500 (or any 5xx but a 503 problem
        with Retry-After), a body that is not JSON, or a wait over 15 s."""
        bad = []
        for a in self.answers:
            if isinstance(a.status, int):
                json_body = "json" in a.media
                unavailable = a.status == 503 and "problem+json" in a.media and a.retry_after
                if (a.status >= 500 and not unavailable) or not json_body:
                    bad.append(a)
            if a.seconds > 15:
                bad.append(a)
        return bad


@dataclass
class Outcome:
    """What the checks found, for the test's assertions and its printed figures."""

    games: int = 0
    events: int = 0
    timeouts: int = 0
    mails: int = 0
    problems: list[str] = field(default_factory=list)


def settle_mail(stack: Stack, seconds: float = 120, game_ids: list[str] | None = None) -> None:
    """Wait until every outbox mail (of ``game_ids`` or of no game, when given) is sent (or
    ``seconds`` pass), then a moment for a late duplicate to arrive."""
    deadline = time.monotonic() + seconds
    query = (
        sa.select(sa.func.count())
        .select_from(OutboxMail)
        .where(OutboxMail.sent_at.is_(None), OutboxMail.given_up_at.is_(None))
    )
    if game_ids is not None:
        query = query.where(OutboxMail.game_id.in_(game_ids) | OutboxMail.game_id.is_(None))
    while time.monotonic() < deadline:
        with stack.app.app_context():
            waiting = db.session.scalar(query)
            db.session.remove()
        if waiting == 0:
            break
        time.sleep(0.5)
    time.sleep(1)


def _get_as_a_client(url: str, tries: int = 3):
    """GET ``url`` as a client would: a 503 with ``Retry-After`` is tried again after
    it (after a database outage, a web process's pooled connection that died with the
    server answers one 503 on its first use, then the pool is refreshed)."""
    for _ in range(tries - 1):
        answer = requests.get(url, timeout=30)
        if answer.status_code != 503 or "Retry-After" not in answer.headers:
            return answer
        time.sleep(min(float(answer.headers["Retry-After"]), 5.0))
    return requests.get(url, timeout=30)


def check(stack: Stack, driver: Driver, inbox) -> Outcome:
    """Check that nothing was lost or doubled; return what was found (``problems``
    lists every breach: a game not over, a gap in a log, a record that does not
    verify, a timeout applied twice, a mail missing, unsent, or received twice)."""
    out = Outcome()
    for game_id in driver.ids:
        record = _get_as_a_client(f"{stack.url}/v1/games/{game_id}/record")
        if record.status_code != 200:
            out.problems.append(f"{game_id}: record {record.status_code}")
            continue
        record = record.json()
        out.games += 1
        seqs = [e["seq"] for e in record["events"]]
        out.events += len(seqs)
        if seqs != list(range(1, len(seqs) + 1)):
            out.problems.append(f"{game_id}: events not gapless")
        verdict = verify(record)
        if not verdict.ok:
            out.problems.append(f"{game_id}: record does not verify: {verdict.mismatch}")
        enforced = [
            (e["seat"], e["payload"]["timeout"]["deadline"])
            for e in record["events"]
            if e["kind"] == "move" and "timeout" in e["payload"]
        ]
        out.timeouts += len(enforced)
        if len(set(enforced)) != len(enforced):
            out.problems.append(f"{game_id}: a timeout applied twice")
        _check_mail(stack, game_id, record, driver.players, inbox, out)
    _check_inbox(stack, inbox, out, driver.ids)
    return out


def _check_mail(
    stack: Stack, game_id: str, record: dict, players: int, inbox, out: Outcome
) -> None:
    """Exactly one turn mail per seat per prompt it owed, and one end mail per seat."""
    moves = Counter(e["seat"] for e in record["events"] if e["kind"] == "move")
    with stack.app.app_context():
        rows = list(db.session.scalars(sa.select(OutboxMail).where(OutboxMail.game_id == game_id)))
        keys = Counter(r.dedupe_key.split(":")[0] + f":{r.seat}" for r in rows)
        db.session.remove()
    for seat in range(players):
        if keys[f"turn:{seat}"] != moves[seat]:
            out.problems.append(
                f"{game_id}: seat {seat} has {keys[f'turn:{seat}']} turn "
                f"mails for {moves[seat]} prompts"
            )
        if keys[f"over:{seat}"] != 1:
            out.problems.append(f"{game_id}: seat {seat} has {keys[f'over:{seat}']} end mails")


def _check_inbox(stack: Stack, inbox, out: Outcome, game_ids: list[str]) -> None:
    """Every outbox mail of the games (and every mail of no game) sent and received
    exactly once; no Message-ID twice. Other drivers' games, still being played
    beside these, are checked when their own driver finishes."""
    with stack.app.app_context():
        rows = {
            r.id: r
            for r in db.session.scalars(
                sa.select(OutboxMail).where(
                    OutboxMail.game_id.in_(game_ids) | OutboxMail.game_id.is_(None)
                )
            )
        }
        passed = {i for i, r in rows.items() if r.last_error == PASSED_OVER}
        unsent = [i for i, r in rows.items() if i not in passed and r.sent_at is None]
        db.session.remove()
    if unsent:
        out.problems.append(f"{len(unsent)} mails not sent: {unsent[:10]}")
    ids = Counter(m["Message-ID"] for m in inbox.messages)
    twice = [i for i, n in ids.items() if n > 1]
    if twice:
        out.problems.append(f"{len(twice)} Message-IDs received twice: {twice[:5]}")
    received = {int(m["X-Arbiter-Outbox"]) for m in inbox.messages}
    missing = set(rows) - received - passed
    if passed & received:
        out.problems.append(f"turn mails passed over yet received: {sorted(passed & received)}")
    if missing:
        out.problems.append(f"{len(missing)} mails never received: {sorted(missing)[:10]}")
    out.mails = len(inbox.messages)


def events_of(stack: Stack, game_ids: list[str], kind: str | None = None) -> list:
    """Return ``(game_id, seq, kind, seat, payload, at as time.time())`` of the games'
    events, in log order."""
    from arbiter.models import Event

    with stack.app.app_context():
        query = (
            sa.select(Event).where(Event.game_id.in_(game_ids)).order_by(Event.game_id, Event.seq)
        )
        if kind:
            query = query.where(Event.kind == kind)
        rows = [
            (e.game_id, e.seq, e.kind, e.seat, e.payload, e.at.timestamp())
            for e in db.session.scalars(query)
        ]
        db.session.remove()
    return rows


def roll_delays(stack: Stack, game_ids: list[str]) -> list[float]:
    """Seconds from the event that made each game wait for chance to its roll."""
    rows = events_of(stack, game_ids)
    delays = []
    for before, event in zip(rows, rows[1:]):
        if (
            event[2] == "chance"
            and before[0] == event[0]
            and before[2] != "chance"
            and before[2] != "seat-joined"
        ):
            delays.append(event[5] - before[5])
    return delays


def timeout_lateness(stack: Stack, game_ids: list[str]) -> list[float]:
    """Seconds from each enforced deadline to its timeout move's commit."""
    from datetime import datetime

    out = []
    for _, _, _, _, payload, at in events_of(stack, game_ids, "move"):
        if "timeout" in payload:
            deadline = datetime.fromisoformat(payload["timeout"]["deadline"].replace("Z", "+00:00"))
            out.append(at - deadline.timestamp())
    return out


def passed_over(stack: Stack) -> set[int]:
    """Return the ids of the turn mails not sent because their turn was over before
    they could go (a late "your turn" would earn only a refusal)."""
    with stack.app.app_context():
        ids = set(
            db.session.scalars(sa.select(OutboxMail.id).where(OutboxMail.last_error == PASSED_OVER))
        )
        db.session.remove()
    return ids


def unsent_ids(stack: Stack) -> list[tuple[int, float]]:
    """Return ``(id, created_at as time.time())`` of the mails not sent yet."""
    with stack.app.app_context():
        rows = [
            (m.id, m.created_at.timestamp())
            for m in db.session.scalars(sa.select(OutboxMail).where(OutboxMail.sent_at.is_(None)))
        ]
        db.session.remove()
    return rows


def arrivals(inbox) -> dict[int, float]:
    """Return ``{outbox id: when it first arrived}``."""
    out = {}
    for message, at in zip(list(inbox.messages), list(inbox.times)):
        out.setdefault(int(message["X-Arbiter-Outbox"]), at)
    return out
