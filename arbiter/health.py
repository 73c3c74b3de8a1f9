"""What a deployment needs to work, checked: for ``arbiter doctor``, ``/readyz``.

Each check takes the Flask app (inside its app context) and returns a
:class:`Finding`: ``ok``, ``warning`` (works, but not as it should in production) or
``problem`` (something is broken), with a sentence an operator understands. No check
changes anything.
"""

from __future__ import annotations

import smtplib
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import sqlalchemy as sa
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask

from arbiter import database, sessions, settings
from arbiter.extensions import db
from arbiter.models import ClockSweep, Game, OutboxMail, Webhook, WebhookDelivery
from arbiter.models.timestamps import UTCDateTime, utcnow

OUTBOX_LATE_SECONDS = 300
"""An unsent mail older than this is a backlog (the sweep retries every 15 s)."""


@dataclass
class Finding:
    """The outcome of one check: ``level`` is ``ok``, ``warning``, ``problem`` or
    ``skipped`` (it needs what another check found broken)."""

    name: str
    level: str
    detail: str

    @property
    def ok(self) -> bool:
        """True unless it is a problem."""
        return self.level != "problem"


def _sweep_seconds(app: Flask) -> float:
    """Return how often beat runs the clock sweep, in seconds."""
    return float(app.config["CELERY"]["beat_schedule"]["sweep-clock"]["schedule"])


def config(app: Flask) -> Finding:
    """Check the settings a production deployment needs."""
    notes = []
    service = settings.of(app).service
    if not service.secret_key_from_env:
        notes.append(
            "SECRET_KEY is not set (a key kept in the instance folder is used; "
            "every machine of a deployment needs the same one)"
        )
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite") and app.config["CELERY"][
        "broker_url"
    ].startswith(("redis", "amqp", "sqs")):
        notes.append(
            "the database is SQLite but the broker is a server: workers on other "
            "machines cannot reach a SQLite file"
        )
    if "localhost" in service.base_url or "127.0.0.1" in service.base_url:
        where = (
            "set to"
            if service.base_url_from_env
            else "not set in this command's environment, so the default from PORT is"
        )
        notes.append(
            f"BASE_URL is {where} {service.base_url}: links in mails only "
            "work on this machine (the service's processes read their own "
            "environment: `make run` sets http://127.0.0.1:$PORT)"
        )
    if notes:
        return Finding("config", "warning", "; ".join(notes) + ".")
    return Finding("config", "ok", "SECRET_KEY and BASE_URL are set.")


def database_ready(app: Flask) -> Finding:
    """Check the database answers and is migrated to the code's head revision."""
    try:
        with db.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
            current = MigrationContext.configure(conn).get_current_heads()
    except Exception as err:  # noqa: BLE001 - any driver error means "unreachable"
        return Finding("database", "problem", f"cannot reach the database: {_first_line(err)}")
    heads = ScriptDirectory(str(database.MIGRATIONS)).get_heads()
    if set(current) != set(heads):
        return Finding(
            "database",
            "problem",
            f"the schema is at {', '.join(current) or 'nothing'}, the code needs "
            f"{', '.join(heads)}: run `arbiter db-upgrade`.",
        )
    return Finding("database", "ok", f"reachable, migrated ({', '.join(heads)}).")


def broker(app: Flask) -> Finding:
    """Check the Celery broker answers (or, for the filesystem transport, its folders
    exist)."""
    celery = app.extensions["celery"]
    url = celery.conf.broker_url
    if url.startswith(("filesystem", "arbiterfs")):
        options = celery.conf.broker_transport_options
        missing = [
            f
            for f in (options["data_folder_in"], options["processed_folder"])
            if not Path(f).is_dir()
        ]
        if missing:
            return Finding("broker", "problem", f"broker folders missing: {', '.join(missing)}")
        return Finding("broker", "ok", f"filesystem transport in {options['data_folder_in']}.")
    try:
        with celery.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=3)
    except Exception as err:  # noqa: BLE001 - any transport error means "unreachable"
        return Finding("broker", "problem", f"cannot reach the broker: {_first_line(err)}")
    return Finding("broker", "ok", f"reachable ({urlparse(url).scheme}).")


def smtp(app: Flask) -> Finding:
    """Check the SMTP server of ``SMTP_URL`` answers a greeting."""
    url = settings.of(app).mail.smtp_url
    if not url:
        return Finding(
            "smtp",
            "warning",
            "SMTP_URL is not set: mails are written to the worker's log, not sent.",
        )
    parts = urlparse(url)
    smtp_class = smtplib.SMTP_SSL if parts.scheme == "smtps" else smtplib.SMTP
    port = parts.port or (465 if parts.scheme == "smtps" else 25)
    try:
        with smtp_class(parts.hostname or "localhost", port, timeout=5) as server:
            server.ehlo()
    except (OSError, smtplib.SMTPException) as err:
        return Finding(
            "smtp", "problem", f"cannot reach {parts.hostname}:{port}: {_first_line(err)}"
        )
    return Finding("smtp", "ok", f"{parts.hostname}:{port} answers.")


def beat(app: Flask) -> Finding:
    """Check beat ran the clock sweep recently (its heartbeat in ``clock_sweeps``), and
    when it did not, tell why: no sweep attempted (beat, or a worker on the ``clock``
    queue, not running), sweeps skipped because a session holds the clock's row (named:
    address, state, age, query), or sweeps attempted that fail."""
    row = db.session.get(ClockSweep, "clock")
    if row is None:
        return Finding("beat", "warning", "the clock sweep has never run: is `beat` started?")
    now = utcnow()
    lag = (now - row.last_run).total_seconds()
    every = _sweep_seconds(app)
    if lag <= 3 * every:
        return Finding("beat", "ok", f"the clock sweep ran {lag:.0f} s ago.")
    said = f"the clock sweep last ran {lag:.0f} s ago (it should every {every:.0f} s)"
    holder = sessions.clock_holder()
    if holder is not None:
        return Finding(
            "beat",
            "problem",
            f"{said}: sweeps are blocked, not beat: the clock's row is held by "
            f"{holder.describe()}. PostgreSQL ends a session of ours after its "
            f"DB_IDLE_IN_TRANSACTION_SECONDS; or run SELECT pg_terminate_backend({holder.pid}).",
        )
    attempt = db.session.get(ClockSweep, "clock-attempt")
    tried = None if attempt is None else (now - attempt.last_run).total_seconds()
    if tried is not None and tried <= 3 * every:
        return Finding(
            "beat",
            "problem",
            f"{said}: beat is running (a sweep was attempted {tried:.0f} s ago) but the "
            "sweeps do not complete: see the worker's log.",
        )
    return Finding(
        "beat",
        "problem",
        f"{said}, and no sweep was attempted "
        + ("ever" if tried is None else f"for {tried:.0f} s")
        + ": is `beat` running? (A worker must consume the `clock` queue too.)",
    )


def locks(app: Flask) -> Finding:
    """Check no session has sat in a transaction, or waited on a lock, longer than
    ``DB_HELD_REPORT_SECONDS`` (PostgreSQL); name each: address, state, age, query."""
    if db.engine.dialect.name != "postgresql":
        return Finding("locks", "ok", "SQLite: no sessions to inspect.")
    older = settings.of(app).database.held_report_seconds
    found = sessions.held(older)
    if not found:
        return Finding(
            "locks",
            "ok",
            f"no session idle in a transaction or waiting on a lock for over {older:.0f} s.",
        )
    return Finding(
        "locks",
        "problem",
        f"{len(found)} session(s) in a transaction or waiting on a lock for over "
        f"{older:.0f} s: "
        + "; ".join(s.describe() for s in found[:10])
        + ". A session whose host died keeps its locks until PostgreSQL ends it "
        "(ours: after DB_IDLE_IN_TRANSACTION_SECONDS); SELECT pg_terminate_backend(<pid>) "
        "ends one now.",
    )


def outbox(app: Flask) -> Finding:
    """Check no mail waits too long to be sent, and count those given up."""
    now = utcnow()
    unsent = OutboxMail.sent_at.is_(None)
    waiting, oldest = db.session.execute(
        sa.select(sa.func.count(), sa.func.min(OutboxMail.created_at)).where(
            unsent, OutboxMail.given_up_at.is_(None)
        )
    ).one()
    given_up = db.session.scalar(
        sa.select(sa.func.count()).where(unsent, OutboxMail.given_up_at.is_not(None))
    )
    detail = f"{waiting} mail(s) waiting"
    if given_up:
        detail += f", {given_up} given up (outbox.last_error says why)"
    if oldest is not None and (now - oldest).total_seconds() > OUTBOX_LATE_SECONDS:
        age = (now - oldest).total_seconds()
        return Finding(
            "outbox",
            "problem",
            f"{detail}; the oldest for {age:.0f} s: are the worker and SMTP up?",
        )
    return Finding("outbox", "warning" if given_up else "ok", detail + ".")


def webhooks(app: Flask) -> Finding:
    """Check web hook deliveries are tried (the ``hooks`` process serves the
    ``webhooks`` queue): none written over 5 minutes ago may be still untried while no
    delivery at all was tried in those 5 minutes (an account whose many hooks wait
    their turn, ``WEBHOOKS_IN_FLIGHT_PER_ACCOUNT``, has untried ones while the process
    works). A receiver that fails is its owner's business (retries, then the hook is
    disabled): counted only."""
    late = utcnow() - timedelta(seconds=OUTBOX_LATE_SECONDS)
    pending = sa.and_(WebhookDelivery.delivered_at.is_(None), WebhookDelivery.given_up_at.is_(None))
    waiting = db.session.scalar(sa.select(sa.func.count()).where(pending))
    untried = db.session.scalar(
        sa.select(sa.func.count()).where(
            pending, WebhookDelivery.attempts == 0, WebhookDelivery.created_at < late
        )
    )
    disabled = db.session.scalar(sa.select(sa.func.count()).where(Webhook.disabled_at.is_not(None)))
    detail = f"{waiting} web hook deliveries waiting, {disabled} hook(s) disabled"
    tried = untried and db.session.scalar(
        sa.select(sa.func.count()).where(WebhookDelivery.claimed_at >= late)
    )
    if untried and not tried:
        return Finding(
            "webhooks",
            "problem",
            f"{detail}; {untried} never tried for over 5 "
            "minutes: is the `hooks` process (webhooks queue) up?",
        )
    if untried:
        return Finding(
            "webhooks",
            "warning",
            f"{detail}; {untried} not tried yet after 5 minutes, waiting for their "
            "accounts' turn (WEBHOOKS_IN_FLIGHT_PER_ACCOUNT): slow receivers of those accounts.",
        )
    return Finding("webhooks", "ok", detail + ".")


def inbound(app: Flask) -> Finding:
    """Check received mail is processed (when this deployment takes mail in)."""
    if not sa.inspect(db.session.connection()).has_table("inbound"):
        return Finding("inbound", "ok", "this deployment takes no mail in.")
    table = sa.table("inbound", sa.column("status"), sa.column("received_at", UTCDateTime))
    waiting, oldest = db.session.execute(
        sa.select(sa.func.count(), sa.func.min(table.c.received_at)).where(
            table.c.status == "pending"
        )
    ).one()
    if waiting and oldest is not None and (utcnow() - oldest).total_seconds() > OUTBOX_LATE_SECONDS:
        return Finding(
            "inbound",
            "problem",
            f"{waiting} received mail(s) not processed, the "
            "oldest for over 5 minutes: is the worker up?",
        )
    return Finding("inbound", "ok", f"{waiting} received mail(s) waiting.")


def clock(app: Flask) -> Finding:
    """Check no deadline is overdue by more than two sweeps (the sweep is behind)."""
    every = _sweep_seconds(app)
    now = utcnow()
    behind = now - timedelta(seconds=2 * every)
    count, oldest = db.session.execute(
        sa.select(sa.func.count(), sa.func.min(Game.deadline)).where(
            Game.status == "active", Game.deadline < behind
        )
    ).one()
    if count:
        lag = (now - oldest).total_seconds()
        return Finding(
            "clock",
            "problem",
            f"{count} deadline(s) passed and not enforced, the "
            f"oldest {lag:.0f} s ago: is beat running?",
        )
    return Finding("clock", "ok", "no deadline is overdue.")


def _first_line(err: Exception) -> str:
    """Return the first line of an error's text."""
    return (str(err).strip().splitlines() or [type(err).__name__])[0]


READINESS = (database_ready, broker)
"""What ``/readyz`` checks: a web process can serve only with both."""

EVERYTHING = (
    config,
    database_ready,
    broker,
    smtp,
    beat,
    locks,
    outbox,
    webhooks,
    inbound,
    clock,
)
"""What ``arbiter doctor`` checks, in order."""


def run(app: Flask, checks=EVERYTHING) -> list[Finding]:
    """Run ``checks`` in order; the ones after the database need it, so they are
    skipped (as problems) when it is unreachable."""
    findings = []
    for check in checks:
        if check not in (config, database_ready, broker, smtp) and any(
            f.name == "database" and not f.ok for f in findings
        ):
            findings.append(Finding(check.__name__, "skipped", "not checked: no database."))
            continue
        try:
            findings.append(check(app))
        except Exception as err:  # noqa: BLE001 - a check must never crash the doctor
            db.session.rollback()
            findings.append(Finding(check.__name__, "problem", _first_line(err)))
    return findings


class Probe:
    """Runs the readiness checks of one app in a thread of their own, so that
    ``/readyz`` answers within its deadline however long they hang (a silent database,
    a cut link: a connection stuck until its TCP timeouts end it). At most one run is
    in flight: a caller while one hangs waits for that one rather than starting
    another, so a balancer polling a hung process does not pile up threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.future: Future | None = None
        self.started = 0.0
        self.current = "database"

    def run(self, app: Flask, checks, seconds: float) -> list[Finding]:
        """Return the findings of ``checks``, or, when they take longer than
        ``seconds``, a problem naming the check that has not returned and for how long."""
        with self.lock:
            if self.future is None or self.future.done():
                self.future, self.started = Future(), time.monotonic()
                threading.Thread(
                    target=self._work, args=(app, checks, self.future), daemon=True
                ).start()
            future, started = self.future, self.started
        try:
            return future.result(timeout=seconds)
        except FutureTimeout:
            waited = time.monotonic() - started
            return [
                Finding(
                    self.current,
                    "problem",
                    f"no answer after {waited:.1f} s (a silent server or a cut link)",
                )
            ]

    def _work(self, app: Flask, checks, future: Future) -> None:
        """Run ``checks`` in an app context of this thread; set ``future``'s result."""
        findings = []
        try:
            with app.app_context():
                try:
                    for check in checks:
                        self.current = check.__name__.removesuffix("_ready")
                        findings.extend(run(app, (check,)))
                finally:
                    db.session.remove()
        except Exception as err:  # noqa: BLE001 - a probe must always answer
            findings.append(Finding(self.current, "problem", _first_line(err)))
        future.set_result(findings)


def ready(app: Flask) -> list[Finding]:
    """Return the readiness findings (:data:`READINESS`) within the app's
    ``READY_TIMEOUT_SECONDS`` (:class:`Probe`)."""
    probe = app.extensions.setdefault("ready_probe", Probe())
    return probe.run(app, READINESS, settings.of(app).service.ready_timeout_seconds)
