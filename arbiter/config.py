"""Configuration from environment variables (documented in docs/operating/configuration.md).

``DATABASE_URL``
    SQLAlchemy URL; default: a SQLite file in the instance folder (embedded default).
    ``postgresql://`` and ``postgres://`` URLs use the psycopg 3 driver.
``CELERY_BROKER_URL``
    Celery broker; default: kombu's filesystem transport in the instance folder (no
    server needed). ``redis://127.0.0.1:6379/0`` in production.
``SMTP_URL``
    ``smtp://[user:password@]host:port`` (``smtps://`` for TLS, ``?starttls=1`` for
    STARTTLS); unset: mails are written to the worker's log instead of sent.
``MAIL_FROM``
    the sender address of outgoing mail (default ``arbiter@localhost``).
``BASE_URL``
    the public URL of the service, used in mail links (default
    ``http://127.0.0.1:<PORT>``, ``PORT`` defaulting to 8000: what ``make run`` gives its
    processes, so a command run with the same ``PORT`` sees the same URL).
``SECRET_KEY``
    the key that seals stored idempotent answers (and signs whatever else needs it).
    Unset: a random key is made once and kept in ``<instance>/secret_key`` (mode 0600),
    and every start logs that it is used; several machines must share one
    ``SECRET_KEY``, so set it in production (``arbiter doctor`` says so).
``CLOCK_SWEEP_SECONDS``
    how often beat runs the clock sweep (timeouts, reminders; default 15).
``TOURNAMENT_SWEEP_SECONDS``
    how often beat runs the tournament sweep, which applies round deadlines and pairs
    rounds whose last game's task was lost (default 15).
``SWEEP_SECONDS``
    how often beat runs the outbox, web hook and chance sweeps, which send the mail and
    web hooks and roll the dice that were missed (broker down, worker lost; default 15).
``CLOCK_OUTAGE_SECONDS``
    a gap between two clock sweeps longer than this is an outage: deadlines that fell
    inside it are extended by its length (default 300).
``MAIL_RETRY_FIRST_SECONDS``, ``MAIL_RETRY_MAX_SECONDS``
    the back-off of a failed send: the first wait (default 5), doubled per try up to
    the cap (default 40), so that mail waiting out an SMTP outage goes out within a
    minute of its end.
``MAIL_GIVE_UP_SECONDS``
    a mail still failing this long after it was written is given up (default 259200,
    3 days).
``MAIL_CLAIM_SECONDS``
    how long a send in progress holds its mail; a worker lost mid-send leaves the mail
    to be sent again after this (default 300).
``DB_RETRY_AFTER_SECONDS``
    the ``Retry-After`` of the 503 answered while the database cannot be reached
    (default 5).
``READY_TIMEOUT_SECONDS``
    ``/readyz`` answers ``503 not-ready`` when its checks have not returned within
    this many seconds (default 3): a silent database or a cut link.
``DB_HELD_REPORT_SECONDS``
    ``arbiter doctor`` and ``/metrics`` report sessions idle in a transaction or
    waiting on a lock for longer than this (default 30).
``DB_PRE_PING``
    test each pooled connection with a round trip before lending it (SQLAlchemy's
    ``pool_pre_ping``). Default: off in the web process (a dead connection fails its
    request with 503 and Retry-After, and SQLAlchemy then replaces every pooled
    connection made before the failure), on in workers, beat and the command line
    (a task has no client to retry it).
``DB_CONNECT_TIMEOUT_SECONDS``
    how long opening a database connection may take, the server's greeting and
    authentication included (default 5): a silent server or a cut link fails it.
``DB_STATEMENT_TIMEOUT_SECONDS``, ``DB_LOCK_TIMEOUT_SECONDS``, ``DB_IDLE_IN_TRANSACTION_SECONDS``
    PostgreSQL's ``statement_timeout``, ``lock_timeout`` and
    ``idle_in_transaction_session_timeout`` of the service's own sessions (``0``: off).
    Defaults: web 30, 5, 30; workers and the command line 60, 10, 60 (each process
    reads its own environment). A session whose host died mid-transaction is ended by
    the server after the last, and its locks released.
``DB_KEEPALIVE_IDLE_SECONDS``, ``DB_KEEPALIVE_INTERVAL_SECONDS``, ``DB_KEEPALIVE_COUNT``
    TCP keep-alives of the database connection, set on both ends (libpq's
    ``keepalives_*`` and the session's ``tcp_keepalives_*``; defaults 10, 5, 3: a
    silent peer is noticed within about 25 s).
``DB_TCP_USER_TIMEOUT_SECONDS``
    data unacknowledged this long ends the connection, on both ends (default 15).
``DB_SESSION_OPTIONS``
    ``0``: send the server-side settings above as no libpq ``options`` (PgBouncer
    refuses them; set them with ``ALTER ROLE ... SET`` instead). Default ``1``.
``MAIL_DOMAIN``
    the domain of the reply addresses in turn mails (default: ``BASE_URL``'s host);
    mail to ``<capability>@MAIL_DOMAIN`` must reach the ``mailin`` listener.
``MAIL_REPLY_MAILBOX``
    set (e.g. ``arbiter``) for plus-addressing, ``arbiter+<capability>@MAIL_DOMAIN``;
    unset: a dedicated (sub)domain, ``<capability>@MAIL_DOMAIN``.
``MAILIN_URL``
    where the ``mailin`` SMTP listener binds (default ``smtp://127.0.0.1:8025``).
``MAIL_MAX_BYTES``
    inbound messages larger than this are refused unread (default 1048576).
``MAIL_REPLIES_PER_HOUR``
    at most this many answers to one address per hour; mail beyond is recorded and
    not acted on (default 120).
``MAIL_AUTHSERV_ID``
    the authserv-id of the receiving MTA's ``Authentication-Results`` headers to
    trust (default: every such header).
``IMAP_URL``
    ``imap://user:password@host:port/Folder`` (``imaps://`` for TLS): poll this mailbox
    for inbound mail (default: unset, no polling); ``IMAP_POLL_SECONDS`` (default 30),
    ``IMAP_DONE_FOLDER`` (move recorded messages there; default: only mark them seen).
``METRICS_TOKEN``
    the bearer token ``GET /metrics`` requires; unset: ``/metrics`` is 404.
``WEB_LINK_SECONDS``
    how long the signed seat link of a turn mail stays good (default 2,592,000: 30 days),
    from when the mail was written; a browser holds a seat opened by it no longer.
``MAX_START_AHEAD``
    how far ahead a game's ``start_at`` may be, in seconds (default 31,536,000: 365
    days); further is 422 ``bad-start``.
``OPEN_CREATION``
    ``1``: anybody may create games without a token; ``0``: creating needs a personal
    token with ``games:create``. Default: open on the embedded default (no
    ``DATABASE_URL``, i.e. ``make run`` for local play), closed in production.
``SIGN_IN_LINK_SECONDS``
    how long a mailed sign-in link works (default 900; it works once).
``SIGN_IN_TOKEN_SECONDS``
    how long the personal token a sign-in gives lasts (default 2592000, 30 days).
``INVITES_PER_DAY``
    how many different mailboxes without an account one account may invite in 24
    hours (default 20; single, bulk and campaign creation together; counted per
    mailbox, plus-tags and case folded, and per inviting mailbox). Creating without
    an account may invite nobody. Not a rate limit: ``RATELIMIT_ENABLED=0`` leaves it on.
``TOKENS_PER_ACCOUNT``
    the most live personal tokens (neither revoked nor expired, sign-in tokens
    included) an account may hold; making one more is 409 ``too-many-tokens``
    (default 50). A sign-in is never refused for it.
``WEB_THREADS``
    threads of the web process that run Flask requests (default 32); streams and
    long-polls wait on the event loop and hold none.
``STREAM_REDIS_URL``
    Redis for the stream notices (pub/sub); default: the Celery broker when it is
    Redis, else none (notices in-process, plus the poll).
``STREAM_CHANNEL``
    prefix of the Redis channels (default ``arbiter``).
``STREAM_BUFFER``
    messages a stream reader may fall behind before it is cut off (default 256); a
    reader the hub writes to directly, KiB left unsent in its connection.
``STREAM_KEEPALIVE_SECONDS``
    an idle stream gets a keep-alive after this long (default 15).
``STREAM_POLL_SECONDS``
    how often each web process reads the versions of the games it streams, to catch
    lost notices and writes from other processes on the embedded default (default 1).
``STREAM_REVOKE_CHECK_SECONDS``
    how often each web process looks up the personal tokens of its open streams and
    closes those revoked, expired or of a deleted account (default 30; a revocation
    notice closes them at once, this catches a lost one).
``STREAM_RETRY_MS``
    the SSE ``retry`` given to clients (default 1000).
``TOURNAMENT_MAX_ENTRIES``
    the most entries a tournament takes (default 500; 409 ``tournament-full``).
``BULK_GAMES_MAX``
    the most games one ``POST /v1/bulk-games`` may create (default 500).
``BULK_BODY_BYTES``
    the largest request body ``POST /v1/bulk-games`` accepts, in bytes (default
    1,048,576; every other route takes 64 KiB).
``BODY_DRAIN_BYTES``, ``BODY_DRAIN_SECONDS``
    before a 413 the web process reads and drops up to this much more of the body
    (default 8,388,608 bytes), for at most this long (default 2), so that a client
    still sending gets the 413 rather than a reset connection.
``BODY_TIMEOUT_SECONDS``, ``BODY_MIN_RATE``, ``BODY_MAX_SECONDS``
    the web process reads a request's whole body on its event loop before a Flask
    thread sees it; the body must arrive within ``BODY_TIMEOUT_SECONDS`` (default 10)
    plus a second per ``BODY_MIN_RATE`` bytes received (default 1024), and never
    takes over ``BODY_MAX_SECONDS`` (default 60); slower is 408 ``body-too-slow``
    and the connection is closed.
``MAX_REQUEST_LINE``
    the longest request line the web process reads (default 8190 bytes; longer: 414).
``HEAD_TIMEOUT_SECONDS``
    a request head (request line and headers) must be complete within this many
    seconds of the connection or of its first byte (default 10); else 408
    ``head-too-slow`` and the connection is closed (a connection that sent nothing
    is closed without an answer).
``KEEPALIVE_SECONDS``
    an idle kept-alive connection is closed after this long (default 5).
``CLIENT_MAX_PENDING``
    unfinished connections (idle, or still sending a head or a body) one client
    address may hold in one web process (default 32; IPv6 counts per /64): past
    it, the address's next connection closes its oldest (429
    ``too-many-connections`` if a request had begun) if that one has been
    unfinished for ``SLOW_AFTER_SECONDS`` (default 1). Connections that are
    answered (streams, long-polls) do not count, nor do those of a trusted proxy
    (``FORWARDED_ALLOW_IPS``).
``WEB_MAX_PENDING``
    unfinished connections one web process holds, from all addresses, past which
    a new connection closes the oldest likewise (default 512).
``FORWARDED_ALLOW_IPS``
    the proxies (addresses or networks, comma-separated) whose ``X-Forwarded-For``
    and ``X-Forwarded-Proto`` the web process believes; read by uvicorn (the
    Procfile passes it). Default: none, so rate limits key on the connection's peer.
``RATELIMIT_STORAGE_URI``
    where rate limits are counted (Flask-Limiter); default: the Celery broker when it
    is Redis, else ``memory://`` (per process). The sign-in limits are counted in the
    database instead (every process sees them).
``RATELIMIT_ENABLED``
    ``0`` turns every rate limit off (default on).
``RATELIMIT_CREATE``, ``RATELIMIT_WRITE``, ``RATELIMIT_READ``, ``RATELIMIT_SIGN_IN``,
``RATELIMIT_SIGN_IN_CLIENT``, ``RATELIMIT_INVITE``
    the limits, as ``limits`` strings (``"20 per minute;200 per day"``; empty: none);
    see :mod:`arbiter.limits` and ``RATE_LIMITS`` below.
``WEBHOOK_ALLOW_HTTP``
    ``1``: web hooks may be ``http://`` URLs; ``0``: only ``https://``. Default: on for
    the embedded default (no ``DATABASE_URL``), off in production.
``WEBHOOK_ALLOWED_NETWORKS``
    comma-separated networks (``127.0.0.0/8,::1/128``) that web hooks may reach although
    they are loopback, private or link-local; default none: such URLs are refused, at
    registration and on every connection.
``WEBHOOK_TIMEOUT_SECONDS``
    how long a delivery waits to connect and for each read (default 10).
``WEBHOOK_DEADLINE_SECONDS``
    the most one delivery attempt may take in all, name lookup, connecting, sending
    and the whole answer included, however slowly the receiver sends (default 10); an
    attempt cut short is a failed try, retried after its back-off.
``WEBHOOKS_IN_FLIGHT_PER_ACCOUNT``
    the most deliveries of one account's hooks tried at once (default 4); the others
    wait their turn, so one account's slow receivers hold at most that many of the
    ``hooks`` process's threads.
``WEBHOOK_RETRY_FIRST_SECONDS``, ``WEBHOOK_RETRY_MAX_SECONDS``
    the back-off of a failed delivery: the first wait (default 5), doubled per try up
    to the cap (default 3600).
``WEBHOOK_MAX_ATTEMPTS``
    tries of one delivery before it is given up (default 10, the last about 43 min
    after the first).
``WEBHOOKS_PER_ACCOUNT``
    the most web hooks one account may register (default 20).
``ARBITER_INSTANCE_PATH``
    the folder for the embedded SQLite file and filesystem broker (default:
    ``instance/`` beside the package).
"""

from __future__ import annotations

import logging
import os
import secrets
import time
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

SECRET_KEY_FILE = "secret_key"


def instance_secret_key(instance_path: str) -> str:
    """Return the secret key kept in the instance folder, making it on first use.

    The file is created exclusively (mode 0600), so processes starting together
    agree on one key.
    """
    path = Path(instance_path) / SECRET_KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.05)
        raise RuntimeError(f"{path} is empty: remove it or set SECRET_KEY") from None
    key = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w") as out:
        out.write(key)
    return key


def secret_key(env: Mapping[str, str], instance_path: str) -> str:
    """Return ``SECRET_KEY`` from ``env``, or the instance folder's key (logged)."""
    if env.get("SECRET_KEY"):
        return env["SECRET_KEY"]
    log.warning(
        "SECRET_KEY is not set: using the key kept in %s; set SECRET_KEY in "
        "production (every machine of a deployment needs the same one)",
        Path(instance_path) / SECRET_KEY_FILE,
    )
    return instance_secret_key(instance_path)


def database_url(raw: str | None, instance_path: str) -> str:
    """Return a SQLAlchemy URL for ``raw`` (or the embedded SQLite default)."""
    if not raw:
        return f"sqlite:///{Path(instance_path) / 'arbiter.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix) :]
    return raw


DB_SESSION_DEFAULTS = {
    "web": {
        "DB_STATEMENT_TIMEOUT_SECONDS": 30.0,
        "DB_LOCK_TIMEOUT_SECONDS": 5.0,
        "DB_IDLE_IN_TRANSACTION_SECONDS": 30.0,
    },
    "workers": {
        "DB_STATEMENT_TIMEOUT_SECONDS": 60.0,
        "DB_LOCK_TIMEOUT_SECONDS": 10.0,
        "DB_IDLE_IN_TRANSACTION_SECONDS": 60.0,
    },
}
"""The per-process defaults of the PostgreSQL session limits: the web process answers
people (a request must not wait long), workers and the command line run tasks and
sweeps. Beat opens no database session (the sweeps it schedules run on workers)."""

DB_LINK_DEFAULTS = {
    "DB_CONNECT_TIMEOUT_SECONDS": 5.0,
    "DB_KEEPALIVE_IDLE_SECONDS": 10.0,
    "DB_KEEPALIVE_INTERVAL_SECONDS": 5.0,
    "DB_KEEPALIVE_COUNT": 3,
    "DB_TCP_USER_TIMEOUT_SECONDS": 15.0,
}
"""The defaults of the connection's TCP limits, the same for every process: a silent
link is noticed within about 25 s when idle (keep-alives: 10 s, then 3 probes 5 s
apart) and 15 s when data waits to be acknowledged (``tcp_user_timeout``)."""


def db_session_settings(env: Mapping[str, str], role: str = "workers") -> dict:
    """Return the ``DB_*`` session and link settings of a process of ``role``
    (``"web"`` or ``"workers"``, the latter also for the command line), read from
    ``env`` over :data:`DB_SESSION_DEFAULTS` and :data:`DB_LINK_DEFAULTS`.

    Seconds may be fractional; ``0`` turns a timeout off. ``DB_SESSION_OPTIONS=0``
    sends no ``options`` to the server (PgBouncer refuses them: see the README).
    """
    out: dict = {}
    for key, default in {**DB_LINK_DEFAULTS, **DB_SESSION_DEFAULTS[role]}.items():
        out[key] = type(default)(env.get(key, default))
    out["DB_SESSION_OPTIONS"] = flag(env.get("DB_SESSION_OPTIONS"), default=True)
    return out


def _ms(seconds: float) -> int:
    """Return ``seconds`` in whole milliseconds."""
    return int(round(float(seconds) * 1000))


def postgres_connect_args(url: str, settings: Mapping) -> dict:
    """Return the libpq connection parameters of ``settings`` (:func:`db_session_settings`)
    for a PostgreSQL ``url``.

    Client side: ``connect_timeout``, TCP keep-alives and ``tcp_user_timeout``, so that
    a dead server or a cut link fails a query instead of hanging. Server side, through
    libpq's ``options`` (``-c name=value``, appended to any ``options`` of the URL):
    ``statement_timeout``, ``lock_timeout``, ``idle_in_transaction_session_timeout``
    and the server's own keep-alives and ``tcp_user_timeout`` for this session, so that
    a session whose host died (power lost mid-transaction) is ended by the server and
    its locks released within about a minute, whatever the server's defaults.
    """
    args: dict = {
        "connect_timeout": max(1, int(round(float(settings["DB_CONNECT_TIMEOUT_SECONDS"])))),
        "keepalives": 1,
        "keepalives_idle": max(1, int(settings["DB_KEEPALIVE_IDLE_SECONDS"])),
        "keepalives_interval": max(1, int(settings["DB_KEEPALIVE_INTERVAL_SECONDS"])),
        "keepalives_count": max(1, int(settings["DB_KEEPALIVE_COUNT"])),
        "tcp_user_timeout": _ms(settings["DB_TCP_USER_TIMEOUT_SECONDS"]),
    }
    if not settings.get("DB_SESSION_OPTIONS", True):
        return args
    server = {
        "statement_timeout": _ms(settings["DB_STATEMENT_TIMEOUT_SECONDS"]),
        "lock_timeout": _ms(settings["DB_LOCK_TIMEOUT_SECONDS"]),
        "idle_in_transaction_session_timeout": _ms(settings["DB_IDLE_IN_TRANSACTION_SECONDS"]),
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


def engine_options(url: str, pre_ping: bool = True, session: Mapping | None = None) -> dict:
    """Return SQLAlchemy engine options: a pool sized for the web process's ``WEB_THREADS`` on a
    server database (SQLite keeps its own pool); ``pre_ping``: ``DB_PRE_PING``;
    ``session``: the ``DB_*`` settings (default: the workers', from no environment),
    made into connection parameters by :func:`postgres_connect_args`."""
    if url.startswith("sqlite"):
        return {"pool_pre_ping": pre_ping}
    return {
        "pool_pre_ping": pre_ping,
        "pool_size": 10,
        "max_overflow": 30,
        "pool_timeout": 10,
        "connect_args": postgres_connect_args(url, session or db_session_settings({})),
    }


def web_settings(env: Mapping[str, str] | None = None) -> dict:
    """Return the settings the web process takes over :func:`load`'s: no pre-ping
    unless ``DB_PRE_PING`` asks for it, and the web process's session limits
    (:data:`DB_SESSION_DEFAULTS`; see the module)."""
    env = os.environ if env is None else env
    pre_ping = flag(env.get("DB_PRE_PING"), default=False)
    session = db_session_settings(env, "web")
    url = database_url(env.get("DATABASE_URL"), "") if env.get("DATABASE_URL") else "sqlite:"
    return {
        "DB_PRE_PING": pre_ping,
        **session,
        "SQLALCHEMY_ENGINE_OPTIONS": engine_options(url, pre_ping, session),
    }


def app_engine_options(config: Mapping) -> dict:
    """Return the engine options for a Flask config whose database URL was replaced
    after :func:`load` (tests), from its ``DB_PRE_PING`` and ``DB_*`` settings."""
    return engine_options(
        config["SQLALCHEMY_DATABASE_URI"],
        config.get("DB_PRE_PING", True),
        {key: config[key] for key in db_session_settings({}) if key in config},
    )


def connection_limits(env: Mapping[str, str] | None = None) -> dict:
    """Return the limits the web process's HTTP protocol
    (:class:`arbiter.serve.ProblemH11Protocol`) puts on connections, read from ``env``
    (default ``os.environ``): see the module for each."""
    env = os.environ if env is None else env
    return {
        "MAX_REQUEST_LINE": int(env.get("MAX_REQUEST_LINE", 8190)),
        "HEAD_TIMEOUT_SECONDS": float(env.get("HEAD_TIMEOUT_SECONDS", 10)),
        "KEEPALIVE_SECONDS": float(env.get("KEEPALIVE_SECONDS", 5)),
        "CLIENT_MAX_PENDING": max(1, int(env.get("CLIENT_MAX_PENDING", 32))),
        "WEB_MAX_PENDING": max(1, int(env.get("WEB_MAX_PENDING", 512))),
        "SLOW_AFTER_SECONDS": float(env.get("SLOW_AFTER_SECONDS", 1)),
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


def _beat(env: Mapping[str, str]) -> dict:
    """Return the beat schedule of the sweeps (seconds between runs)."""
    sweeps = float(env.get("SWEEP_SECONDS", 15))
    return {
        "sweep-outbox": {"task": "workers.tasks.sweep_outbox", "schedule": sweeps},
        "sweep-chance": {"task": "workers.tasks.sweep_chance", "schedule": sweeps},
        "sweep-webhooks": {"task": "workers.tasks.sweep_webhooks", "schedule": sweeps},
        "sweep-inbound": {"task": "workers.tasks.sweep_inbound", "schedule": 15.0},
        "sweep-clock": {
            "task": "workers.tasks.sweep_clock",
            "schedule": float(env.get("CLOCK_SWEEP_SECONDS", 15)),
        },
        "sweep-tournaments": {
            "task": "workers.tasks.sweep_tournaments",
            "schedule": float(env.get("TOURNAMENT_SWEEP_SECONDS", 15)),
        },
    }


RATE_LIMITS = {
    "RATELIMIT_CREATE": "20 per minute;500 per day",
    "RATELIMIT_WRITE": "300 per minute",
    "RATELIMIT_READ": "1200 per minute",
    "RATELIMIT_SIGN_IN": "3 per 10 minutes;10 per day",
    "RATELIMIT_SIGN_IN_CLIENT": "30 per hour",
    "RATELIMIT_INVITE": "3 per minute;10 per day",
}
"""Default rate limits: per caller (create, write, read), per mailbox (sign-in links),
per client IP (sign-in links), per creator and mailbox (invitations)."""


def ratelimit_storage(env: Mapping[str, str]) -> str:
    """Return where rate limits are counted: ``RATELIMIT_STORAGE_URI``, else a Redis
    broker, else in memory."""
    if env.get("RATELIMIT_STORAGE_URI"):
        return env["RATELIMIT_STORAGE_URI"]
    broker = env.get("CELERY_BROKER_URL", "")
    return broker if broker.startswith(("redis://", "rediss://")) else "memory://"


def flag(raw: str | None, default: bool) -> bool:
    """Return an on/off setting: ``1``, ``true``, ``yes``, ``on`` are on; unset: default."""
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() in ("1", "true", "yes", "on")


def stream_redis_url(env: Mapping[str, str]) -> str:
    """Return the Redis URL the stream notices go through: ``STREAM_REDIS_URL``, else
    the Celery broker when it is Redis, else "" (in-process notices and the poll)."""
    if "STREAM_REDIS_URL" in env:
        return env["STREAM_REDIS_URL"]
    broker = env.get("CELERY_BROKER_URL", "")
    return broker if broker.startswith(("redis://", "rediss://")) else ""


def default_base_url(env: Mapping[str, str]) -> str:
    """Return the ``BASE_URL`` used when none is set: ``http://127.0.0.1:<PORT>``
    (``PORT`` default 8000), the one ``make run`` sets for its processes."""
    return f"http://127.0.0.1:{env.get('PORT') or 8000}"


def load(instance_path: str, env: Mapping[str, str] | None = None) -> dict:
    """Return the Flask config mapping read from ``env`` (default ``os.environ``)."""
    env = os.environ if env is None else env
    Path(instance_path).mkdir(parents=True, exist_ok=True)
    url = database_url(env.get("DATABASE_URL"), instance_path)
    celery = {
        **broker_settings(env.get("CELERY_BROKER_URL"), instance_path),
        "task_ignore_result": True,
        "imports": ("workers.tasks",),
        "beat_schedule": _beat(env),
        **(
            {
                "beat_schedule": {
                    **_beat(env),
                    "poll-imap": {
                        "task": "workers.tasks.poll_imap",
                        "schedule": float(env.get("IMAP_POLL_SECONDS", 30)),
                    },
                }
            }
            if env.get("IMAP_URL")
            else {}
        ),
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
    base_url = (env.get("BASE_URL") or default_base_url(env)).rstrip("/")
    return {
        "SECRET_KEY": secret_key(env, instance_path),
        "SECRET_KEY_FROM_ENV": bool(env.get("SECRET_KEY")),
        "WEB_LINK_SECONDS": int(env.get("WEB_LINK_SECONDS", 30 * 86400)),
        "MAX_START_AHEAD": int(env.get("MAX_START_AHEAD", 365 * 86400)),
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": base_url.startswith("https://"),
        "PERMANENT_SESSION_LIFETIME": int(env.get("WEB_LINK_SECONDS", 30 * 86400)),
        "WTF_CSRF_TIME_LIMIT": 7 * 86400,
        "SQLALCHEMY_DATABASE_URI": url,
        "DB_PRE_PING": flag(env.get("DB_PRE_PING"), True),
        **db_session_settings(env, "workers"),
        "SQLALCHEMY_ENGINE_OPTIONS": engine_options(
            url, flag(env.get("DB_PRE_PING"), True), db_session_settings(env, "workers")
        ),
        "SMTP_URL": env.get("SMTP_URL", ""),
        "MAIL_FROM": env.get("MAIL_FROM", "arbiter@localhost"),
        "BASE_URL": base_url,
        "BASE_URL_FROM_ENV": bool(env.get("BASE_URL")),
        "MAIL_DOMAIN": env.get("MAIL_DOMAIN", ""),
        "MAIL_REPLY_MAILBOX": env.get("MAIL_REPLY_MAILBOX", ""),
        "MAILIN_URL": env.get("MAILIN_URL", "smtp://127.0.0.1:8025"),
        "MAIL_MAX_BYTES": int(env.get("MAIL_MAX_BYTES", 1024 * 1024)),
        "MAIL_REPLIES_PER_HOUR": int(env.get("MAIL_REPLIES_PER_HOUR", 120)),
        "MAIL_AUTHSERV_ID": env.get("MAIL_AUTHSERV_ID", ""),
        "MAIL_LIST_MOVES": int(env.get("MAIL_LIST_MOVES", 30)),
        "IMAP_URL": env.get("IMAP_URL", ""),
        "IMAP_DONE_FOLDER": env.get("IMAP_DONE_FOLDER", ""),
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "BULK_GAMES_MAX": int(env.get("BULK_GAMES_MAX", 500)),
        "TOURNAMENT_MAX_ENTRIES": int(env.get("TOURNAMENT_MAX_ENTRIES", 500)),
        "BULK_BODY_BYTES": int(env.get("BULK_BODY_BYTES", 1024 * 1024)),
        "BODY_DRAIN_BYTES": int(env.get("BODY_DRAIN_BYTES", 8 * 1024 * 1024)),
        "BODY_DRAIN_SECONDS": float(env.get("BODY_DRAIN_SECONDS", 2.0)),
        "BODY_TIMEOUT_SECONDS": float(env.get("BODY_TIMEOUT_SECONDS", 10)),
        "BODY_MIN_RATE": float(env.get("BODY_MIN_RATE", 1024)),
        "BODY_MAX_SECONDS": float(env.get("BODY_MAX_SECONDS", 60)),
        **connection_limits(env),
        "LONG_POLL_MAX": 30.0,
        "WEB_THREADS": int(env.get("WEB_THREADS", 32)),
        "METRICS_TOKEN": env.get("METRICS_TOKEN", ""),
        "STREAM_REDIS_URL": stream_redis_url(env),
        "STREAM_CHANNEL": env.get("STREAM_CHANNEL", "arbiter"),
        "STREAM_BUFFER": int(env.get("STREAM_BUFFER", 256)),
        "STREAM_KEEPALIVE_SECONDS": float(env.get("STREAM_KEEPALIVE_SECONDS", 15)),
        "STREAM_POLL_SECONDS": float(env.get("STREAM_POLL_SECONDS", 1.0)),
        "STREAM_REVOKE_CHECK_SECONDS": float(env.get("STREAM_REVOKE_CHECK_SECONDS", 30)),
        "STREAM_RETRY_MS": int(env.get("STREAM_RETRY_MS", 1000)),
        "CLOCK_OUTAGE_SECONDS": float(env.get("CLOCK_OUTAGE_SECONDS", 300)),
        "MAIL_RETRY_FIRST_SECONDS": float(env.get("MAIL_RETRY_FIRST_SECONDS", 5)),
        "MAIL_RETRY_MAX_SECONDS": float(env.get("MAIL_RETRY_MAX_SECONDS", 40)),
        "MAIL_GIVE_UP_SECONDS": float(env.get("MAIL_GIVE_UP_SECONDS", 3 * 86400)),
        "MAIL_CLAIM_SECONDS": float(env.get("MAIL_CLAIM_SECONDS", 300)),
        "MAIL_MARK_SENT_SECONDS": 120.0,
        "SMTP_TIMEOUT_SECONDS": 30.0,
        "DB_RETRY_AFTER_SECONDS": int(env.get("DB_RETRY_AFTER_SECONDS", 5)),
        "READY_TIMEOUT_SECONDS": float(env.get("READY_TIMEOUT_SECONDS", 3)),
        "DB_HELD_REPORT_SECONDS": float(env.get("DB_HELD_REPORT_SECONDS", 30)),
        "OPEN_CREATION": flag(env.get("OPEN_CREATION"), default=not env.get("DATABASE_URL")),
        "RATELIMIT_ENABLED": flag(env.get("RATELIMIT_ENABLED"), default=True),
        "RATELIMIT_STORAGE_URI": ratelimit_storage(env),
        **{key: env.get(key, value) for key, value in RATE_LIMITS.items()},
        "SIGN_IN_LINK_SECONDS": int(env.get("SIGN_IN_LINK_SECONDS", 900)),
        "SIGN_IN_TOKEN_SECONDS": int(env.get("SIGN_IN_TOKEN_SECONDS", 30 * 86400)),
        "INVITES_PER_DAY": int(env.get("INVITES_PER_DAY", 20)),
        "TOKENS_PER_ACCOUNT": int(env.get("TOKENS_PER_ACCOUNT", 50)),
        "WEBHOOK_ALLOW_HTTP": flag(
            env.get("WEBHOOK_ALLOW_HTTP"), default=not env.get("DATABASE_URL")
        ),
        "WEBHOOK_ALLOWED_NETWORKS": env.get("WEBHOOK_ALLOWED_NETWORKS", ""),
        "WEBHOOK_TIMEOUT_SECONDS": float(env.get("WEBHOOK_TIMEOUT_SECONDS", 10)),
        "WEBHOOK_DEADLINE_SECONDS": float(env.get("WEBHOOK_DEADLINE_SECONDS", 10)),
        "WEBHOOKS_IN_FLIGHT_PER_ACCOUNT": int(env.get("WEBHOOKS_IN_FLIGHT_PER_ACCOUNT", 4)),
        "WEBHOOK_RETRY_FIRST_SECONDS": float(env.get("WEBHOOK_RETRY_FIRST_SECONDS", 5)),
        "WEBHOOK_RETRY_MAX_SECONDS": float(env.get("WEBHOOK_RETRY_MAX_SECONDS", 3600)),
        "WEBHOOK_MAX_ATTEMPTS": int(env.get("WEBHOOK_MAX_ATTEMPTS", 10)),
        "WEBHOOK_CLAIM_SECONDS": 60.0,
        "WEBHOOK_TASK_RETRY_SECONDS": 300.0,
        "WEBHOOKS_PER_ACCOUNT": int(env.get("WEBHOOKS_PER_ACCOUNT", 20)),
        "CELERY": celery,
        "ENQUEUE": True,
        "API_TITLE": "Arbiter",
        "API_VERSION": "v1",
        "OPENAPI_VERSION": "3.1.0",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
    }
