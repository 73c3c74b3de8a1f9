"""Mail after SMTP trouble (issue 16): a back-off that starts short and grows, capped,
so that waiting mail goes out within a minute of an outage's end; a mail marked sent
as soon as the server accepted its data, before QUIT; a mail given up when too old."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import sqlalchemy as sa
import time_machine

from arbiter import settings as arbiter_settings
from arbiter.extensions import db
from arbiter.mail import mail
from arbiter.models import OutboxMail
from arbiter.models.timestamps import utcnow
from tests.conftest import make_app
from tests.helpers import new_game, until_decision
from tests.smtp_server import BreakableSmtp
from tests.workers.test_tasks import outbox

DEAD_SMTP = "smtp://127.0.0.1:9"  # nothing listens on the discard port


def first_mail(sqlite_url, **config):
    """Return an app and the id of a 1-player game's first (unsent) turn mail."""
    app = make_app(sqlite_url, **config)
    client = app.test_client()
    game_id, _ = new_game(client, players=1, emails=True)
    until_decision(client, app, game_id)
    [(mail_id, _, _, _)] = outbox(app, game_id)
    return app, mail_id


def test_the_back_off_starts_short_doubles_and_is_capped(app):
    """Given the default settings, the waits after tries 1, 2, 3 ... are 5, 10, 20,
    40, 40 seconds: never more than the 40 s cap, so with the 15 s outbox sweep a
    mail goes out within a minute of the server's return."""
    with app.app_context():
        assert [mail.backoff(n) for n in range(1, 8)] == [5, 10, 20, 40, 40, 40, 40]
        assert mail.backoff(10_000) == 40


def test_a_failing_mail_is_retried_after_each_back_off_and_never_given_up_early(sqlite_url):
    """Given the SMTP server down for 20 minutes, the mail is offered again after each
    back-off (not before), its tries keep counting past the old limit of 10, and it
    is not given up."""
    app, mail_id = first_mail(sqlite_url, SMTP_URL=DEAD_SMTP)
    with app.app_context():
        now = utcnow()
        waited = 0.0
        for attempt in range(1, 41):
            with time_machine.travel(now + timedelta(seconds=waited), tick=False):
                assert mail.unsent(older_than_seconds=-1) == [mail_id]
                assert mail.send(mail_id) is False
                assert mail.unsent(older_than_seconds=-1) == []  # backing off
            waited += mail.backoff(attempt)
            with time_machine.travel(now + timedelta(seconds=waited - 1), tick=False):
                assert mail.unsent(older_than_seconds=-1) == []
        row = db.session.get(OutboxMail, mail_id)
        assert row.attempts == 40 and row.given_up_at is None and row.sent_at is None
        assert waited > 20 * 60


def test_a_mail_failing_for_longer_than_the_give_up_age_is_given_up(sqlite_url):
    """Given a mail written more than MAIL_GIVE_UP_SECONDS ago, its next failure gives
    it up, with the reason kept."""
    app, mail_id = first_mail(sqlite_url, SMTP_URL=DEAD_SMTP, MAIL_GIVE_UP_SECONDS=3600)
    with app.app_context():
        with time_machine.travel(utcnow() + timedelta(hours=2)):
            assert mail.send(mail_id) is False
            row = db.session.get(OutboxMail, mail_id)
            assert row.given_up_at is not None and row.last_error
            assert mail.unsent(older_than_seconds=-1) == []


def test_a_mail_is_marked_sent_when_its_data_is_accepted_before_quit(sqlite_url):
    """Given a server that accepts the data but never answers QUIT, the mail's
    ``sent_at`` is committed while the worker still waits for QUIT; the send then
    counts as done (the server has the mail) and the mail is not offered again."""
    server = BreakableSmtp()
    server.quit_delay = 30
    server.start()
    try:
        app, mail_id = first_mail(sqlite_url, SMTP_URL=server.url, SMTP_TIMEOUT_SECONDS=4)
        result = {}

        def send():
            with app.app_context():
                result["sent"] = mail.send(mail_id)

        worker = threading.Thread(target=send)
        started = time.monotonic()
        worker.start()
        marked_at = None
        while worker.is_alive() and marked_at is None:
            if outbox(app)[0][3] is not None:
                marked_at = time.monotonic() - started
            time.sleep(0.05)
        worker.join(30)
        assert marked_at is not None and worker.is_alive() is False
        assert marked_at < 3 <= time.monotonic() - started  # marked before QUIT ended
        assert result["sent"] is True and len(server.inbox.messages) == 1
        with app.app_context():
            assert mail.unsent(older_than_seconds=-1) == []
    finally:
        server.stop()


def test_a_drain_while_the_server_is_down_claims_nothing_then_one_session_sends_all(empty_db_url):
    """Given three games' turn mails waiting while the server is down, a drain (the
    outbox sweep) claims none of them and charges no try (so none is left backing off);
    once the server is up, one drain sends them all, oldest first, over one session."""
    server = BreakableSmtp()
    server.start()
    try:
        app = make_app(empty_db_url, SMTP_URL=DEAD_SMTP)  # a drain sends all due mail
        client = app.test_client()
        for _ in range(3):
            game_id, _ = new_game(client, players=1, emails=True)
            until_decision(client, app, game_id)
        waiting = outbox(app)
        assert len(waiting) == 3
        with app.app_context():
            assert mail.drain() == 0
            rows = db.session.scalars(sa.select(OutboxMail)).all()
            assert all(r.attempts == 0 and r.retry_at is None and r.sent_at is None for r in rows)
            arbiter_settings.override(app, SMTP_URL=server.url)
            before = server.sessions  # aiosmtpd's Controller connects once to start
            assert mail.drain() == 3
            assert mail.drain() == 0
        assert server.sessions - before == 2  # the drain that sent, and the one that found none
        assert [int(m["X-Arbiter-Outbox"]) for m in server.inbox.messages] == [
            mail_id for mail_id, _, _, _ in waiting
        ]
        assert all(sent is not None for _, _, _, sent in outbox(app))
    finally:
        server.stop()


def test_a_drain_while_the_server_is_down_gives_up_mail_too_old(sqlite_url):
    """Given the server unreachable at a drain, a due mail written more than
    MAIL_GIVE_UP_SECONDS ago is given up, with the reason kept."""
    app, mail_id = first_mail(sqlite_url, SMTP_URL=DEAD_SMTP, MAIL_GIVE_UP_SECONDS=3600)
    with app.app_context():
        assert mail.drain() == 0
        assert db.session.get(OutboxMail, mail_id).given_up_at is None
        with time_machine.travel(utcnow() + timedelta(hours=2)):
            assert mail.drain() == 0
        db.session.expire_all()
        row = db.session.get(OutboxMail, mail_id)
        assert row.given_up_at is not None and "ConnectionRefused" in row.last_error


def test_a_failed_send_keeps_its_board_png_for_the_retry_and_drops_it_once_sent(sqlite_url):
    """Given a turn mail whose send failed (server down), its row keeps the PNG that
    try rendered; the retry attaches exactly those bytes, and once the mail is sent
    the kept PNG is dropped."""
    server = BreakableSmtp()
    server.start()
    try:
        app, mail_id = first_mail(sqlite_url, SMTP_URL=DEAD_SMTP)
        with app.app_context():
            assert mail.send(mail_id) is False
            kept = db.session.get(OutboxMail, mail_id).board_png
            assert kept and kept.startswith(b"\x89PNG")
            arbiter_settings.override(app, SMTP_URL=server.url)
            with time_machine.travel(utcnow() + timedelta(seconds=mail.backoff(1) + 1)):
                assert mail.drain() == 1
            db.session.expire_all()
            row = db.session.get(OutboxMail, mail_id)
            assert row.sent_at is not None and row.board_png is None
        [message] = server.inbox.messages
        [board] = message.iter_attachments()
        assert board.get_content() == kept
    finally:
        server.stop()
