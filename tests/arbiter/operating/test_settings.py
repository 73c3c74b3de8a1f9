"""The settings object (issue 21, item 4): built once from the environment, with the
embedded defaults when it is empty; a deployment's variables set each group; a value
of the wrong type or an unknown name stops the start with an error naming it; contexts
read the settings of the app whose context is active."""

from __future__ import annotations

import dataclasses
import json

import pytest

from arbiter import create_app
from arbiter import settings as arbiter_settings
from arbiter.settings import Settings, SettingsError


def test_an_empty_environment_gives_the_embedded_defaults(tmp_path):
    s = Settings.from_env({}, str(tmp_path))
    assert s.database.url == f"sqlite:///{tmp_path / 'arbiter.sqlite3'}"
    assert s.service.broker_url == "" and s.service.base_url == "http://127.0.0.1:8000"
    assert s.service.open_creation is True and s.hooks.allow_http is True
    assert s.streams.redis_url == "" and s.limits.ratelimit_storage_uri == "memory://"
    assert s.mail.smtp_url == "" and s.mail.sender == "arbiter@localhost"
    assert s.clock.sweep_seconds == 15.0 and s.limits.tokens_per_account == 50
    assert s.database.pre_ping is True and s.database.statement_timeout_seconds == 60.0
    assert (tmp_path / "secret_key").exists() and not s.service.secret_key_from_env
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.mail.sender = "x"  # type: ignore[misc]


def test_a_deployment_environment_sets_each_group(tmp_path):
    env = {
        "DATABASE_URL": "postgres://u@db/arbiter",
        "DB_SESSION_OPTIONS": "0",
        "CELERY_BROKER_URL": "redis://r:6379/0",
        "SECRET_KEY": "shared",
        "BASE_URL": "https://arbiter.example/",
        "METRICS_TOKEN": "scrape",
        "OPEN_CREATION": "yes",
        "WEB_THREADS": "8",
        "SMTP_URL": "smtps://mail.example:465",
        "MAIL_FROM": "arbiter@arbiter.example",
        "MAIL_DOMAIN": "play.arbiter.example",
        "MAIL_REPLY_MAILBOX": "arbiter",
        "MAILIN_URL": "smtp://0.0.0.0:25",
        "MAIL_AUTHSERV_ID": "mx.arbiter.example",
        "IMAP_URL": "imaps://u:p@imap.example/INBOX",
        "RATELIMIT_ENABLED": "0",
    }
    assert set(env) == set(arbiter_settings.environment_names())
    s = Settings.from_env(env, str(tmp_path), role="web")
    assert s.database.url == "postgresql+psycopg://u@db/arbiter"
    assert s.database.session_options is False
    assert s.database.pre_ping is False and s.database.lock_timeout_seconds == 5.0  # web
    assert s.service.base_url == "https://arbiter.example" and s.service.secret_key == "shared"
    assert s.service.open_creation is True and s.service.web_threads == 8
    assert s.service.metrics_token == "scrape" and s.service.secret_key_from_env
    assert s.hooks.allow_http is False  # production: DATABASE_URL set
    assert s.streams.redis_url == s.limits.ratelimit_storage_uri == "redis://r:6379/0"
    assert s.limits.ratelimit_enabled is False
    assert s.mail.smtp_url == "smtps://mail.example:465" and s.mail.domain == "play.arbiter.example"
    assert s.mail.reply_mailbox == "arbiter" and s.mail.mailin_url == "smtp://0.0.0.0:25"
    assert s.mail.authserv_id == "mx.arbiter.example" and s.mail.imap_url.startswith("imaps:")
    assert not (tmp_path / "secret_key").exists()


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"WEB_THREADS": "many"}, "WEB_THREADS='many': expected a whole number"),
        ({"OPEN_CREATION": "maybe"}, "OPEN_CREATION='maybe': expected 1 or 0"),
        ({"ARBITER_OVERRIDES": '{"CLOCK_SWEEP_SECONDS": "soon"}'}, "CLOCK_SWEEP_SECONDS="),
        ({"ARBITER_OVERRIDES": '{"NO_SUCH_SETTING": 1}'}, "NO_SUCH_SETTING is not a setting"),
        ({"ARBITER_OVERRIDES": "[1]"}, "ARBITER_OVERRIDES is not a JSON object"),
    ],
)
def test_an_ill_typed_or_unknown_value_stops_the_start_naming_it(tmp_path, env, named):
    with pytest.raises(SettingsError, match="expected|not a"):
        Settings.from_env({"SECRET_KEY": "k", **env}, str(tmp_path))
    with pytest.raises(SettingsError) as err:
        Settings.from_env({"SECRET_KEY": "k", **env}, str(tmp_path))
    assert named in str(err.value)


def test_fixed_settings_come_from_overrides_not_the_environment(tmp_path, caplog):
    env = {"SECRET_KEY": "k", "CLOCK_SWEEP_SECONDS": "1"}
    assert Settings.from_env(env, str(tmp_path)).clock.sweep_seconds == 15.0
    assert "CLOCK_SWEEP_SECONDS" in caplog.text  # named in a warning
    env = {"SECRET_KEY": "k", **arbiter_settings.environment({"CLOCK_SWEEP_SECONDS": 1})}
    assert json.loads(env["ARBITER_OVERRIDES"]) == {"CLOCK_SWEEP_SECONDS": 1}
    assert Settings.from_env(env, str(tmp_path)).clock.sweep_seconds == 1.0


def test_contexts_see_the_settings_of_their_own_app(tmp_path):
    """Given two apps, nested app contexts each see their own app's settings, and an
    override is seen at once."""
    one = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/1", "BASE_URL": "http://one"}
    )
    two = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/2", "BASE_URL": "http://two"}
    )
    with pytest.raises(RuntimeError):
        arbiter_settings.current()
    with one.app_context():
        assert arbiter_settings.current().service.base_url == "http://one"
        with two.app_context():
            assert arbiter_settings.current().service.base_url == "http://two"
            arbiter_settings.override(two, TOKENS_PER_ACCOUNT=2)
            assert arbiter_settings.current().limits.tokens_per_account == 2
        assert arbiter_settings.current().service.base_url == "http://one"
        assert arbiter_settings.current().limits.tokens_per_account == 50
    assert one.config["SQLALCHEMY_DATABASE_URI"].endswith("/1")
    assert arbiter_settings.of(two).service.base_url == "http://two"
