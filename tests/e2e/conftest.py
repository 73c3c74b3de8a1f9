"""The service's real processes for end-to-end tests (``start_stack``: the Procfile's
web, worker, mailer and beat and, for play by email, the mailin listener, on the
embedded default or PostgreSQL + Redis, started by ``tests/processes.py``), and the
browser fixtures (pytest-playwright) on Debian's Chromium, with one running service
(the same processes; SQLite, and Redis as the broker where ``ARBITER_TEST_REDIS_URL``
is set, else the filesystem broker) shared by the browser tests of a module.

Playwright cannot download its own browsers here, so it drives ``/usr/bin/chromium``
(``ARBITER_CHROMIUM`` elsewhere), headless, sandbox off (root in CI). Without that
binary the browser tests skip with a reason, unless ``ARBITER_REQUIRE_SERVICES=1``.
Screenshots go to ``browser-test-output/screenshots/``, the processes' logs to
``browser-test-output/logs/`` (gitignored; each run overwrites them).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import requests

from arbiter.settings import environment
from tests import processes
from tests.conftest import REDIS_URL, REQUIRE_SERVICES, free_port, smtp_server

BIN = processes.BIN


@pytest.fixture
def start_stack(tmp_path, request):
    """Return ``start(database_url, broker_url, smtp_url, mailin_url=None) -> base URL``
    that migrates the database and starts web, worker, beat (and mailin when
    ``mailin_url`` is given), stopped at the end of the test."""

    def start(
        database_url: str | None,
        broker_url: str | None,
        smtp_url: str,
        mailin_url: str | None = None,
    ) -> str:
        port = free_port()
        env = {
            **os.environ,
            "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
            "SMTP_URL": smtp_url,
            "BASE_URL": f"http://127.0.0.1:{port}",
            "MAIL_DOMAIN": "play.arbiter.test",
            "MAIL_REPLIES_PER_HOUR": "100000",
            "OPEN_CREATION": "1",
            "PATH": f"{BIN}:{os.environ['PATH']}",
        }
        for key, value in (
            ("DATABASE_URL", database_url),
            ("CELERY_BROKER_URL", broker_url),
            ("MAILIN_URL", mailin_url),
        ):
            if value:
                env[key] = value
            else:
                env.pop(key, None)
        env = environment(env)  # MAIL_REPLIES_PER_HOUR goes in ARBITER_OVERRIDES
        subprocess.run([BIN / "arbiter", "db-upgrade"], env=env, check=True, capture_output=True)
        commands = {
            "web": processes.web_command(port),
            **processes.celery_commands(tmp_path),
            **({"mailin": [BIN / "arbiter", "mailin"]} if mailin_url else {}),
        }
        procs = processes.start(commands, env, tmp_path / "logs")
        request.addfinalizer(lambda: processes.stop(procs))
        url = f"http://127.0.0.1:{port}"
        processes.wait_until_up(url, procs)
        return url

    return start


CHROMIUM = os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "browser-test-output" / "screenshots"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium headless (skip, or fail in CI, when it is absent)."""
    if not os.access(CHROMIUM, os.X_OK):
        message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if REQUIRE_SERVICES:
            pytest.fail(message + " (ARBITER_REQUIRE_SERVICES=1)")
        pytest.skip(message)
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A phone-sized window (390 x 844 CSS pixels)."""
    return {**browser_context_args, "viewport": {"width": 390, "height": 844}}


SECRET_KEY = "test-only-browser-secret"
"""The ``service``'s SECRET_KEY (a test signs a mailed link with it)."""


@pytest.fixture(scope="module")
def inbox():
    """A real SMTP server (aiosmtpd) on loopback for the module's service; yields
    ``(url, inbox)``."""
    with smtp_server() as server:
        yield server


@pytest.fixture(scope="module")
def service(tmp_path_factory, inbox):
    """Start web, worker and beat on the embedded default, mail to ``inbox``; yield the
    base URL."""
    folder = tmp_path_factory.mktemp("browser-stack")
    port = free_port()
    env = {
        **os.environ,
        "ARBITER_INSTANCE_PATH": str(folder / "instance"),
        "BASE_URL": f"http://127.0.0.1:{port}",
        "CLOCK_SWEEP_SECONDS": "5",
        "SMTP_URL": inbox[0],
        "SECRET_KEY": SECRET_KEY,
        "PATH": f"{processes.BIN}:{os.environ['PATH']}",
        # the web hook test's receiver listens on loopback, which must be allowed
        "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
        "WEBHOOK_ALLOW_HTTP": "1",
    }
    for key in ("DATABASE_URL", "CELERY_BROKER_URL"):
        env.pop(key, None)
    if REDIS_URL:  # kombu's filesystem transport can hand a half-written message to
        env["CELERY_BROKER_URL"] = REDIS_URL  # a worker under heavy load, killing it
    env = environment(env)  # the sweep and web hook settings go in ARBITER_OVERRIDES
    subprocess.run(
        [processes.BIN / "arbiter", "db-upgrade"], env=env, check=True, capture_output=True
    )
    commands = {"web": processes.web_command(port), **processes.celery_commands(folder)}
    procs = processes.start(commands, env, SCREENSHOTS.parent / "logs")
    try:
        url = f"http://127.0.0.1:{port}"
        processes.wait_until_up(url, procs)
        yield url
    finally:
        processes.stop(procs)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The folder the browser tests save their screenshots in."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def create(url: str, engine: str, players: int) -> dict:
    """Create a game over REST; return the creation answer (tokens and seat links)."""
    answer = requests.post(
        f"{url}/v1/games",
        timeout=30,
        json={"engine": engine, "players": [{"name": f"Player {i}"} for i in range(players)]},
    )
    answer.raise_for_status()
    return answer.json()


@pytest.fixture
def postgres_url(own_postgres_url):
    """Here each test gets a PostgreSQL schema of its own: its processes sweep the whole
    database (the mailer drains every due mail, the clock every deadline), so other
    tests' rows in a shared schema would be theirs to work through."""
    return own_postgres_url
