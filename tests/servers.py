"""A PostgreSQL and a Redis of the test's own, on free ports, that a test may stop and
start again (the machine's own servers are never touched).

PostgreSQL comes from Debian's server packages (``postgresql``: ``initdb``, ``pg_ctl``,
``postgres`` under ``/usr/lib/postgresql/<version>/bin``), Redis from ``redis-server``.
Without them, the tests that need them skip with a reason, or fail when
``ARBITER_REQUIRE_SERVICES=1``. As root, the PostgreSQL server runs as the
``postgres`` user (``initdb`` refuses root).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES, free_port


def _missing(what: str) -> None:
    message = f"{what} is not installed (Debian packages: see .ci/run)"
    if REQUIRE_SERVICES:
        pytest.fail(message + " (ARBITER_REQUIRE_SERVICES=1)")
    pytest.skip(message)


def postgres_bin() -> Path | None:
    """Return the folder of ``initdb``/``pg_ctl``/``postgres``, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(os.path.realpath(pg_ctl)).parent if pg_ctl else None


class PrivatePostgres:
    """A throw-away PostgreSQL cluster in a temporary folder, on its own port.

    ``start()`` (creates the cluster the first time), ``stop()`` (fast shutdown: the
    service's connections are cut), ``url(database)`` and ``create_database(name)``.
    """

    def __init__(self) -> None:
        self.bin = postgres_bin()
        if self.bin is None or not (self.bin / "initdb").exists():
            _missing("PostgreSQL's server (initdb, pg_ctl)")
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="arbiter-pg-"))
        self.data = self.folder / "data"
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            shutil.chown(self.folder, self.user)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        argv = [str(self.bin / tool), *args]
        if self.user:
            argv = ["runuser", "-u", self.user, "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, check=check, timeout=120)

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={self.folder} -c fsync=off "
            f"-c synchronous_commit=off -c max_connections=200"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        self._run(
            "pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop", check=False
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create database ``name``; return its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class PrivateRedis:
    """A Redis server on its own port without persistence (a restart loses every
    queued task, the harder case): ``start()``, ``stop()``, ``url(db)``."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            _missing("redis-server")
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="arbiter-redis-"))
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=open(self.folder / "server.log", "a"),
            stderr=subprocess.STDOUT,
        )
        import redis

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if redis.Redis(port=self.port, socket_timeout=1).ping():
                    return
            except redis.RedisError:
                time.sleep(0.1)
        raise RuntimeError("the test's Redis did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(30)
            self.proc = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
