"""What Flask, its extensions, SQLAlchemy and Celery are given, derived in one place from
the settings object (:mod:`arbiter.settings`, documented in
docs/operating/configuration.md): :func:`flask_config`.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import make_url

from arbiter.settings import Database, Settings

INBOUND_SWEEP_SECONDS = 15.0
"""How often beat runs the inbound-mail sweep (mail recorded but not acted on)."""

WTF_CSRF_TIME_LIMIT = 7 * 86400
"""How long a page's form stays good (seconds)."""


def _ms(seconds: float) -> int:
    """Return ``seconds`` in whole milliseconds."""
    return int(round(float(seconds) * 1000))


def postgres_connect_args(url: str, database: Database) -> dict:
    """Return the libpq connection parameters of ``database``'s limits for a
    PostgreSQL ``url``.

    Client side: ``connect_timeout``, TCP keep-alives and ``tcp_user_timeout``, so that
    a dead server or a cut link fails a query instead of hanging. Server side, through
    libpq's ``options`` (``-c name=value``, appended to any ``options`` of the URL):
    ``statement_timeout``, ``lock_timeout``, ``idle_in_transaction_session_timeout``
    and the server's own keep-alives and ``tcp_user_timeout`` for this session, so that
    a session whose host died (power lost mid-transaction) is ended by the server and
    its locks released within about a minute, whatever the server's defaults.
    """
    args: dict = {
        "connect_timeout": max(1, int(round(float(database.connect_timeout_seconds)))),
        "keepalives": 1,
        "keepalives_idle": max(1, int(database.keepalive_idle_seconds)),
        "keepalives_interval": max(1, int(database.keepalive_interval_seconds)),
        "keepalives_count": max(1, int(database.keepalive_count)),
        "tcp_user_timeout": _ms(database.tcp_user_timeout_seconds),
    }
    if not database.session_options:
        return args
    server = {
        "statement_timeout": _ms(database.statement_timeout_seconds),
        "lock_timeout": _ms(database.lock_timeout_seconds),
        "idle_in_transaction_session_timeout": _ms(database.idle_in_transaction_seconds),
        "tcp_keepalives_idle": args["keepalives_idle"],
        "tcp_keepalives_interval": args["keepalives_interval"],
        "tcp_keepalives_count": args["keepalives_count"],
        "tcp_user_timeout": args["tcp_user_timeout"],
    }
    given = make_url(url).query.get("options") or ""
    if isinstance(given, tuple):
        given = " ".join(given)
    args["options"] = " ".join(
        [*([given] if given else []), *(f"-c {key}={value}" for key, value in server.items())]
    )
    return args


def engine_options(database: Database) -> dict:
    """Return SQLAlchemy engine options for ``database``: a pool sized for the web
    process's ``WEB_THREADS`` on a server database (SQLite keeps its own pool), its
    ``DB_PRE_PING``, its ``DB_*`` limits made into connection parameters by
    :func:`postgres_connect_args`."""
    url, pre_ping = database.url, database.pre_ping
    if url.startswith("sqlite"):
        return {"pool_pre_ping": pre_ping}
    return {
        "pool_pre_ping": pre_ping,
        "pool_size": 10,
        "max_overflow": 30,
        "pool_timeout": 10,
        "connect_args": postgres_connect_args(url, database),
    }


def broker_settings(raw: str | None, instance_path: str) -> dict:
    """Return Celery settings for broker URL ``raw`` (or the filesystem default)."""
    if raw:
        return {"broker_url": raw, "broker_transport_options": {}}
    folder = Path(instance_path) / "broker"
    for sub in ("out", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return {
        "broker_url": "arbiterfs://",  # kombu's filesystem transport, atomic writes
        "broker_transport_options": {
            "data_folder_in": str(folder / "out"),
            "data_folder_out": str(folder / "out"),
            "processed_folder": str(folder / "processed"),
            "control_folder": str(folder / "control"),
            "store_processed": False,
            "polling_interval": 0.1,
        },
    }


def beat_schedule(settings: Settings) -> dict:
    """Return the beat schedule of the sweeps (seconds between runs)."""
    clock = settings.clock
    sweeps = clock.other_sweeps_seconds
    schedule = {
        "sweep-outbox": {"task": "workers.tasks.sweep_outbox", "schedule": sweeps},
        "sweep-chance": {"task": "workers.tasks.sweep_chance", "schedule": sweeps},
        "sweep-webhooks": {"task": "workers.tasks.sweep_webhooks", "schedule": sweeps},
        "sweep-inbound": {"task": "workers.tasks.sweep_inbound", "schedule": INBOUND_SWEEP_SECONDS},
        "sweep-clock": {"task": "workers.tasks.sweep_clock", "schedule": clock.sweep_seconds},
        "sweep-tournaments": {
            "task": "workers.tasks.sweep_tournaments",
            "schedule": clock.tournament_sweep_seconds,
        },
    }
    if settings.mail.imap_url:
        schedule["poll-imap"] = {
            "task": "workers.tasks.poll_imap",
            "schedule": settings.mail.imap_poll_seconds,
        }
    return schedule


def celery_config(settings: Settings) -> dict:
    """Return the Celery configuration of ``settings``."""
    instance_path = settings.service.instance_path
    return {
        **broker_settings(settings.service.broker_url, instance_path),
        "task_ignore_result": True,
        "imports": ("workers.tasks",),
        "beat_schedule": beat_schedule(settings),
        "beat_schedule_filename": str(Path(instance_path) / "celerybeat-schedule"),
        "worker_hijack_root_logger": False,
        # a lost broker is waited for, however long: retried forever (Celery's default
        # gives up after 100 tries and the worker exits), on startup too
        "broker_connection_retry_on_startup": True,
        "broker_connection_max_retries": None,
        # a task running when the broker goes away finishes (every task is idempotent;
        # its message comes again and finds nothing to do) rather than being killed
        "worker_cancel_long_running_tasks_on_connection_loss": False,
    }


def flask_config(settings: Settings) -> dict:
    """Return the Flask config keys that Flask and its extensions (Flask-SQLAlchemy,
    Flask-Limiter, Flask-WTF, flask-smorest) and the Celery app read, from ``settings``."""
    service, limits = settings.service, settings.limits
    return {
        "SECRET_KEY": service.secret_key,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": (service.base_url or "").startswith("https://"),
        "PERMANENT_SESSION_LIFETIME": service.web_link_seconds,
        "WTF_CSRF_TIME_LIMIT": WTF_CSRF_TIME_LIMIT,
        "SQLALCHEMY_DATABASE_URI": settings.database.url,
        "SQLALCHEMY_ENGINE_OPTIONS": engine_options(settings.database),
        "MAX_CONTENT_LENGTH": limits.max_content_length,
        "RATELIMIT_ENABLED": limits.ratelimit_enabled,
        "RATELIMIT_STORAGE_URI": limits.ratelimit_storage_uri,
        "CELERY": celery_config(settings),
        "API_TITLE": "Arbiter",
        "API_VERSION": "v1",
        "OPENAPI_VERSION": "3.1.0",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
    }
