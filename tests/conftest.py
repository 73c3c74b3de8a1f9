"""Shared fixtures: apps on SQLite (always) and PostgreSQL (when configured).

Integration tests that need PostgreSQL or Redis read their URLs from
``ARBITER_TEST_POSTGRES_URL`` and ``ARBITER_TEST_REDIS_URL``; without them those tests
are skipped with a reason, unless ``ARBITER_REQUIRE_SERVICES=1`` (CI), where a missing
service fails the run instead.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
import uuid
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from flask_migrate import upgrade

from arbiter import create_app
from arbiter.extensions import db
from arbiter.settings import database_url, environment, overrides_of
from tests.contract import examples

os.environ.setdefault("OPEN_CREATION", "1")
os.environ.update(environment({"RATELIMIT_ENABLED": 0, **overrides_of(os.environ)}))
"""Tests create games without tokens and are not rate limited unless they say
otherwise (the servers they start inherit this: ``RATELIMIT_ENABLED`` through
``ARBITER_OVERRIDES``); ``tests/arbiter/accounts/test_accounts.py`` checks closed creation,
``tests/arbiter/resources/test_limits.py`` the limits."""


def _per_worker_redis() -> None:
    """Give each pytest-xdist worker a Redis database of its own (``make test`` runs two
    workers): gw0 keeps the configured database, gw1 the one below it, and so on, so
    one worker's ``flushdb`` never empties another's queues. Their stream channels
    get the worker's name too (Redis pub/sub spans databases)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("ARBITER_TEST_REDIS_URL")
    if not worker.startswith("gw"):
        return
    # a prefix set outside (two checkouts testing beside each other on one Redis) is kept
    given = overrides_of(os.environ)
    channel = f"{given.get('STREAM_CHANNEL', 'arbiter')}-{worker}"
    os.environ.update(environment({**given, "STREAM_CHANNEL": channel}))
    if url:
        base, _, number = url.rstrip("/").rpartition("/")
        if not number.isdigit():
            base, number = url.rstrip("/"), "15"
        os.environ["ARBITER_TEST_REDIS_URL"] = f"{base}/{int(number) - int(worker[2:])}"


_per_worker_redis()

STACK_FOLDERS = ("e2e", "contract", "workers")
"""Test folders whose tests start whole stacks, real Celery workers or fuzzers: the
``stack`` tier, which ``make check`` leaves to ``make test``."""


def pytest_collection_modifyitems(config, items):
    """Mark every test under :data:`STACK_FOLDERS` ``stack``, so that ``make check``
    (``-m "not stack and not slow"``) keeps to engines, service and API tests."""
    root = Path(__file__).parent
    for item in items:
        parts = Path(item.fspath).relative_to(root).parts
        if parts and parts[0] in STACK_FOLDERS:
            item.add_marker(pytest.mark.stack)


POSTGRES_URL = os.environ.get("ARBITER_TEST_POSTGRES_URL")
REDIS_URL = os.environ.get("ARBITER_TEST_REDIS_URL")
REQUIRE_SERVICES = os.environ.get("ARBITER_REQUIRE_SERVICES") == "1"


def need(url: str | None, what: str, variable: str) -> str:
    """Return ``url``, or skip (fail in CI) when the service is not configured."""
    if url:
        return url
    message = f"{what} is not configured: set {variable} to run this test"
    if REQUIRE_SERVICES:
        pytest.fail(message + " (ARBITER_REQUIRE_SERVICES=1)")
    pytest.skip(message)


@contextmanager
def postgres_schema():
    """Yield a PostgreSQL URL whose search_path is a new schema, dropped at the end."""
    base = database_url(need(POSTGRES_URL, "PostgreSQL", "ARBITER_TEST_POSTGRES_URL"), "")
    schema = f"t_{uuid.uuid4().hex[:12]}"
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


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL URL on a schema of its own for this test session (worker): shared
    by the session's tests, so a test must look only at its own rows."""
    with postgres_schema() as url:
        yield url


def make_app(db_url: str, role: str = "workers", **config):
    """Return an app of a process of ``role`` (``"web"`` or ``"workers"``) on
    ``db_url`` with the schema migrated; tasks are not enqueued unless the config
    says so. A SQLite file that does not exist yet starts as a copy of one migrated
    once per test process (:func:`_migrated_sqlite`; the migrations
    take ~0.5 s, a copy ~1 ms), and is not upgraded again (alembic's finding nothing
    to do takes ~0.2 s); any other database is upgraded."""
    settings = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": db_url,
        "ENQUEUE": False,
        "BASE_URL": "http://arbiter.test",
        "OPEN_CREATION": True,
        "RATELIMIT_ENABLED": False,
        **config,
    }
    target = _sqlite_file(db_url)
    copied = target is not None and not target.exists()
    if copied:
        shutil.copyfile(_migrated_sqlite(), target)
    app = create_app(settings, role=role)
    examples.install(app)  # python -m tests.contract.examples records exchanges
    if not copied:  # a copy is at the head already
        with app.app_context():
            upgrade()
    return app


def _sqlite_file(db_url: str) -> Path | None:
    """The file of a ``sqlite:///path`` URL without query, or None for other URLs."""
    prefix = "sqlite:///"
    if not db_url.startswith(prefix) or "?" in db_url or db_url == prefix:
        return None
    return Path(db_url[len(prefix) :])


@functools.cache
def _migrated_sqlite() -> Path:
    """A SQLite file migrated to head by this process, made on first use (kept in a
    temporary folder removed at exit)."""
    folder = Path(tempfile.mkdtemp(prefix="arbiter-template-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "migrated.sqlite3"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        upgrade()
        db.engine.dispose()  # nothing left in a -wal file: the copy is the whole database
    return path


@pytest.fixture
def sqlite_url(tmp_path):
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'arbiter.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    """Each database the service supports: a fresh SQLite file, and PostgreSQL (the
    session's schema, shared: see ``postgres_url``)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'arbiter.sqlite3'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture(scope="session")
def _dropped_at_the_end():
    """An ExitStack closed when the session ends: schemas made for single tests are
    dropped there, once every process a test started has stopped."""
    with ExitStack() as stack:
        yield stack


@pytest.fixture
def own_postgres_url(_dropped_at_the_end):
    """A PostgreSQL URL on an empty schema of this test's own (for tests of what sweeps
    the whole database: workers, mailers, whole stacks), dropped at the session's end."""
    return _dropped_at_the_end.enter_context(postgres_schema())


@pytest.fixture(params=["sqlite", "postgres"])
def empty_db_url(request, tmp_path):
    """Each database the service supports, both empty: a fresh SQLite file, and a
    PostgreSQL schema of this test's own."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'arbiter.sqlite3'}"
    return request.getfixturevalue("own_postgres_url")


@pytest.fixture
def app(sqlite_url):
    """An app on a fresh SQLite database."""
    app = make_app(sqlite_url)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def any_app(db_url):
    """An app on each supported database in turn."""
    app = make_app(db_url)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def own_app(empty_db_url):
    """An app on each supported database in turn, each empty and this test's own: for
    tests that sweep the clock, whose heartbeat and outages are the whole database's."""
    app = make_app(empty_db_url)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    """A test client of the SQLite app."""
    return app.test_client()


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Inbox:
    """The messages a loopback SMTP server received, as ``email.message`` objects."""

    def __init__(self) -> None:
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd API
        from email import message_from_bytes
        from email.policy import default

        self.messages.append(message_from_bytes(envelope.content, policy=default))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list:
        """Return the messages sent to ``address``."""
        return [m for m in self.messages if m["To"] == address]


@contextmanager
def smtp_server():
    """Run a real SMTP server (aiosmtpd) on loopback; yield ``(url, inbox)``."""
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", inbox
    finally:
        controller.stop()


@pytest.fixture
def smtp():
    """A real SMTP server (aiosmtpd) on loopback; yields ``(url, inbox)``."""
    with smtp_server() as server:
        yield server
