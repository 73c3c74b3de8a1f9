"""The settings of a deployment: one frozen object, grouped by concern, built once at
start-up (:meth:`Settings.from_env`) and passed to what needs it (DESIGN.md, "Layout";
issue 21, item 4).

Every setting is a field of a group below. Its metadata holds the name it is known by
(``name``, the upper-case name of the environment or of ``create_app``'s overrides), one
sentence saying what it does (``doc``) and whether a deployment sets it in the
environment (``env``). Only the few settings an operator really sets are read from the
environment (:func:`environment_names`); the others are named constants with a default
that code (tests, ``create_app(overrides)``) may replace, and that ``ARBITER_OVERRIDES``
(a JSON object of names and values, for tests and experiments) may replace in a process
started from a shell. ``docs/operating/configuration.md`` is written from these fields
(:func:`reference`; ``arbiter settings-reference`` rewrites it, and
``tests/arbiter/operating/test_configuration_docs.py`` fails when they disagree).

Contexts read the settings of the running app with :func:`current`, without Flask: the
app factory binds each app's settings to its app contexts (:func:`push` / :func:`pop`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import secrets
import sys
import time
import types
import typing
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SECRET_KEY_FILE = "secret_key"
"""The file of the instance folder that keeps the key made when ``SECRET_KEY`` is unset."""

OVERRIDES_VARIABLE = "ARBITER_OVERRIDES"
"""The environment variable of a JSON object ``{"NAME": value}`` that replaces any
setting by its name (tests and experiments; a deployment sets the variables above)."""


class SettingsError(ValueError):
    """A setting is unknown or its value is not of its type; the message names it."""


def setting(default: Any, doc: str, name: str, *, env: bool = False, shown: str = "") -> Any:
    """Return a dataclass field for setting ``name`` (its ``doc``: one sentence;
    ``env``: a deployment sets it in the environment; ``shown``: how the docs show a
    default that is worked out at start-up)."""
    return field(default=default, metadata={"name": name, "doc": doc, "env": env, "shown": shown})


def internal(default: Any) -> Any:
    """Return a dataclass field that start-up fills in and nobody sets by name."""
    return field(default=default, metadata={"name": None}, repr=False)


# --------------------------------------------------------------------------- groups


@dataclass(frozen=True)
class Service:
    """Where the service is and who may use it."""

    base_url: str | None = setting(
        None,
        "The public URL of the service, used in the links of mails; "
        "several machines must share one.",
        "BASE_URL",
        env=True,
        shown="`http://127.0.0.1:$PORT` (`PORT` default `8000`), as `make run` sets it",
    )
    secret_key: str | None = field(
        default=None,
        repr=False,
        metadata={
            "name": "SECRET_KEY",
            "env": True,
            "doc": "Seals stored idempotent answers and signs links and cookies; every "
            "machine of a deployment needs the same one.",
            "shown": "a random key made once and kept in `instance/secret_key` (0600), "
            "with a warning at every start",
        },
    )
    broker_url: str = setting(
        "",
        "The Celery broker, e.g. `redis://127.0.0.1:6379/0`; a Redis broker also "
        "carries the stream notices and the rate limits.",
        "CELERY_BROKER_URL",
        env=True,
        shown="kombu's filesystem transport in the instance folder (one machine)",
    )
    metrics_token: str = field(
        default="",
        repr=False,
        metadata={
            "name": "METRICS_TOKEN",
            "env": True,
            "doc": "The bearer token `GET /metrics` requires.",
            "shown": "unset: `/metrics` is 404",
        },
    )
    open_creation: bool | None = setting(
        None,
        "`1`: anybody may create games without a token; `0`: creating needs a personal "
        "token with `games:create`.",
        "OPEN_CREATION",
        env=True,
        shown="on for the embedded default (no `DATABASE_URL`), off in production",
    )
    web_threads: int = setting(
        32,
        "Threads of each web process that run Flask requests; streams and long-polls "
        "wait on the event loop and hold none.",
        "WEB_THREADS",
        env=True,
    )
    ready_timeout_seconds: float = setting(
        3.0,
        "`/readyz` answers `503 not-ready` when its checks have not returned within this.",
        "READY_TIMEOUT_SECONDS",
    )
    web_link_seconds: int = setting(
        30 * 86400,
        "How long the signed seat link of a turn mail stays good, from when the mail was "
        "written; a browser holds a seat opened by it no longer.",
        "WEB_LINK_SECONDS",
    )
    enqueue: bool = setting(
        True,
        "`0`: tasks are not sent to the broker (tests run them by hand).",
        "ENQUEUE",
    )
    instance_path: str = internal("")
    secret_key_from_env: bool = internal(False)
    base_url_from_env: bool = internal(False)
    embedded: bool = internal(True)


@dataclass(frozen=True)
class Database:
    """The database and the limits of the service's own sessions."""

    url: str = setting(
        "",
        "The SQLAlchemy URL; `postgresql://user@host/db` uses psycopg 3.",
        "DATABASE_URL",
        env=True,
        shown="a SQLite file in the instance folder (the embedded default)",
    )
    session_options: bool = setting(
        True,
        "`0`: send the server-side limits below as no libpq `options` (PgBouncer refuses "
        "them; set them with `ALTER ROLE ... SET` instead).",
        "DB_SESSION_OPTIONS",
        env=True,
    )
    pre_ping: bool = setting(
        True,
        "Test each pooled connection with a round trip before lending it "
        "(`pool_pre_ping`); the web process answers 503 and `Retry-After` instead.",
        "DB_PRE_PING",
        shown="web `0`, others `1`",
    )
    statement_timeout_seconds: float = setting(
        60.0,
        "PostgreSQL `statement_timeout` of the service's sessions (`0`: off).",
        "DB_STATEMENT_TIMEOUT_SECONDS",
        shown="web `30`, others `60`",
    )
    lock_timeout_seconds: float = setting(
        10.0,
        "`lock_timeout`: a statement waiting longer on a row lock fails (a request: "
        "`503` and `Retry-After`).",
        "DB_LOCK_TIMEOUT_SECONDS",
        shown="web `5`, others `10`",
    )
    idle_in_transaction_seconds: float = setting(
        60.0,
        "`idle_in_transaction_session_timeout`: the server ends a session of ours that "
        "sits in a transaction this long (a host that died holding locks).",
        "DB_IDLE_IN_TRANSACTION_SECONDS",
        shown="web `30`, others `60`",
    )
    connect_timeout_seconds: float = setting(
        5.0,
        "How long opening a database connection may take, greeting and authentication included.",
        "DB_CONNECT_TIMEOUT_SECONDS",
    )
    keepalive_idle_seconds: float = setting(
        10.0,
        "TCP keep-alives of database connections on both ends: idle time before the first probe.",
        "DB_KEEPALIVE_IDLE_SECONDS",
    )
    keepalive_interval_seconds: float = setting(
        5.0, "Seconds between two keep-alive probes.", "DB_KEEPALIVE_INTERVAL_SECONDS"
    )
    keepalive_count: int = setting(
        3, "Unanswered keep-alive probes that end the connection.", "DB_KEEPALIVE_COUNT"
    )
    tcp_user_timeout_seconds: float = setting(
        15.0,
        "Data unacknowledged this long ends a database connection, on both ends.",
        "DB_TCP_USER_TIMEOUT_SECONDS",
    )
    retry_after_seconds: int = setting(
        5,
        "The `Retry-After` of the 503 answered while the database cannot be reached.",
        "DB_RETRY_AFTER_SECONDS",
    )
    held_report_seconds: float = setting(
        30.0,
        "`arbiter doctor` and `/metrics` report sessions idle in a transaction or "
        "waiting on a lock longer than this.",
        "DB_HELD_REPORT_SECONDS",
    )


WEB_DATABASE = {
    "pre_ping": False,
    "statement_timeout_seconds": 30.0,
    "lock_timeout_seconds": 5.0,
    "idle_in_transaction_seconds": 30.0,
}
"""The web process's own database defaults: it answers people (a request must not wait
long; a dead pooled connection fails its request with 503 and is replaced), whereas
workers and the command line run tasks that have no client to retry them."""


@dataclass(frozen=True)
class Mail:
    """Outgoing mail and the ways mail comes in."""

    smtp_url: str = setting(
        "",
        "`smtp://[user:password@]host:port` (`smtps://` for TLS, `?starttls=1` for STARTTLS).",
        "SMTP_URL",
        env=True,
        shown="unset: mails are written to the worker's log",
    )
    sender: str = setting(
        "arbiter@localhost", "The sender address of outgoing mail.", "MAIL_FROM", env=True
    )
    domain: str = setting(
        "",
        "The domain of the reply addresses in turn mails; mail to it must reach the "
        "`mailin` listener.",
        "MAIL_DOMAIN",
        env=True,
        shown="`BASE_URL`'s host (an IP address as its address literal)",
    )
    reply_mailbox: str = setting(
        "",
        "Set (e.g. `arbiter`) for plus-addressing, `arbiter+<capability>@MAIL_DOMAIN`; "
        "unset: a dedicated (sub)domain.",
        "MAIL_REPLY_MAILBOX",
        env=True,
    )
    mailin_url: str = setting(
        "smtp://127.0.0.1:8025",
        "Where the `mailin` SMTP listener binds.",
        "MAILIN_URL",
        env=True,
    )
    authserv_id: str = setting(
        "",
        "The authserv-id of the receiving MTA's `Authentication-Results` headers to trust.",
        "MAIL_AUTHSERV_ID",
        env=True,
        shown="unset: every such header",
    )
    imap_url: str = setting(
        "",
        "`imap[s]://user:password@host:port/Folder`: poll this mailbox for inbound mail.",
        "IMAP_URL",
        env=True,
        shown="unset: no polling",
    )
    imap_done_folder: str = setting(
        "",
        "Move the recorded messages of the polled mailbox there.",
        "IMAP_DONE_FOLDER",
        shown="unset: only mark them seen",
    )
    imap_poll_seconds: float = setting(
        30.0, "How often beat polls `IMAP_URL`.", "IMAP_POLL_SECONDS"
    )
    max_bytes: int = setting(
        1024 * 1024, "Inbound messages larger than this are refused unread.", "MAIL_MAX_BYTES"
    )
    replies_per_hour: int = setting(
        120,
        "At most this many answers to one address per hour; mail beyond is recorded and "
        "not acted on.",
        "MAIL_REPLIES_PER_HOUR",
    )
    list_moves: int = setting(30, "The most legal moves a turn mail lists.", "MAIL_LIST_MOVES")
    retry_first_seconds: float = setting(
        5.0, "The first wait after a failed send, doubled per try.", "MAIL_RETRY_FIRST_SECONDS"
    )
    retry_max_seconds: float = setting(
        40.0,
        "The cap of that wait, so that mail waiting out an SMTP outage goes out within a "
        "minute of its end.",
        "MAIL_RETRY_MAX_SECONDS",
    )
    give_up_seconds: float = setting(
        3 * 86400.0,
        "A mail still failing this long after it was written is given up.",
        "MAIL_GIVE_UP_SECONDS",
    )
    claim_seconds: float = setting(
        300.0,
        "How long a send in progress holds its mail; a worker lost mid-send leaves it to "
        "be sent again after this.",
        "MAIL_CLAIM_SECONDS",
    )
    mark_sent_seconds: float = setting(
        120.0,
        "How long a sent mail's worker keeps trying to record that it was sent.",
        "MAIL_MARK_SENT_SECONDS",
    )
    smtp_timeout_seconds: float = setting(
        30.0, "The SMTP client's timeout of each step.", "SMTP_TIMEOUT_SECONDS"
    )


@dataclass(frozen=True)
class Hooks:
    """Web hooks: what they may reach and how deliveries are tried."""

    allow_http: bool | None = setting(
        None,
        "`1`: web hooks may be `http://` URLs; `0`: only `https://`.",
        "WEBHOOK_ALLOW_HTTP",
        shown="on for the embedded default (no `DATABASE_URL`), off in production",
    )
    allowed_networks: str = setting(
        "",
        "Comma-separated networks (`127.0.0.0/8,::1/128`) web hooks may reach although "
        "loopback, private or link-local.",
        "WEBHOOK_ALLOWED_NETWORKS",
        shown="unset: such URLs are refused, at registration and on every connection",
    )
    timeout_seconds: float = setting(
        10.0, "Connect and read timeout of one delivery (each).", "WEBHOOK_TIMEOUT_SECONDS"
    )
    deadline_seconds: float = setting(
        10.0,
        "The most one delivery attempt takes in all, however slowly the receiver answers.",
        "WEBHOOK_DEADLINE_SECONDS",
    )
    in_flight_per_account: int = setting(
        4,
        "The most deliveries of one account's hooks tried at once; the others wait their turn.",
        "WEBHOOKS_IN_FLIGHT_PER_ACCOUNT",
    )
    retry_first_seconds: float = setting(
        5.0,
        "The first wait after a failed delivery, doubled per try.",
        "WEBHOOK_RETRY_FIRST_SECONDS",
    )
    retry_max_seconds: float = setting(3600.0, "The cap of that wait.", "WEBHOOK_RETRY_MAX_SECONDS")
    max_attempts: int = setting(
        10,
        "Tries of one delivery before it is given up (the 10th about 43 minutes after the first).",
        "WEBHOOK_MAX_ATTEMPTS",
    )
    claim_seconds: float = setting(
        60.0, "How long a delivery in progress holds its row.", "WEBHOOK_CLAIM_SECONDS"
    )
    task_retry_seconds: float = setting(
        300.0,
        "A retry due within this is scheduled as a task countdown; later ones wait for the sweep.",
        "WEBHOOK_TASK_RETRY_SECONDS",
    )
    per_account: int = setting(
        20, "The most web hooks one account may register.", "WEBHOOKS_PER_ACCOUNT"
    )


@dataclass(frozen=True)
class Streams:
    """Server-sent events, ndjson streams and long-polls."""

    redis_url: str | None = setting(
        None,
        "Redis for the stream notices (pub/sub); empty: notices in-process, plus the poll.",
        "STREAM_REDIS_URL",
        shown="the Celery broker when it is Redis, else none",
    )
    channel: str = setting("arbiter", "Prefix of the Redis channels.", "STREAM_CHANNEL")
    buffer: int = setting(
        256,
        "Messages a stream reader may fall behind before it is cut off.",
        "STREAM_BUFFER",
    )
    keepalive_seconds: float = setting(
        15.0, "An idle stream gets a keep-alive after this.", "STREAM_KEEPALIVE_SECONDS"
    )
    poll_seconds: float = setting(
        1.0,
        "How often each web process reads the versions of the games it streams, to catch "
        "lost notices.",
        "STREAM_POLL_SECONDS",
    )
    revoke_check_seconds: float = setting(
        30.0,
        "How often each web process closes the streams of revoked or expired tokens.",
        "STREAM_REVOKE_CHECK_SECONDS",
    )
    retry_ms: int = setting(1000, "The SSE `retry` given to clients.", "STREAM_RETRY_MS")
    long_poll_max: float = setting(30.0, "The longest a long-poll waits.", "LONG_POLL_MAX")


@dataclass(frozen=True)
class Clock:
    """The sweeps beat runs, and outages of the clock."""

    sweep_seconds: float = setting(
        15.0, "How often beat runs the clock sweep (timeouts, reminders).", "CLOCK_SWEEP_SECONDS"
    )
    tournament_sweep_seconds: float = setting(
        15.0,
        "How often beat runs the tournament sweep (round deadlines, rounds whose task was lost).",
        "TOURNAMENT_SWEEP_SECONDS",
    )
    other_sweeps_seconds: float = setting(
        15.0,
        "How often beat runs the outbox, web hook and chance sweeps (what a lost task "
        "left undone).",
        "SWEEP_SECONDS",
    )
    outage_seconds: float = setting(
        300.0,
        "A gap between two clock sweeps longer than this is an outage: deadlines inside "
        "it are extended by its length.",
        "CLOCK_OUTAGE_SECONDS",
    )
    agreement_hours: float = setting(
        48.0,
        "How long a player's request to undo a move or abort a game waits for the others' "
        "answers before it lapses.",
        "AGREEMENT_HOURS",
    )


@dataclass(frozen=True)
class Limits:
    """Rate limits, sizes and quotas."""

    ratelimit_enabled: bool = setting(
        True,
        "`0` turns every rate limit off (a benchmark, a closed test bed).",
        "RATELIMIT_ENABLED",
        env=True,
    )
    ratelimit_storage_uri: str | None = setting(
        None,
        "Where rate limits are counted (Flask-Limiter); the sign-in limits are counted "
        "in the database.",
        "RATELIMIT_STORAGE_URI",
        shown="the Celery broker when it is Redis, else `memory://` (per process)",
    )
    rate_create: str = setting(
        "20 per minute;500 per day", "Games created, per caller.", "RATELIMIT_CREATE"
    )
    rate_write: str = setting("300 per minute", "Changes, per caller.", "RATELIMIT_WRITE")
    rate_read: str = setting("1200 per minute", "Reads, per caller.", "RATELIMIT_READ")
    rate_sign_in: str = setting(
        "3 per 10 minutes;10 per day", "Sign-in links, per mailbox.", "RATELIMIT_SIGN_IN"
    )
    rate_sign_in_client: str = setting(
        "30 per hour", "Sign-in links, per client address.", "RATELIMIT_SIGN_IN_CLIENT"
    )
    rate_invite: str = setting(
        "3 per minute;10 per day",
        "Invitations, per creator and mailbox.",
        "RATELIMIT_INVITE",
    )
    max_content_length: int = setting(
        64 * 1024, "The largest request body of every route but bulk games.", "MAX_CONTENT_LENGTH"
    )
    bulk_body_bytes: int = setting(
        1024 * 1024,
        "The largest request body `POST /v1/bulk-games` accepts.",
        "BULK_BODY_BYTES",
    )
    bulk_games_max: int = setting(
        500, "The most games one `POST /v1/bulk-games` may create.", "BULK_GAMES_MAX"
    )
    tournament_max_entries: int = setting(
        500, "The most entries a tournament takes.", "TOURNAMENT_MAX_ENTRIES"
    )
    max_start_ahead: int = setting(
        365 * 86400, "How far ahead a game's `start_at` may be, in seconds.", "MAX_START_AHEAD"
    )
    sign_in_link_seconds: int = setting(
        900, "How long a mailed sign-in link works (once).", "SIGN_IN_LINK_SECONDS"
    )
    sign_in_token_seconds: int = setting(
        30 * 86400,
        "How long the personal token a sign-in gives lasts.",
        "SIGN_IN_TOKEN_SECONDS",
    )
    invites_per_day: int = setting(
        20,
        "How many different mailboxes without an account one account may invite in 24 "
        "hours (not a rate limit: `RATELIMIT_ENABLED=0` leaves it on).",
        "INVITES_PER_DAY",
    )
    tokens_per_account: int = setting(
        50,
        "The most live personal tokens an account may hold; one more is 409 `too-many-tokens`.",
        "TOKENS_PER_ACCOUNT",
    )
    bots_per_account: int = setting(
        10,
        "The most bot accounts one person may hold; one more is 409 `too-many-bots`.",
        "BOTS_PER_ACCOUNT",
    )


@dataclass(frozen=True)
class Connections:
    """What the web process's HTTP protocol allows a connection (read before Flask)."""

    max_request_line: int = setting(
        8190, "The longest request line, in bytes; longer is 414.", "MAX_REQUEST_LINE"
    )
    max_request_head: int = setting(
        16 * 1024,
        "The largest request head (line and headers), in bytes; larger is 431.",
        "MAX_REQUEST_HEAD",
    )
    head_timeout_seconds: float = setting(
        10.0,
        "A request's line and headers must arrive within this; else 408 `head-too-slow`.",
        "HEAD_TIMEOUT_SECONDS",
    )
    keepalive_seconds: float = setting(
        5.0, "An idle kept-alive connection is closed after this.", "KEEPALIVE_SECONDS"
    )
    client_max_pending: int = setting(
        32,
        "Unfinished connections one client address (IPv6: its /64) may hold per web "
        "process; past it the oldest lingering one is closed.",
        "CLIENT_MAX_PENDING",
    )
    web_max_pending: int = setting(
        512,
        "Unfinished connections per web process from all addresses; past it the oldest "
        "go likewise.",
        "WEB_MAX_PENDING",
    )
    slow_after_seconds: float = setting(
        1.0,
        "How long a new or idle connection is spared by the two caps above.",
        "SLOW_AFTER_SECONDS",
    )
    body_timeout_seconds: float = setting(
        10.0,
        "A request body must arrive within this, plus a second per `BODY_MIN_RATE` bytes "
        "received; else 408 `body-too-slow`.",
        "BODY_TIMEOUT_SECONDS",
    )
    body_min_rate: float = setting(
        1024.0, "Bytes of body that earn one more second.", "BODY_MIN_RATE"
    )
    body_max_seconds: float = setting(60.0, "No body takes longer than this.", "BODY_MAX_SECONDS")
    body_drain_bytes: int = setting(
        8 * 1024 * 1024,
        "Before a 413 the web process reads and drops up to this much more of the body.",
        "BODY_DRAIN_BYTES",
    )
    body_drain_seconds: float = setting(2.0, "... for at most this long.", "BODY_DRAIN_SECONDS")


@dataclass(frozen=True)
class Talk:
    """Messages and notes at the table (docs/guides/messages.md)."""

    message_chars: int = setting(
        1000,
        "The longest message a player or spectator may post (characters).",
        "TALK_MESSAGE_CHARS",
    )
    note_chars: int = setting(
        4000, "The longest private note a seat may keep (characters).", "TALK_NOTE_CHARS"
    )
    messages_per_minute: int = setting(
        6,
        "How many messages one author may post in one game within a minute (notes do not count).",
        "TALK_MESSAGES_PER_MINUTE",
    )
    mailed_lines: int = setting(
        30, "At most this many messages are quoted in one turn mail or digest.", "TALK_MAILED_LINES"
    )


GROUPS: dict[str, type] = {
    "service": Service,
    "database": Database,
    "mail": Mail,
    "hooks": Hooks,
    "streams": Streams,
    "clock": Clock,
    "limits": Limits,
    "talk": Talk,
    "connections": Connections,
}
"""The groups of :class:`Settings`, by attribute, in the order of the docs."""


@dataclass(frozen=True)
class Settings:
    """Every setting of one process, grouped by concern."""

    service: Service = field(default_factory=Service)
    database: Database = field(default_factory=Database)
    mail: Mail = field(default_factory=Mail)
    hooks: Hooks = field(default_factory=Hooks)
    streams: Streams = field(default_factory=Streams)
    clock: Clock = field(default_factory=Clock)
    limits: Limits = field(default_factory=Limits)
    talk: Talk = field(default_factory=Talk)
    connections: Connections = field(default_factory=Connections)

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str] | None = None,
        instance_path: str | None = None,
        role: str = "workers",
        overrides: Mapping[str, Any] | None = None,
    ) -> Settings:
        """Return the settings of a process of ``role`` (``"web"``, or ``"workers"``
        for workers, beat and the command line) read from ``env`` (default
        ``os.environ``): the deployment variables, then ``ARBITER_OVERRIDES``, then
        ``overrides`` (names as in the docs), then what follows from them (defaults
        worked out from others, the secret key of ``instance_path``).

        :raises SettingsError: a value is not of its setting's type, or a name is unknown.
        """
        env = os.environ if env is None else env
        ignored = sorted(set(env) & (set(_BY_NAME) - set(environment_names())))
        if ignored:
            log.warning(
                "not read from the environment (fixed settings; tests set them in %s): %s",
                OVERRIDES_VARIABLE,
                ", ".join(ignored),
            )
        values: dict[str, Any] = {}
        for name in environment_names():
            raw = env.get(name)
            if raw is not None and raw.strip() != "":
                values[name] = raw
        values.update(overrides_of(env))
        values.update(overrides or {})
        base = cls()
        if role == "web":
            base = dataclasses.replace(
                base, database=dataclasses.replace(base.database, **WEB_DATABASE)
            )
        out = base.replace(values)
        return out._resolve(env, instance_path or "")

    def replace(self, values: Mapping[str, Any]) -> Settings:
        """Return a copy with the settings named in ``values`` replaced; strings are
        read as the environment's are, other values must fit the setting's type.

        :raises SettingsError: an unknown name or a value that does not fit.
        """
        changes: dict[str, dict[str, Any]] = {}
        for name, value in values.items():
            where = _BY_NAME.get(ALIASES.get(name, name))
            if where is None:
                raise SettingsError(
                    f"{name} is not a setting (see docs/operating/configuration.md)"
                )
            group, attribute, kind = where
            changes.setdefault(group, {})[attribute] = parse(name, value, kind)
        return dataclasses.replace(
            self,
            **{
                group: dataclasses.replace(getattr(self, group), **fields)
                for group, fields in changes.items()
            },
        )

    def _resolve(self, env: Mapping[str, str], instance_path: str) -> Settings:
        """Return a copy with the defaults that follow from other settings worked out."""
        s = self
        embedded = not env.get("DATABASE_URL")
        broker = s.service.broker_url
        redis_broker = broker if broker.startswith(("redis://", "rediss://")) else ""
        service = dataclasses.replace(
            s.service,
            instance_path=instance_path,
            embedded=embedded,
            base_url_from_env=bool(env.get("BASE_URL")),
            base_url=(s.service.base_url or default_base_url(env)).rstrip("/"),
            open_creation=embedded if s.service.open_creation is None else s.service.open_creation,
            secret_key_from_env=bool(env.get("SECRET_KEY")),
        )
        if service.secret_key is None:
            service = dataclasses.replace(service, secret_key=secret_key(env, instance_path))
        return dataclasses.replace(
            s,
            service=service,
            database=dataclasses.replace(
                s.database, url=database_url(s.database.url, instance_path)
            ),
            hooks=dataclasses.replace(
                s.hooks,
                allow_http=embedded if s.hooks.allow_http is None else s.hooks.allow_http,
            ),
            streams=dataclasses.replace(
                s.streams,
                redis_url=redis_broker if s.streams.redis_url is None else s.streams.redis_url,
            ),
            limits=dataclasses.replace(
                s.limits,
                ratelimit_storage_uri=s.limits.ratelimit_storage_uri or redis_broker or "memory://",
            ),
        )

    def by_name(self, name: str) -> Any:
        """Return the value of the setting called ``name`` in the docs."""
        group, attribute, _ = _BY_NAME[ALIASES.get(name, name)]
        return getattr(getattr(self, group), attribute)


ALIASES = {"SQLALCHEMY_DATABASE_URI": "DATABASE_URL"}
"""Other names ``create_app``'s overrides may use for a setting (Flask's own key)."""


def _fields() -> list[tuple[str, dataclasses.Field, Any]]:
    """Return ``(group attribute, field, type)`` of every named setting, in order."""
    out = []
    for group, cls in GROUPS.items():
        hints = typing.get_type_hints(cls, vars(sys.modules[__name__]))
        for f in dataclasses.fields(cls):
            if f.metadata.get("name"):
                out.append((group, f, hints[f.name]))
    return out


_BY_NAME: dict[str, tuple[str, str, Any]] = {
    f.metadata["name"]: (group, f.name, kind) for group, f, kind in _fields()
}


def names() -> list[str]:
    """Return the name of every setting, in the order of the docs."""
    return [f.metadata["name"] for _, f, _ in _fields()]


def environment_names() -> list[str]:
    """Return the names of the settings a deployment sets in the environment."""
    return [f.metadata["name"] for _, f, _ in _fields() if f.metadata["env"]]


def overrides_of(env: Mapping[str, str]) -> dict[str, Any]:
    """Return the settings ``ARBITER_OVERRIDES`` of ``env`` sets, by name.

    :raises SettingsError: the variable is not a JSON object.
    """
    raw = env.get(OVERRIDES_VARIABLE, "").strip()
    if not raw:
        return {}
    try:
        given = json.loads(raw)
    except ValueError as err:
        raise SettingsError(f"{OVERRIDES_VARIABLE} is not a JSON object: {err}") from None
    if not isinstance(given, dict):
        raise SettingsError(f"{OVERRIDES_VARIABLE} is not a JSON object")
    return given


def connections(env: Mapping[str, str] | None = None) -> Connections:
    """Return the :class:`Connections` settings of the web process's HTTP protocol,
    which runs before any app: the defaults, with ``ARBITER_OVERRIDES`` of ``env``
    (default ``os.environ``).

    :raises SettingsError: an override is unknown or ill-typed.
    """
    given = overrides_of(os.environ if env is None else env)
    return Settings().replace(given).connections


def named(group: Any) -> dict[str, Any]:
    """Return the settings of ``group`` (one group's object) by name."""
    return {
        f.metadata["name"]: getattr(group, f.name)
        for f in dataclasses.fields(group)
        if f.metadata.get("name")
    }


TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")


def parse(name: str, value: Any, kind: Any) -> Any:
    """Return ``value`` as setting ``name`` of type ``kind`` wants it; a string is read
    as the environment's (``1``/``0``, ``true``/``false`` ... for a switch).

    :raises SettingsError: naming the setting, when the value does not fit.
    """
    options = typing.get_args(kind) if isinstance(kind, types.UnionType) else (kind,)
    if value is None and type(None) in options:
        return None
    kind = next(k for k in options if k is not type(None))
    expected = {bool: "1 or 0", int: "a whole number", float: "a number", str: "text"}[kind]
    try:
        if isinstance(value, str):
            text = value.strip()
            if kind is bool:
                if text.lower() in TRUE:
                    return True
                if text.lower() in FALSE:
                    return False
                raise ValueError(text)
            return kind(text) if kind is not str else value
        if kind is bool and isinstance(value, bool | int):
            return bool(value)
        if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if kind is int and isinstance(value, int) and not isinstance(value, bool):
            return value
        if kind is int and isinstance(value, float) and value.is_integer():
            return int(value)
    except ValueError:
        pass
    raise SettingsError(f"{name}={value!r}: expected {expected}")


# ------------------------------------------------------------------ worked-out defaults


def instance_secret_key(instance_path: str) -> str:
    """Return the secret key kept in the instance folder, making it on first use.

    The file is created exclusively (mode 0600), so processes starting together
    agree on one key.
    """
    path = Path(instance_path) / SECRET_KEY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
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
    log.warning(
        "SECRET_KEY is not set: made a key and kept it in %s; set SECRET_KEY in "
        "production (every machine of a deployment needs the same one)",
        path,
    )
    return key


def secret_key(env: Mapping[str, str], instance_path: str) -> str:
    """Return ``SECRET_KEY`` from ``env``, or the instance folder's key (made, and
    logged once, by the first process that needs it; ``arbiter doctor`` warns while
    ``SECRET_KEY`` is unset)."""
    if env.get("SECRET_KEY"):
        return env["SECRET_KEY"]
    return instance_secret_key(instance_path)


def database_url(raw: str | None, instance_path: str) -> str:
    """Return a SQLAlchemy URL for ``raw`` (or the embedded SQLite default)."""
    if not raw:
        return f"sqlite:///{Path(instance_path) / 'arbiter.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix) :]
    return raw


def default_base_url(env: Mapping[str, str]) -> str:
    """Return the ``BASE_URL`` used when none is set: ``http://127.0.0.1:<PORT>``
    (``PORT`` default 8000), the one ``make run`` sets for its processes."""
    return f"http://127.0.0.1:{env.get('PORT') or 8000}"


# ------------------------------------------------------------------ the running app's


class Bound:
    """The settings of one app, which its app contexts make current; tests may put
    changed settings in (:func:`override`)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings


_current: ContextVar[tuple[Bound, ...]] = ContextVar("arbiter_settings", default=())


def push(bound: Bound | None) -> None:
    """Make ``bound`` current until the matching :func:`pop` (an app context pushed)."""
    _current.set((*_current.get(), bound))  # type: ignore[arg-type]


def pop() -> None:
    """Make current again what was before the last :func:`push` (an app context popped)."""
    stack = _current.get()
    _current.set(stack[:-1])


def current() -> Settings:
    """Return the settings of the app whose context is active.

    :raises RuntimeError: no app context of an Arbiter app is active.
    """
    stack = _current.get()
    if not stack or stack[-1] is None:
        raise RuntimeError("no settings: no Arbiter app context is active")
    return stack[-1].settings


def of(app: Any) -> Settings:
    """Return the settings of ``app`` (an app made by ``arbiter.create_app``)."""
    return app.extensions["arbiter_settings"].settings


def override(app: Any, **values: Any) -> Settings:
    """Replace settings of ``app`` by name (tests): its contexts, active ones too, see
    the new values at once; return the new settings.

    :raises SettingsError: an unknown name or a value that does not fit.
    """
    bound: Bound = app.extensions["arbiter_settings"]
    bound.settings = bound.settings.replace(values)
    return bound.settings


def environment(values: Mapping[str, Any]) -> dict[str, str]:
    """Return the environment variables that give a process started from a shell the
    settings ``values`` (names as in the docs): the settings a deployment sets as
    themselves, the other settings in ``ARBITER_OVERRIDES`` (tests), and any other
    variable (``PATH``, ``PORT`` ...) as itself."""
    fixed = set(_BY_NAME) - set(environment_names())
    out = {k: str(v) for k, v in values.items() if k not in fixed}
    rest = {**overrides_of(out), **{k: v for k, v in values.items() if k in fixed}}
    if rest:
        out[OVERRIDES_VARIABLE] = json.dumps(rest)
    return out


# ------------------------------------------------------------------ the reference


PROCESS_VARIABLES = {
    "ARBITER_INSTANCE_PATH": (
        "The folder of the embedded SQLite file, the filesystem broker and the kept secret key.",
        "`instance/` beside the package",
    ),
    "HOST": (
        "The address the `web` process listens on (`0.0.0.0`: every interface); read by "
        "the Procfile.",
        "`127.0.0.1` (only this machine)",
    ),
    "PORT": ("Where `make run` and the `web` process listen.", "`8000`"),
    "FORWARDED_ALLOW_IPS": (
        "The reverse proxies (addresses or networks, comma-separated) whose "
        "`X-Forwarded-For` and `X-Forwarded-Proto` the web process believes (uvicorn's "
        "`--forwarded-allow-ips`, which the Procfile passes); behind a proxy set it, or "
        "every client counts as the proxy in the rate limits.",
        "unset: none",
    ),
    OVERRIDES_VARIABLE: (
        'A JSON object of settings by name, e.g. `{"CLOCK_SWEEP_SECONDS": 1}`, that '
        "replaces any of them (tests and experiments; unknown names stop the start).",
        "unset",
    ),
}
"""The environment variables of a process that are not settings: where it keeps its
files and listens, read by the Procfile or the app factory."""

BEGIN = "<!-- settings: generated by `arbiter settings-reference`; do not edit -->"
END = "<!-- settings: end -->"


def _shown(f: dataclasses.Field) -> str:
    """Return how the docs show a field's default."""
    if f.metadata.get("shown"):
        return f.metadata["shown"]
    value = f.default
    if isinstance(value, bool):
        return f"`{int(value)}`"
    if value == "":
        return "unset"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"`{value}`"


def _table(rows: list[tuple[str, str, str]]) -> str:
    lines = ["| name | meaning | default |", "|---|---|---|"]
    lines += [f"| `{name}` | {doc} | {shown} |" for name, doc, shown in rows]
    return "\n".join(lines)


def reference() -> str:
    """Return the generated part of ``docs/operating/configuration.md``: the
    deployment's variables, the process's, then every other setting by group."""
    fields = _fields()
    parts = [
        BEGIN,
        "",
        "## Set in the environment",
        "",
        "What a deployment sets (every one optional: without any, `make run` plays on "
        "this machine):",
        "",
        _table(
            [
                (f.metadata["name"], f.metadata["doc"], _shown(f))
                for _, f, _ in fields
                if f.metadata["env"]
            ]
        ),
        "",
        "Of the process, not settings:",
        "",
        _table([(name, doc, shown) for name, (doc, shown) in PROCESS_VARIABLES.items()]),
        "",
        "## Fixed settings",
        "",
        "The environment does not set these: they are constants of `arbiter/settings.py` "
        "with a name, which tests replace (`create_app` overrides, or "
        f"`{OVERRIDES_VARIABLE}` for a process started from a shell).",
    ]
    for group, cls in GROUPS.items():
        rows = [
            (f.metadata["name"], f.metadata["doc"], _shown(f))
            for g, f, _ in fields
            if g == group and not f.metadata["env"]
        ]
        if rows:
            parts += ["", f"### {group.capitalize()}", "", str(cls.__doc__), "", _table(rows)]
    parts += ["", END]
    return "\n".join(parts)


REFERENCE_PAGE = Path(__file__).resolve().parents[1] / "docs" / "operating" / "configuration.md"
"""The page whose generated part :func:`reference` is."""


def write_reference(page: Path = REFERENCE_PAGE) -> bool:
    """Rewrite the generated part of ``page``; return whether it changed."""
    text = page.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    new = head + reference() + tail
    if new != text:
        page.write_text(new)
    return new != text
