"""Workers: chance rolled idempotently, the outbox sent once over real SMTP, the
sweeps catching up, and a real Celery worker doing it all from enqueued tasks."""

from __future__ import annotations

import time
from contextlib import contextmanager
from datetime import timedelta

import sqlalchemy as sa
import time_machine

from arbiter import queue
from arbiter import settings as arbiter_settings
from arbiter.extensions import db
from arbiter.games import chance
from arbiter.games.mail_parts import BOARD_LINE
from arbiter.mail import mail
from arbiter.models import Game, OutboxMail
from arbiter.models.timestamps import utcnow
from tests.conftest import make_app
from tests.helpers import auth, new_game, play_out, summary, until_decision
from workers import tasks


def outbox(app, game_id=None):
    with app.app_context():
        query = sa.select(OutboxMail).order_by(OutboxMail.id)
        if game_id:
            query = query.where(OutboxMail.game_id == game_id)
        return [(m.id, m.to_addr, m.dedupe_key, m.sent_at) for m in db.session.scalars(query)]


def test_resolve_chance_is_idempotent_and_ignores_stale_versions(app, client):
    """Given a game waiting for its roll, the task appends once; a repeat or a task
    for an older version writes nothing."""
    game_id, _ = new_game(client)
    version = summary(client, game_id)["version"]
    with app.app_context():
        assert tasks.resolve_chance.run(game_id, version) >= 1
        after = db.session.get(Game, game_id).version
        assert tasks.resolve_chance.run(game_id, version) == 0
        assert tasks.resolve_chance.run(game_id, after) == 0  # waits for a seat now
    assert summary(client, game_id)["version"] == after


def test_one_turn_mail_per_prompt_sent_once_over_smtp(sqlite_url, smtp):
    """Given a game with emails, each prompt mails the seat to act once, with the
    dice and a link; sending twice delivers once; the end mails everyone the scores."""
    url, inbox = smtp
    app = make_app(sqlite_url, SMTP_URL=url)
    client = app.test_client()
    game_id, tokens = new_game(client, players=2, emails=True)
    s = until_decision(client, app, game_id)
    seat = s["to_act"][0]
    queued = outbox(app, game_id)
    assert [q[2] for q in queued] == [f"turn:{game_id}:{s['version']}:{seat}"]
    with app.app_context():
        assert mail.send(queued[0][0]) is True
        assert mail.send(queued[0][0]) is False
    [message] = inbox.messages
    assert message["To"] == f"p{seat}@example.org"
    body = message.get_body(preferencelist=("plain",)).get_content()
    assert "Dice left" in body and f"http://arbiter.test/games/{game_id}" in body
    [board] = message.iter_attachments()
    assert board.get_content_type() == "image/png"
    play_out(client, app, game_id, tokens, seed=1)
    with app.app_context():
        for mail_id in mail.unsent(older_than_seconds=-1):
            mail.send(mail_id)
    keys = [q[2] for q in outbox(app, game_id)]
    assert len(keys) == len(set(keys))
    assert {f"over:{game_id}:0", f"over:{game_id}:1"} <= set(keys)
    over = [m for m in inbox.messages if "is over" in m["Subject"]]
    assert sorted(m["To"] for m in over) == ["p0@example.org", "p1@example.org"]
    assert "Scores:" in over[0].get_body(preferencelist=("plain",)).get_content()


def test_mail_that_fails_backs_off_and_the_sweep_sends_it_later(sqlite_url, smtp):
    """Given the SMTP server down, the send fails and leaves the mail unsent, claimed
    as its back-off; once the back-off has passed and the server is up, the sweep's
    ids send it, with the same Message-ID and a Date."""
    url, inbox = smtp
    app = make_app(sqlite_url, SMTP_URL="smtp://127.0.0.1:9")  # nothing listens on 9
    client = app.test_client()
    game_id, _ = new_game(client, players=1, emails=True)
    until_decision(client, app, game_id)
    [(mail_id, _, _, sent)] = outbox(app, game_id)
    with app.app_context():
        first_id = mail.message(db.session.get(OutboxMail, mail_id))["Message-ID"]
        assert mail.send(mail_id) is False
        assert db.session.get(OutboxMail, mail_id).last_error
        assert mail.unsent(older_than_seconds=-1) == []  # backing off
        arbiter_settings.override(app, SMTP_URL=url)
        with time_machine.travel(utcnow() + timedelta(seconds=mail.backoff(1) + 1)):
            for pending in mail.unsent(older_than_seconds=-1):
                assert mail.send(pending) is True
    [message] = inbox.messages
    assert message["Message-ID"] == first_id and message["Date"]
    assert outbox(app, game_id)[0][3] is not None


@contextmanager
def refusing_smtp(reply: str):
    """A real SMTP server on loopback answering every recipient with ``reply``; yields
    its URL."""
    from aiosmtpd.controller import Controller

    from tests.conftest import free_port

    class Refusing:
        async def handle_RCPT(self, server, session, envelope, address, options):  # noqa: N802
            return reply

    port = free_port()
    controller = Controller(Refusing(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}"
    finally:
        controller.stop()


def first_mail_refused(sqlite_url, reply: str):
    """Send a 1-player game's first turn mail to a server answering ``reply``; return
    the app and the mail's id (the send must have failed)."""
    with refusing_smtp(reply) as url:
        app = make_app(sqlite_url, SMTP_URL=url)
        client = app.test_client()
        game_id, _ = new_game(client, players=1, emails=True)
        until_decision(client, app, game_id)
        [(mail_id, _, _, _)] = outbox(app, game_id)
        with app.app_context():
            assert mail.send(mail_id) is False
    return app, mail_id


def test_a_temporary_refusal_is_retried_later(sqlite_url):
    """Given a server that answers the recipient with 451 (greylisting), the mail is
    kept for a later try, not given up."""
    app, mail_id = first_mail_refused(sqlite_url, "451 4.3.0 try later")
    with app.app_context():
        row = db.session.get(OutboxMail, mail_id)
        assert row.attempts == 1 and "451" in row.last_error
        with time_machine.travel(utcnow() + timedelta(seconds=mail.backoff(1) + 1)):
            assert mail.unsent(older_than_seconds=-1) == [mail_id]


def test_a_permanent_refusal_is_not_retried(sqlite_url):
    """Given a server that refuses the recipient for good (5xx), the mail is given up
    at once and never offered to the sweep again."""
    app, mail_id = first_mail_refused(sqlite_url, "550 5.1.1 no such user here")
    with app.app_context():
        row = db.session.get(OutboxMail, mail_id)
        assert row.given_up_at is not None and "550" in row.last_error
        with time_machine.travel(utcnow() + timedelta(hours=2)):
            assert mail.unsent(older_than_seconds=-1) == []


def test_sweep_chance_finds_games_whose_roll_was_lost(app, client):
    """Given a game waiting for chance longer than the delay, the sweep lists it."""
    game_id, _ = new_game(client)
    with app.app_context():
        assert chance.stalled_chances(older_than_seconds=60) == []
        assert (game_id, 3) in chance.stalled_chances(older_than_seconds=-1)


def test_a_real_worker_rolls_and_mails_from_enqueued_tasks(sqlite_url, smtp):
    """Given a Celery worker thread on an in-memory broker, a game played through the
    API gets its rolls and its mails without any test calling a task."""
    from celery.contrib.testing.worker import start_worker

    url, inbox = smtp
    celery_conf = {
        "broker_url": "memory://",
        "task_ignore_result": True,
        "imports": ("workers.tasks",),
        "broker_connection_retry_on_startup": True,
    }
    app = make_app(sqlite_url, SMTP_URL=url, ENQUEUE=True, CELERY=celery_conf)
    app.extensions["celery"].conf.update(celery_conf)
    client = app.test_client()
    with start_worker(
        app.extensions["celery"],
        pool="solo",
        perform_ping_check=False,
        shutdown_timeout=10,
        queues=[*queue.GAME_QUEUES, *queue.MAIL_QUEUES],
    ):
        game_id, tokens = new_game(client, players=1, emails=True)
        moves = 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            s = summary(client, game_id)
            if s["status"] == "over":
                break
            if not s["to_act"] or len(inbox.to("p0@example.org")) <= moves:
                time.sleep(0.05)  # a player by mail moves once their turn mail came
                continue
            legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
            answer = client.post(
                f"/v1/games/{game_id}/moves",
                headers=auth(tokens[0]),
                json={"move": legal["moves"][0], "expected_version": legal["version"]},
            )
            assert answer.status_code == 201
            moves += 1
        assert summary(client, game_id)["status"] == "over"
        while time.monotonic() < deadline and len(inbox.messages) < moves + 1:
            time.sleep(0.05)
    assert len(inbox.to("p0@example.org")) == moves + 1  # a mail per prompt + the end


def test_turn_mails_link_the_board_of_every_engine(app, client):
    """Given a game of each engine with emails, every turn mail carries the seat's board
    to attach (every engine draws its board, issue 12), says so, and links the game's
    page."""
    for engine in ("worms", "space-worm", "dark-horse", "star-maps"):
        game_id, _ = new_game(
            client, engine, players=3 if engine == "dark-horse" else 2, emails=True
        )
        until_decision(client, app, game_id)
        with app.app_context():
            mails = list(
                db.session.scalars(sa.select(OutboxMail).where(OutboxMail.game_id == game_id))
            )
            bodies = [m.body for m in mails]
            assert all(m.board_svg is not None for m in mails if m.dedupe_key.startswith("turn:"))
        assert bodies
        assert all(BOARD_LINE in b and f"/games/{game_id}" in b for b in bodies)


def test_the_end_mail_of_a_resignation_says_who_resigned_not_none_scores(sqlite_url, smtp):
    """Given a 2-player game ended by seat 1's resignation (a result without scores),
    the end mail delivered over SMTP names who resigned and the ranking, and never
    prints a score of "None"."""
    url, inbox = smtp
    app = make_app(sqlite_url, SMTP_URL=url)
    client = app.test_client()
    game_id, tokens = new_game(client, players=2, emails=True)
    until_decision(client, app, game_id)
    assert client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[1])).status_code == 201
    with app.app_context():
        for mail_id in mail.unsent(older_than_seconds=-1):
            mail.send(mail_id)
    over = [m for m in inbox.messages if "is over" in m["Subject"]]
    assert sorted(m["To"] for m in over) == ["p0@example.org", "p1@example.org"]
    body = over[0].get_body(preferencelist=("plain",)).get_content()
    names = {p["seat"]: p["name"] for p in summary(client, game_id)["players"]}
    assert f"Resigned: {names[1]}." in body
    assert f"Ranking, best first: {names[0]}; {names[1]}" in body
    assert "None" not in body and "Scores:" not in body


def test_without_smtp_url_the_logged_mail_is_decoded_so_its_link_pastes(sqlite_url, caplog):
    """Given no SMTP_URL (the embedded default), a mail whose text would be sent as
    quoted-printable is logged decoded: the long link with ``=`` appears whole, with no
    ``=3D`` and no soft line break; an attachment is named, not dumped."""
    import logging
    from email.message import EmailMessage

    app = make_app(sqlite_url, SMTP_URL="")
    link = "http://127.0.0.1:8000/sign-in/confirm?email=ann%40example.org&token=" + "x" * 90
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "arbiter@example.org", "ann@example.org", "Sign in"
    msg.set_content(f"Héllo Ann,\n\nOpen {link} to sign in.\n", cte="quoted-printable")
    msg.add_attachment(b"\x89PNG...", maintype="image", subtype="png", filename="board.png")
    assert "=3D" in msg.as_string()  # as it would go over SMTP
    logger = logging.getLogger("arbiter.mail.mail")
    logger.addHandler(caplog.handler)  # the migrations' fileConfig replaced the root's
    with app.app_context(), caplog.at_level(logging.INFO, logger="arbiter.mail.mail"):
        mail.deliver(msg)
    logger.removeHandler(caplog.handler)
    [logged] = {r.getMessage() for r in caplog.records if "no SMTP_URL" in r.getMessage()}
    assert link in logged and "Héllo Ann," in logged
    assert "=3D" not in logged and "=\n" not in logged
    assert "Subject: Sign in" in logged and "[attached: board.png (image/png)]" in logged
