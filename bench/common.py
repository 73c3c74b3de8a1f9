"""Shared helpers for the benchmarks: throw-away instance folders, a fresh PostgreSQL
schema, a free Redis database, the web + worker processes, percentiles and the rows
each benchmark reports to ``run_all.py``.

Nothing here is a benchmark. Servers are looked up from, in order,
``ARBITER_BENCH_POSTGRES_URL`` / ``ARBITER_BENCH_REDIS_URL``, then the test variables
``ARBITER_TEST_POSTGRES_URL`` / ``ARBITER_TEST_REDIS_URL``, then the local defaults
``postgresql://postgres@127.0.0.1:5432/test`` and ``redis://127.0.0.1:6379``. A server
that does not answer makes the part that needs it print ``skipped: <reason>``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from arbiter.settings import environment

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
BIN = Path(sys.executable).parent
if str(ROOT) not in sys.path:  # run as ``python bench/x.py`` from anywhere
    sys.path.insert(0, str(ROOT))

from tests import processes  # noqa: E402 - the Procfile's commands, as the tests run them

POSTGRES_URL = (
    os.environ.get("ARBITER_BENCH_POSTGRES_URL")
    or os.environ.get("ARBITER_TEST_POSTGRES_URL")
    or "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = (
    os.environ.get("ARBITER_BENCH_REDIS_URL")
    or os.environ.get("ARBITER_TEST_REDIS_URL")
    or "redis://127.0.0.1:6379"
)
KEEP = os.environ.get("ARBITER_BENCH_KEEP") == "1"


class Skip(Exception):
    """A part of a benchmark cannot run here (a server does not answer)."""


# --------------------------------------------------------------------------- reporting


class Report:
    """The figures of one benchmark: printed as they come, written as JSON for
    ``run_all.py`` when the script got ``--json FILE``."""

    def __init__(self, bench: str, argv: list[str] | None = None) -> None:
        parser = argparse.ArgumentParser(description=f"benchmark {bench}")
        parser.add_argument("--json", help="also write the figures to this file")
        self.args, _ = parser.parse_known_args(argv)
        self.bench = bench
        self.rows: list[dict] = []
        self.notes: list[str] = []

    def add(self, case: str, figure: str, value: str) -> None:
        """Record (and print) one figure."""
        self.rows.append({"bench": self.bench, "case": case, "figure": figure, "value": value})
        print(f"  {case:<24} {figure:<34} {value}", flush=True)

    def skip(self, case: str, reason: str) -> None:
        """Record (and print) that a case was skipped, and why."""
        self.rows.append({"bench": self.bench, "case": case, "figure": "skipped", "value": reason})
        print(f"  {case}: skipped: {reason}", flush=True)

    def note(self, text: str) -> None:
        """Record a remark (an anomaly, a limit reached) for the summary."""
        print(f"  NOTE: {text}", flush=True)
        self.notes.append(text)

    def done(self) -> None:
        """Write the JSON file if asked."""
        if self.args.json:
            Path(self.args.json).write_text(json.dumps({"rows": self.rows, "notes": self.notes}))


def percentile(values: list[float], p: float) -> float:
    """Return the ``p``-th percentile (0-100) of ``values``, nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[rank]


def ms(seconds: float) -> str:
    """Format a duration in milliseconds."""
    return f"{seconds * 1000:.1f} ms"


# --------------------------------------------------------------------------- folders


@contextmanager
def instance_dir(label: str) -> Iterator[Path]:
    """A throw-away instance folder, removed at the end; kept (and its path printed)
    with ARBITER_BENCH_KEEP=1 or when a benchmark wrote a ``KEEP`` file in it (it does
    when it found an anomaly, so the logs stay for the report)."""
    path = Path(tempfile.mkdtemp(prefix=f"arbiter-bench-{label}-"))
    try:
        yield path
    finally:
        if KEEP or (path / "KEEP").exists():
            print(f"  (kept {path})", flush=True)
        else:
            shutil.rmtree(path, ignore_errors=True)


# --------------------------------------------------------------------------- servers


def postgres_available() -> str | None:
    """Return None when PostgreSQL answers, else the reason it does not."""
    import sqlalchemy as sa

    from arbiter.settings import database_url

    try:
        engine = sa.create_engine(
            database_url(POSTGRES_URL, ""), connect_args={"connect_timeout": 3}
        )
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
        engine.dispose()
        return None
    except Exception as err:  # noqa: BLE001 - any failure means "not here"
        return f"PostgreSQL at {_safe(POSTGRES_URL)} does not answer ({type(err).__name__})"


def redis_available() -> str | None:
    """Return None when Redis answers, else the reason it does not."""
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2).ping()
        return None
    except Exception as err:  # noqa: BLE001
        return f"Redis at {_safe(REDIS_URL)} does not answer ({type(err).__name__})"


def _safe(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, f"{host}{port}", parts.path, "", ""))


@contextmanager
def postgres_schema() -> Iterator[str]:
    """Yield a PostgreSQL URL whose search_path is a fresh schema; drop it at the end.

    :raises Skip: PostgreSQL does not answer.
    """
    import sqlalchemy as sa

    from arbiter.settings import database_url

    reason = postgres_available()
    if reason:
        raise Skip(reason)
    base = database_url(POSTGRES_URL, "")
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(base)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@contextmanager
def redis_database() -> Iterator[str]:
    """Yield a Redis URL on a database that is empty now: the one the URL names, else
    the first empty of 14 down to 1 (0 and 15 are left to ``make run`` and the tests);
    flush it at the end.

    :raises Skip: Redis does not answer, or no database is empty.
    """
    import redis

    reason = redis_available()
    if reason:
        raise Skip(reason)
    parts = urlsplit(REDIS_URL)
    chosen = None
    named = parts.path.strip("/")
    for number in [int(named)] if named.isdigit() else range(14, 0, -1):
        url = urlunsplit((parts.scheme, parts.netloc, f"/{number}", parts.query, ""))
        client = redis.Redis.from_url(url)
        if client.dbsize() == 0:
            client.set("arbiter-bench-claim", os.getpid(), ex=3600)
            chosen = (url, client)
            break
        client.close()
    if chosen is None:
        raise Skip("no empty Redis database among 1..14")
    url, client = chosen
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


# --------------------------------------------------------------------------- processes


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _replace(argv: list, option: str, value: str) -> list:
    """Return ``argv`` with the value after ``option`` (``--x v``) or in ``--x=v``
    set to ``value``."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == option:
            out[i + 1] = value
        elif str(arg).startswith(option + "="):
            out[i] = f"{option}={value}"
    return out


def web_command(
    port: int, workers: int, factory: str = "arbiter.streams.asgi:create_app", app_dir: Path = ROOT
) -> list:
    """Return the Procfile's ``web`` process (uvicorn with the problem+json HTTP
    protocol, ``tests/processes.py``) on 127.0.0.1:``port`` with ``workers`` processes
    (the Flask requests in ``WEB_THREADS`` threads each), serving ``factory`` from
    ``app_dir`` (without the access log, as the Procfile says)."""
    argv = _replace(processes.web_command(port), "--workers", str(workers))
    argv = _replace(argv, "--factory", factory) if factory else argv
    return [*argv, "--app-dir", str(app_dir)]


def worker_commands(folder: Path, concurrency: int) -> dict[str, list]:
    """Return the Procfile's Celery workers (``worker``: dice and deadlines; ``mailer``:
    mail; ``hooks``: web hooks), the first two with ``concurrency`` pool processes (the
    ``hooks`` threads as the Procfile has them); not beat."""
    commands = processes.celery_commands(folder)
    out = {
        name: _replace(commands[name], "--concurrency", str(concurrency))
        for name in ("worker", "mailer")
    }
    if "hooks" in commands:
        out["hooks"] = commands["hooks"]
    return out


def raise_fd_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (children
    inherit it); return the new limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def tree_cpu_seconds(pid: int) -> float:
    """Return the CPU time (user + system, seconds) used so far by process ``pid`` and
    all its live descendants, read from ``/proc``."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += times.get(current, 0.0)
        todo += [child for child, parent in parents.items() if parent == current]
    return total


class Stack:
    """The Procfile's web process (uvicorn) and Celery workers (``worker`` for dice and
    deadlines, ``mailer`` for mail, ``hooks`` for web hooks) as subprocesses, on
    loopback, with their logs in ``<instance>/logs``. No beat: a lost roll shows as a
    stall instead of being hidden by the 15 s sweep.

    Use as a context manager; ``url`` is the base URL once started.
    """

    def __init__(
        self,
        instance: Path,
        database_url: str | None = None,
        broker_url: str | None = None,
        web_workers: int = 2,
        threads: int = 8,
        concurrency: int = 2,
    ) -> None:
        self.instance = instance
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.logs = instance / "logs"
        self.procs: list[subprocess.Popen] = []
        env = {
            **os.environ,
            "ARBITER_INSTANCE_PATH": str(instance / "instance"),
            "BASE_URL": self.url,
            "PATH": f"{BIN}:{os.environ.get('PATH', '')}",
        }
        env.setdefault("OPEN_CREATION", "1")  # the benchmarks create games without tokens
        env.setdefault("RATELIMIT_ENABLED", "0")  # and measure throughput, not limits
        for key, value in (
            ("DATABASE_URL", database_url),
            ("CELERY_BROKER_URL", broker_url),
            ("SMTP_URL", None),
        ):
            if value:
                env[key] = value
            else:
                env.pop(key, None)
        env["WEB_THREADS"] = str(threads)
        self.env = env  # settings by name; environment() puts the fixed ones in ARBITER_OVERRIDES
        self.commands = {
            "web": web_command(self.port, web_workers),
            **worker_commands(instance, concurrency),
        }

    def __enter__(self) -> Stack:
        self.logs.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [BIN / "arbiter", "db-upgrade"],
            env=environment(self.env),
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        try:
            for name, cmd in self.commands.items():
                out = open(self.logs / f"{name}.log", "w")
                self.procs.append(
                    subprocess.Popen(
                        [str(c) for c in cmd],
                        env=environment(self.env),
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        cwd=ROOT,
                    )
                )
            self._wait_up()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _wait_up(self, seconds: float = 90) -> None:
        import requests

        deadline = time.monotonic() + seconds
        web_up = worker_up = False
        while time.monotonic() < deadline:
            for proc in self.procs:
                if proc.poll() is not None:
                    raise RuntimeError(
                        f"{proc.args[0]} exited with {proc.returncode}; see {self.logs}"
                    )
            if not web_up:
                try:
                    web_up = requests.get(f"{self.url}/v1/engines", timeout=10).ok
                except requests.RequestException:
                    pass
            if not worker_up:
                worker_up = all(
                    " ready." in self.log(name)
                    for name in ("worker", "mailer", "hooks")
                    if name in self.commands
                )
            if web_up and worker_up:
                return
            time.sleep(0.2)
        raise RuntimeError(f"the stack did not come up in {seconds:.0f} s; see {self.logs}")

    def log(self, name: str) -> str:
        """Return the log of process ``name`` (``web``, ``worker``, ``mailer``, ``hooks``)
        so far."""
        try:
            return (self.logs / f"{name}.log").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def problems(self) -> list[str]:
        """Return excerpts of tracebacks and ERROR lines in the logs."""
        found = []
        for name in self.commands:
            lines = self.log(name).splitlines()
            for i, line in enumerate(lines):
                if "Traceback" in line or " ERROR" in line or "[ERROR]" in line:
                    found.append(f"{name}.log: " + "\n    ".join(lines[i : i + 25]))
        return found

    def stop(self) -> None:
        """Terminate the processes this stack started, then kill any that linger."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        self.procs = []


def backends(report: Report) -> Iterator[tuple[str, Path, str | None, str | None]]:
    """Yield ``(case, instance folder, DATABASE_URL, CELERY_BROKER_URL)`` for the embedded
    default and for PostgreSQL + Redis; a missing server skips its case."""
    with instance_dir("sqlite") as folder:
        yield "sqlite + filesystem", folder, None, None
    case = "postgres + redis"
    try:
        with (
            postgres_schema() as pg,
            redis_database() as broker,
            instance_dir("postgres") as folder,
        ):
            yield case, folder, pg, broker
    except Skip as why:
        report.skip(case, str(why))


def machine() -> str:
    """Return one line about the machine now: cores and load average."""
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return f"{os.cpu_count()} cores, load average {load}"


def run_on_backends(report: Report, run) -> None:
    """Call ``run(report, case, folder, DATABASE_URL, CELERY_BROKER_URL)`` for each
    backend; an error is reported (logs kept) and the next backend still runs; then
    finish the report."""
    for case, folder, database_url, broker_url in backends(report):
        try:
            run(report, case, folder, database_url, broker_url)
        except Exception as err:  # noqa: BLE001 - report, go on with the next backend
            (folder / "KEEP").touch()
            report.add(case, "error", f"{type(err).__name__}: {err}"[:400])
    report.done()


def play_random(http, url: str, game_id: str, token: str, rng, timeout: float = 30):
    """Fetch the seat's ``/legal-moves`` and POST one of them at random with
    ``expected_version``, as a client bot does; return the POST's response."""
    auth = {"Authorization": f"Bearer {token}"}
    listed = http.get(f"{url}/v1/games/{game_id}/legal-moves", headers=auth, timeout=timeout).json()
    return http.post(
        f"{url}/v1/games/{game_id}/moves",
        headers=auth,
        timeout=timeout,
        json={"move": rng.choice(listed["moves"]), "expected_version": listed["version"]},
    )
