"""How fast the mailer sends a backlog of turn mails: one SMTP session per mail, or the
outbox sweep's drain over one session, with the board PNG rendered or kept from a
failed try (the backlog an SMTP outage leaves).

What it measures: ``ARBITER_BENCH_DRAIN_GAMES`` (default 3) 3-player Space Worm games
with emails are played to the end in process (Flask's test client), on a fresh SQLite
file, then on PostgreSQL (a fresh schema) where it answers; their turn and end mails
(about 40 a game, each with its seat's board) stay in the outbox. An aiosmtpd sink in
another process (as the fault tests' server is) takes the mail. Three cases, each on
a third of the mails (the oldest third first):

``send, a session each``   ``mail.send`` per mail: claim, render the PNG, connect,
                           send, mark sent, QUIT (a new mail's own task);
``drain, PNG rendered``    ``mail.drain``: one session, each mail claimed, rendered,
                           sent and marked in turn (the sweep after a broker outage);
``drain, PNG kept``        the same mails each failed once against a dead server first
                           (``send`` renders and keeps the PNG), then ``drain`` (the
                           backlog after an SMTP outage).

Printed per case: wall and CPU (this process's) milliseconds per mail. The rest of
the machine moves the wall figures (the load is printed); the sink's own CPU is not
counted.

Run alone: ``.venv/bin/python bench/mail_drain.py``.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from datetime import timedelta

import common
import sqlalchemy as sa
from flask_migrate import upgrade

from arbiter import create_app
from arbiter import settings as arbiter_settings
from arbiter.extensions import db
from arbiter.mail import mail
from arbiter.models import OutboxMail
from arbiter.models.timestamps import utcnow
from tests.conftest import free_port
from tests.helpers import new_game, play_out

GAMES = int(os.environ.get("ARBITER_BENCH_DRAIN_GAMES", "3"))
DEAD_SMTP = "smtp://127.0.0.1:9"  # nothing listens on the discard port
SINK = """
import sys, time
sys.path.insert(0, {root!r})
from tests.smtp_server import BreakableSmtp
server = BreakableSmtp()
server.port = {port}
server.start()
print("up", flush=True)
time.sleep(3600)
"""


def ids_unsent() -> list[int]:
    """Return the ids of the unsent mails, oldest first."""
    return list(
        db.session.scalars(
            sa.select(OutboxMail.id).where(OutboxMail.sent_at.is_(None)).order_by(OutboxMail.id)
        )
    )


def hold(ids: list[int]) -> None:
    """Keep mails ``ids`` out of a drain's reach (a far ``retry_at``)."""
    db.session.execute(
        sa.update(OutboxMail)
        .where(OutboxMail.id.in_(ids))
        .values(retry_at=utcnow() + timedelta(days=1))
    )
    db.session.commit()


def release(ids: list[int]) -> None:
    """Make mails ``ids`` due now."""
    db.session.execute(sa.update(OutboxMail).where(OutboxMail.id.in_(ids)).values(retry_at=None))
    db.session.commit()


def timed(report: common.Report, case: str, count: int, work) -> None:
    """Run ``work()`` (it must send ``count`` mails) and report its cost per mail."""
    wall, cpu = time.perf_counter(), time.process_time()
    sent = work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if sent != count:
        report.note(f"{case}: sent {sent} of {count}")
    report.add(case, f"wall per mail (n={count})", common.ms(wall / max(1, sent)))
    report.add(case, "CPU per mail (this process)", common.ms(cpu / max(1, sent)))


def run(report: common.Report, backend: str, database_url: str, folder) -> None:
    """Play the games on ``database_url`` and time the three cases."""
    port = free_port()
    sink = subprocess.Popen(
        [sys.executable, "-c", SINK.format(root=str(common.ROOT), port=port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        sink.stdout.readline()
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": database_url,
                "ENQUEUE": False,
                "OPEN_CREATION": True,
                "RATELIMIT_ENABLED": False,
                "BASE_URL": "http://bench.test",
                "TESTING": True,
                "SMTP_URL": f"smtp://127.0.0.1:{port}",
            }
        )
        with app.app_context():
            upgrade()
        client = app.test_client()
        for seed in range(GAMES):
            game_id, tokens = new_game(client, players=3, emails=True)
            play_out(client, app, game_id, tokens, seed=seed)
        with app.app_context():
            ids = ids_unsent()
            third = len(ids) // 3
            each, rendered, kept = ids[:third], ids[third : 2 * third], ids[2 * third :]
            report.add(backend, "mails in the outbox", str(len(ids)))
            hold(rendered + kept)
            timed(
                report,
                f"{backend}: send, a session each",
                len(each),
                lambda: sum(mail.send(i) for i in each),
            )
            release(rendered)
            timed(report, f"{backend}: drain, PNG rendered", len(rendered), mail.drain)
            live = arbiter_settings.of(app).mail.smtp_url
            arbiter_settings.override(app, SMTP_URL=DEAD_SMTP)
            release(kept)
            quiet = logging.getLogger(mail.__name__)
            quiet.setLevel(logging.ERROR)  # one "not sent" warning a mail, as planned
            for mail_id in kept:
                mail.send(mail_id)  # fails: renders and keeps the PNG
            quiet.setLevel(logging.NOTSET)
            release(kept)
            arbiter_settings.override(app, SMTP_URL=live)
            timed(report, f"{backend}: drain, PNG kept", len(kept), mail.drain)
            db.session.remove()
            db.engine.dispose()
    finally:
        sink.kill()
        sink.wait()


def main() -> None:
    report = common.Report("mail_drain")
    print(f"mail_drain ({common.machine()})")
    with common.instance_dir("drain") as folder:
        run(report, "sqlite", f"sqlite:///{folder / 'bench.sqlite3'}", folder)
    try:
        with common.postgres_schema() as url, common.instance_dir("drain-pg") as folder:
            run(report, "postgres", url, folder)
    except common.Skip as why:
        report.skip("postgres", str(why))
    report.done()


if __name__ == "__main__":
    main()
