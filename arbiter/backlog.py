"""What is waiting to be done, read at each metrics scrape: unsent mail, unprocessed
inbound mail, the clock sweep's lag, the Celery queue depth."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from flask import current_app

from arbiter import sessions
from arbiter.extensions import db
from arbiter.models import ClockSweep, Game, OutboxMail
from arbiter.models.timestamps import utcnow
from arbiter.streams.publish import redis_client

Figure = tuple[str, str, float]
"""``(metric name, help text, value)``."""


def figures() -> list[Figure]:
    """Return the backlog gauges (seconds, counts) as of now."""
    now = utcnow()
    unsent = db.session.scalar(
        sa.select(sa.func.count()).select_from(OutboxMail).where(OutboxMail.sent_at.is_(None))
    )
    oldest_due = db.session.scalar(
        sa.select(sa.func.min(Game.deadline)).where(Game.status == "active", Game.deadline <= now)
    )
    last_sweep = db.session.scalar(sa.select(ClockSweep.last_run).where(ClockSweep.name == "clock"))
    out = [
        ("arbiter_outbox_unsent", "Outbox mails not sent yet", float(unsent or 0)),
        (
            "arbiter_clock_overdue_seconds",
            "How long the oldest due deadline has waited for its timeout",
            (now - oldest_due).total_seconds() if oldest_due else 0.0,
        ),
        (
            "arbiter_clock_sweep_age_seconds",
            "Seconds since the clock sweep last ran (-1: never)",
            (now - last_sweep).total_seconds() if last_sweep else -1.0,
        ),
        ("arbiter_celery_queue_depth", "Tasks waiting in the Celery queue", queue_depth()),
        *lock_figures(now),
    ]
    inbound = db.metadata.tables.get("inbound")
    if inbound is not None and "processed_at" in inbound.c:
        waiting = db.session.scalar(
            sa.select(sa.func.count()).select_from(inbound).where(inbound.c.processed_at.is_(None))
        )
        out.append(
            ("arbiter_inbound_unprocessed", "Inbound mails not processed yet", float(waiting or 0))
        )
    return out


def lock_figures(now) -> list[Figure]:
    """Return the gauges of blocked sessions and the clock sweep's attempts: sessions
    idle in a transaction or waiting on a lock over ``DB_HELD_REPORT_SECONDS`` and the
    longest such wait (PostgreSQL; 0 on SQLite), whether a session holds the clock's
    row, and the age of the last attempted sweep (beat not running: it grows; sweeps
    blocked: it stays small while ``arbiter_clock_sweep_age_seconds`` grows)."""
    found = sessions.held(float(current_app.config.get("DB_HELD_REPORT_SECONDS", 30)))
    idle = [s for s in found if not s.waiting]
    waiting = [s for s in found if s.waiting]
    attempt = db.session.scalar(
        sa.select(ClockSweep.last_run).where(ClockSweep.name == "clock-attempt")
    )
    return [
        (
            "arbiter_db_idle_in_transaction_sessions",
            "Sessions idle in a transaction longer than DB_HELD_REPORT_SECONDS",
            float(len(idle)),
        ),
        (
            "arbiter_db_idle_in_transaction_max_seconds",
            "The longest such session's time idle in its transaction",
            max((s.age for s in idle), default=0.0),
        ),
        (
            "arbiter_db_lock_waiting_sessions",
            "Sessions waiting on a lock longer than DB_HELD_REPORT_SECONDS",
            float(len(waiting)),
        ),
        (
            "arbiter_db_lock_wait_max_seconds",
            "The longest such session's wait on its lock",
            max((s.age for s in waiting), default=0.0),
        ),
        (
            "arbiter_clock_sweep_blocked",
            "1 while a session holds the clock sweep's row (sweeps skip their turn)",
            1.0 if sessions.clock_holder() is not None else 0.0,
        ),
        (
            "arbiter_clock_sweep_attempt_age_seconds",
            "Seconds since a clock sweep was last attempted, run or skipped (-1: never)",
            (now - attempt).total_seconds() if attempt else -1.0,
        ),
    ]


def queue_depth() -> float:
    """Return how many tasks wait in the default Celery queue (Redis: the list's
    length; the filesystem broker: its message files), -1 when it cannot be read."""
    settings = current_app.config["CELERY"]
    url = settings["broker_url"]
    try:
        if url.startswith(("redis://", "rediss://")):
            return float(redis_client(url).llen("celery"))
        if url.startswith(("filesystem://", "arbiterfs://")):
            folder = Path(settings["broker_transport_options"]["data_folder_in"])
            return float(sum(1 for _ in folder.glob("*.msg")))
    except Exception:  # noqa: BLE001 - a broker down is shown, not raised
        return -1.0
    return -1.0
