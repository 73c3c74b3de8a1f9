"""The service's real processes for end-to-end tests: web, worker, beat and, for
play by email, the mailin listener, on the embedded default or PostgreSQL + Redis."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
import requests

from tests import processes
from tests.conftest import free_port

BIN = processes.BIN


def wait_until_up(url: str, procs: list[subprocess.Popen], seconds: float = 60) -> None:
    """Wait until ``url`` answers ``/v1/engines``; fail if a process exits first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for proc in procs:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args} exited with {proc.returncode}")
        try:
            if requests.get(f"{url}/v1/engines", timeout=10).ok:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up")


@pytest.fixture
def start_stack(tmp_path, request):
    """Return ``start(database_url, broker_url, smtp_url, mailin_url=None) -> base URL``
    that migrates the database and starts web, worker, beat (and mailin when
    ``mailin_url`` is given), stopped at the end of the test."""

    def start(database_url: str | None, broker_url: str | None, smtp_url: str,
              mailin_url: str | None = None) -> str:
        port = free_port()
        env = {**os.environ, "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
               "SMTP_URL": smtp_url, "BASE_URL": f"http://127.0.0.1:{port}",
               "MAIL_DOMAIN": "play.arbiter.test", "MAIL_REPLIES_PER_HOUR": "100000",
               "OPEN_CREATION": "1",
               "PATH": f"{BIN}:{os.environ['PATH']}"}
        for key, value in (("DATABASE_URL", database_url), ("CELERY_BROKER_URL", broker_url),
                           ("MAILIN_URL", mailin_url)):
            if value:
                env[key] = value
            else:
                env.pop(key, None)
        subprocess.run([BIN / "arbiter", "db-upgrade"], env=env, check=True,
                       capture_output=True)
        commands = {
            "web": [BIN / "gunicorn", "--bind", f"127.0.0.1:{port}", "--worker-class",
                    "gthread", "--workers", "2", "--threads", "4", "arbiter:create_app()"],
            **processes.celery_commands(tmp_path),
            **({"mailin": [BIN / "arbiter", "mailin"]} if mailin_url else {}),
        }
        procs = processes.start(commands, env, tmp_path / "logs")
        request.addfinalizer(lambda: processes.stop(procs))
        url = f"http://127.0.0.1:{port}"
        wait_until_up(url, procs)
        return url

    return start
