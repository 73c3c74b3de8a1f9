"""Arbiter: a play-by-email and REST turn arbiter for board games.

``create_app`` is the Flask application factory (Flask's tutorial pattern): nothing is
built at import time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, appcontext_popped, appcontext_pushed

from arbiter import settings as _settings


def _push_settings(app: Flask, **_: Any) -> None:
    """An app context was pushed: its app's settings are current (None for an app
    that is not Arbiter's)."""
    _settings.push(app.extensions.get("arbiter_settings"))


def _pop_settings(app: Flask, **_: Any) -> None:
    """An app context was popped: the settings current before it are again."""
    _settings.pop()


def create_app(test_config: Mapping[str, Any] | None = None, role: str = "workers") -> Flask:
    """Build the Flask app: its settings (:class:`arbiter.settings.Settings`) are read
    once from the environment for a process of ``role`` (``"web"``, or ``"workers"`` for
    workers, beat and the command line), overridden by ``test_config``, and bound to
    the app's contexts (:func:`arbiter.settings.current`); the Flask config is derived
    from them (:func:`arbiter.config.flask_config`).

    :param test_config: settings by name (``SMTP_URL``, ``SQLALCHEMY_DATABASE_URI``
        ...) that replace those of the environment; other keys (``TESTING``,
        ``CELERY``, ``SQLALCHEMY_ENGINE_OPTIONS`` ...) go into the Flask config as given.
    :returns: the configured app, with its Celery app in ``app.extensions["celery"]``
        and its settings in ``app.extensions["arbiter_settings"]``.
    :raises arbiter.settings.SettingsError: a setting is unknown or ill-typed.
    """
    from arbiter import (  # noqa: PLC0415 - app factory wiring
        bodies,
        config,
        database,
        follow_ups,
        guards,
        limits,
        problems,
        queue,
        unavailable,
        web,
    )
    from arbiter.extensions import api, db, migrate  # noqa: PLC0415 - app factory wiring
    from arbiter.mail import consent  # noqa: F401, PLC0415 - the outbox's consent check
    from arbiter.resources import guard, register_blueprints  # noqa: PLC0415 - app factory wiring
    from arbiter.resources.examples import ExamplesPlugin  # noqa: PLC0415 - app factory wiring
    from arbiter.resources.metrics.routes import install_timing  # noqa: PLC0415 - app factory wiring

    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=os.environ.get("ARBITER_INSTANCE_PATH") or None,
    )
    app.request_class = bodies.BoundedRequest  # a chunked body over the limit is 413
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    known = {*_settings.names(), *_settings.ALIASES}
    given = dict(test_config or {})
    settings = _settings.Settings.from_env(
        os.environ,
        app.instance_path,
        role=role,
        overrides={k: v for k, v in given.items() if k in known},
    )
    app.extensions["arbiter_settings"] = _settings.Bound(settings)
    appcontext_pushed.connect(_push_settings)
    appcontext_popped.connect(_pop_settings)
    app.config.from_mapping(config.flask_config(settings))
    app.config.from_mapping({k: v for k, v in given.items() if k not in known})
    guards.register(app, guard.check_request)  # authenticate before reading anything
    db.init_app(app)
    database.install_sqlite_pragmas(app)
    migrate.init_app(app, db, directory=str(database.MIGRATIONS))
    api.init_app(
        app,
        spec_kwargs={
            "info": {"description": API_DESCRIPTION},
            "extra_plugins": [ExamplesPlugin()],  # one recorded exchange per operation
        },
    )
    api.spec.components.security_scheme(
        "seatToken",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "the seat token shown once at game creation",
        },
    )
    api.spec.components.security_scheme(
        "creatorToken",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "the creator token shown once at game creation",
        },
    )
    api.spec.components.security_scheme(
        "organiserToken",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "the organiser token shown once at campaign creation",
        },
    )
    api.spec.components.security_scheme(
        "metricsToken",
        {"type": "http", "scheme": "bearer", "description": "the operator's METRICS_TOKEN"},
    )
    api.spec.components.security_scheme(
        "apiToken",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "a personal API token (arb_...) of an account, with "
            "scopes; it acts for every seat the account holds",
        },
    )
    register_blueprints(api)
    api.finish_spec()
    install_timing(app)
    problems.register(app)
    unavailable.register(app)
    limits.init_app(app)
    web.init_app(app)
    queue.celery_init_app(app)
    follow_ups.install()  # what follows a committed transition
    return app


API_DESCRIPTION = (
    "Arbiter validates moves against per-game rules engines, records an append-only "
    "event log per game, rolls dice and draws cards from a committed seed, and mails "
    "players when it is their turn. Errors are application/problem+json with a stable "
    "`code`. Seat tokens are bearer tokens shown once at game creation; personal API "
    "tokens (arb_...) of accounts act for every seat their account holds."
)
