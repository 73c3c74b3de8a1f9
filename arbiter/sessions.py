"""Who holds or waits on locks in PostgreSQL: for ``arbiter doctor`` and ``/metrics``.

A host that dies mid-transaction leaves its session "idle in transaction" holding row
locks; a statement behind such a lock waits (``wait_event_type = 'Lock'``). Both are
read from ``pg_stat_activity`` (with ``pg_blocking_pids``), and the holder of the clock
sweep's row is found from that row's ``xmax`` (the id of the transaction that locked
or updated it) and the transaction-id lock its session holds in ``pg_locks``. On
SQLite there are no sessions to inspect: every function returns nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlalchemy as sa

from arbiter.extensions import db

COLUMNS = """
    a.pid,
    coalesce(host(a.client_addr), 'a local socket') AS client,
    a.application_name,
    a.state,
    a.wait_event_type,
    extract(epoch FROM now() - a.state_change) AS state_age,
    extract(epoch FROM now() - a.query_start) AS query_age,
    extract(epoch FROM now() - a.xact_start) AS xact_age,
    pg_blocking_pids(a.pid) AS blockers,
    left(regexp_replace(a.query, '\\s+', ' ', 'g'), 160) AS query
"""

HELD = sa.text(
    f"""
    SELECT {COLUMNS} FROM pg_stat_activity a
    WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
      AND ((a.state IN ('idle in transaction', 'idle in transaction (aborted)')
            AND now() - a.state_change > make_interval(secs => :secs))
           OR (a.wait_event_type = 'Lock'
            AND now() - a.query_start > make_interval(secs => :secs)))
    ORDER BY a.xact_start
    """
)

CLOCK_HOLDER = sa.text(
    f"""
    SELECT {COLUMNS} FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted
      AND a.pid <> pg_backend_pid()
      AND l.transactionid = (SELECT xmax FROM clock_sweeps WHERE name = 'clock')
    """
)


@dataclass
class Session:
    """A PostgreSQL session, as ``pg_stat_activity`` shows it."""

    pid: int
    client: str
    application: str
    state: str
    waiting: bool
    age: float
    """Seconds idle in its transaction, or waiting in its statement."""
    transaction_age: float
    query: str
    blocked_by: list[int] = field(default_factory=list)

    def describe(self) -> str:
        """Return one line an operator reads: who, what, how long."""
        who = f"session {self.pid} from {self.client}"
        if self.application:
            who += f" ({self.application})"
        if self.waiting:
            what = f"waiting {self.age:.0f} s on a lock held by session(s) " + ", ".join(
                str(pid) for pid in self.blocked_by
            )
        else:
            what = f"{self.state} for {self.age:.0f} s"
        return f"{who}, {what}, in a transaction open {self.transaction_age:.0f} s: `{self.query}`"


def _session(row) -> Session:
    waiting = row.wait_event_type == "Lock"
    return Session(
        pid=row.pid,
        client=row.client,
        application=row.application_name or "",
        state=row.state or "",
        waiting=waiting,
        age=float((row.query_age if waiting else row.state_age) or 0),
        transaction_age=float(row.xact_age or 0),
        query=row.query or "",
        blocked_by=list(row.blockers or []),
    )


def _postgres() -> bool:
    return db.engine.dialect.name == "postgresql"


def held(older_than: float) -> list[Session]:
    """Return the sessions of this database (other than ours) idle in a transaction,
    or waiting on a lock, for longer than ``older_than`` seconds; oldest transaction
    first."""
    if not _postgres():
        return []
    rows = db.session.execute(HELD, {"secs": float(older_than)})
    return [_session(row) for row in rows]


def clock_holder() -> Session | None:
    """Return the session that holds the clock sweep's row (a sweep in progress, or a
    host that died holding it), or None."""
    if not _postgres():
        return None
    row = db.session.execute(CLOCK_HOLDER).first()
    return None if row is None else _session(row)
