"""``/healthz``, ``/readyz`` and ``arbiter doctor``: each says what is wrong, in plain
words, against real parts (a real database, a real SMTP server, a broker port with
nothing behind it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from click.testing import CliRunner

from arbiter.cli import main
from arbiter.extensions import db
from arbiter.models import ClockSweep, Game, OutboxMail, WebhookDelivery
from arbiter.models.timestamps import utcnow
from tests.arbiter.games.test_games_api import assert_problem
from tests.conftest import free_port, make_app
from tests.helpers import new_game


def test_healthz_says_the_process_is_alive(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.json == {"status": "ok"}


def test_readyz_is_ready_with_a_migrated_database_and_a_broker(client):
    answer = client.get("/readyz")
    assert answer.status_code == 200 and answer.json["status"] == "ready"
    assert set(answer.json["checks"]) == {"database", "broker"}


def test_readyz_is_503_on_a_database_that_is_not_migrated(tmp_path):
    from arbiter import create_app

    app = create_app(
        {
            "TESTING": True,
            "ENQUEUE": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
        }
    )
    answer = app.test_client().get("/readyz")
    assert_problem(answer, 503, "not-ready")
    assert answer.headers["Retry-After"] == "5" and "db-upgrade" in answer.json["detail"]


def test_readyz_is_503_when_the_broker_does_not_answer(sqlite_url):
    broker = f"redis://127.0.0.1:{free_port()}/0"
    app = make_app(sqlite_url)
    app.extensions["celery"].conf.broker_url = broker
    answer = app.test_client().get("/readyz")
    assert_problem(answer, 503, "not-ready")
    assert "broker" in answer.json["detail"] and answer.json["checks"]["database"]


@pytest.fixture
def doctor(tmp_path, sqlite_url):
    """Run ``arbiter doctor`` on a migrated SQLite deployment; returns (run, app)."""
    app = make_app(sqlite_url)
    env = {
        "DATABASE_URL": sqlite_url,
        "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
        "SECRET_KEY": "a-real-secret-key",
        "BASE_URL": "https://arbiter.example.org",
        "SMTP_URL": "",
    }

    def run(**more):
        return CliRunner().invoke(main, ["doctor"], env={**env, **more})

    return run, app


def test_doctor_passes_a_deployment_with_nothing_wrong(doctor, smtp):
    run, app = doctor
    with app.app_context():
        db.session.add(ClockSweep(name="clock", last_run=utcnow()))
        db.session.commit()
    result = run(SMTP_URL=smtp[0])
    assert result.exit_code == 0, result.output
    assert "Nothing is wrong." in result.output
    assert "PROBLEM" not in result.output and "WARNING" not in result.output


def test_doctor_names_every_broken_part(doctor):
    run, app = doctor
    client = app.test_client()
    game_id, _ = new_game(client, emails=True)
    long_ago = utcnow() - timedelta(hours=1)
    with app.app_context():
        db.session.add(ClockSweep(name="clock", last_run=long_ago))
        db.session.get(Game, game_id).deadline = long_ago
        db.session.add(
            OutboxMail(
                dedupe_key="doctor-test",
                game_id=game_id,
                seat=0,
                to_addr="p0@example.org",
                subject="Your turn",
                body="...",
                created_at=long_ago,
            )
        )
        db.session.add(
            WebhookDelivery(
                message_id="msg_doctor",
                event="turn",
                url="https://example.org/",
                url_hash="x",
                body="{}",
                attempts=0,
                created_at=long_ago,
            )
        )
        db.session.commit()
    result = run(SMTP_URL=f"smtp://127.0.0.1:{free_port()}")
    assert result.exit_code == 1
    lines = {line.split()[1]: line for line in result.output.splitlines() if "  " in line}
    assert lines["smtp"].startswith("PROBLEM") and "cannot reach" in lines["smtp"]
    assert lines["beat"].startswith("PROBLEM") and "is `beat` running?" in lines["beat"]
    assert lines["outbox"].startswith("PROBLEM") and "1 mail(s) waiting" in lines["outbox"]
    assert lines["clock"].startswith("PROBLEM") and "1 deadline(s)" in lines["clock"]
    assert lines["webhooks"].startswith("PROBLEM") and "is the `hooks` process" in lines["webhooks"]
    assert lines["database"].startswith("OK")


def test_doctor_says_the_schema_needs_upgrading_and_what_it_did_not_check(tmp_path):
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}",
        "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
    }
    result = CliRunner().invoke(main, ["doctor"], env=env)
    assert result.exit_code == 1
    assert "run `arbiter db-upgrade`" in result.output
    assert "SKIPPED  beat" in result.output
    assert "SECRET_KEY is not set" in result.output


def test_the_default_base_url_follows_port_and_doctor_says_what_it_checked(doctor, tmp_path):
    """Given no BASE_URL, the default is the one ``make run`` gives its processes,
    http://127.0.0.1:$PORT (8000 without PORT), and doctor's warning says it checked
    that default of its own environment, not the service's processes' setting."""
    from arbiter.settings import Settings

    def base_url(env):
        return Settings.from_env({"SECRET_KEY": "k", **env}, str(tmp_path / "i")).service.base_url

    assert base_url({"PORT": "8123"}) == "http://127.0.0.1:8123"
    assert base_url({}) == "http://127.0.0.1:8000"
    run, _ = doctor
    result = run(BASE_URL=None, PORT="8123")
    [line] = [line for line in result.output.splitlines() if " config " in line]
    assert (
        "BASE_URL is not set in this command's environment, so the default from PORT "
        "is http://127.0.0.1:8123" in line
    ), line
    line = [
        line
        for line in run(BASE_URL="http://localhost:9000").output.splitlines()
        if " config " in line
    ][0]
    assert "BASE_URL is set to http://localhost:9000" in line, line


def test_doctor_tells_hooks_waiting_their_accounts_turn_from_a_stopped_hooks_process(doctor):
    """Given a web hook delivery written an hour ago and never tried while another was
    tried a minute ago (the ``hooks`` process works; an account's slow receivers use its
    WEBHOOKS_IN_FLIGHT_PER_ACCOUNT places), doctor warns of deliveries waiting their
    account's turn instead of asking whether the process runs."""
    run, app = doctor
    now = utcnow()
    with app.app_context():
        db.session.add(ClockSweep(name="clock", last_run=now))
        for n, (created, claimed) in enumerate(
            [
                (now - timedelta(hours=1), None),
                (now - timedelta(hours=1), now - timedelta(minutes=1)),
            ]
        ):
            db.session.add(
                WebhookDelivery(
                    message_id=f"msg_wait{n}",
                    event="turn",
                    url="https://example.org/",
                    url_hash=f"wait{n}",
                    body="{}",
                    attempts=0 if claimed is None else 1,
                    created_at=created,
                    claimed_at=claimed,
                )
            )
        db.session.commit()
    result = run()
    lines = {line.split()[1]: line for line in result.output.splitlines() if "  " in line}
    assert lines["webhooks"].startswith("WARNING"), lines["webhooks"]
    assert "1 not tried yet after 5 minutes" in lines["webhooks"]
    assert "WEBHOOKS_IN_FLIGHT_PER_ACCOUNT" in lines["webhooks"]
