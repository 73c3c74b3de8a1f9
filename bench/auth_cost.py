"""What authentication and the rate limiter cost on ``POST /v1/games/{id}/moves``.

One run, five configurations of the same app (each on its own fresh SQLite file, the
embedded default), each playing ``ARBITER_BENCH_AUTH_MOVES`` moves (default 300) of
one-player Space Worm games through Flask's test client, in process, so that the
figures are the service's own cost and not the network's:

``no guard``              the request guard replaced by a hook that only hands the
                          bearer token on (the service still checks the seat token,
                          as before issue 10): the baseline;
``seat token``            the guard on: authentication before the body is read;
``seat token + limiter``  and the rate limiter (in-memory storage) counting the move;
``account token``         a personal API token (one indexed SELECT to authenticate);
``account token + limiter``

Each move is timed alone (``time.perf_counter`` around the POST); rolling the dice
between rounds is done in process and not timed. The configurations take turns, ten
moves each, so that a change in the machine's load touches all of them alike. Printed: p50 and p95
per
configuration, and the p50 difference to the baseline. Other work on the machine
moves these figures: compare within one run only.

Run alone: ``.venv/bin/python bench/auth_cost.py``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import common  # noqa: E402
from flask import g, request  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from arbiter import create_app  # noqa: E402
from arbiter.accounts import accounts, identity
from arbiter.extensions import db  # noqa: E402
from arbiter.games.chance import advance_chance  # noqa: E402
from arbiter.resources import guard  # noqa: E402

MOVES = int(os.environ.get("ARBITER_BENCH_AUTH_MOVES", "300"))
CASES = [
    ("no guard", "seat", False, False),
    ("seat token", "seat", True, False),
    ("seat token + limiter", "seat", True, True),
    ("account token", "account", True, False),
    ("account token + limiter", "account", True, True),
]


def make(folder: Path, limiter: bool, with_guard: bool):
    """Return an app on a fresh SQLite file, with or without the guard and limiter."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
            "ENQUEUE": False,
            "OPEN_CREATION": True,
            "RATELIMIT_ENABLED": limiter,
            "RATELIMIT_WRITE": "1000000 per minute",
            "RATELIMIT_CREATE": "1000000 per minute",
            "RATELIMIT_READ": "1000000 per minute",
            "RATELIMIT_STORAGE_URI": "memory://",
        }
    )
    with app.app_context():
        upgrade()
    if not with_guard:
        hooks = app.before_request_funcs[None]
        hooks[hooks.index(guard.check_request)] = bare_bearer
    return app


def bare_bearer() -> None:
    """The baseline's hook: hand the raw bearer token to the service, as before the
    guard (no lookup, no policy, no limit; the service checks the seat token)."""
    token = identity.bearer(request.headers.get("Authorization"))
    g.principal = (
        None
        if token is None
        else identity.Principal(token=token, token_hash=identity.token_hash(token))
    )


def account_token(app) -> str:
    """Return a personal token of a fresh account holding ``ann@example.org``."""
    with app.app_context():
        account = accounts.new_account("ann@example.org", "Ann")
        _row, plain = accounts.sign_in_token(account)
        db.session.commit()
    return plain


def timed_moves(app, kind: str) -> Iterator[float]:
    """Play moves for ever; yield each POST's duration in seconds."""
    client = app.test_client()
    token = account_token(app)  # every game's seat is the account's, so that each
    while True:  # configuration writes the same "your turn" mails
        made = client.post(
            "/v1/games",
            json={"engine": "space-worm", "players": [{"name": "Ann", "email": "ann@example.org"}]},
        ).get_json()
        game_id = made["id"]
        bearer = token if kind == "account" else made["seats"][0]["token"]
        headers = {"Authorization": f"Bearer {bearer}"}
        while True:
            summary = client.get(f"/v1/games/{game_id}").get_json()
            if summary["status"] != "active":
                break
            if not summary["to_act"]:
                with app.app_context():
                    advance_chance(game_id, summary["version"])
                continue
            legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=headers).get_json()
            body = {"move": legal["moves"][0], "expected_version": legal["version"]}
            started = time.perf_counter()
            answer = client.post(f"/v1/games/{game_id}/moves", headers=headers, json=body)
            elapsed = time.perf_counter() - started
            assert answer.status_code == 201, answer.get_json()
            yield elapsed


def main() -> None:
    """Measure every configuration, interleaved (ten moves of each in turn, so that the
    machine's load drifts over all of them alike), and print the figures."""
    report = common.Report("auth_cost")
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-auth-") as tmp:
        players, apps = {}, []
        for i, (label, kind, with_guard, limiter) in enumerate(CASES):
            folder = Path(tmp) / str(i)
            folder.mkdir()
            apps.append(make(folder, limiter, with_guard))
            players[label] = timed_moves(apps[-1], kind)
        durations = {label: [] for label in players}
        while len(durations[CASES[0][0]]) < MOVES:
            for label, moves in players.items():
                durations[label].extend(next(moves) for _ in range(10))
        for app in apps:
            with app.app_context():
                db.engine.dispose()
    baseline = common.percentile(durations[CASES[0][0]], 50)
    for label, values in durations.items():
        p50 = common.percentile(values, 50)
        report.add(label, "POST /moves p50", common.ms(p50))
        report.add(label, "POST /moves p95", common.ms(common.percentile(values, 95)))
        if label != CASES[0][0]:
            report.add(label, "p50 minus no guard", common.ms(p50 - baseline))
    report.note(
        f"{MOVES} moves per configuration, interleaved, in process (Flask test "
        "client, SQLite); noisy when the machine is shared"
    )
    report.done()


if __name__ == "__main__":
    main()
