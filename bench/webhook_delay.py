"""Web hooks: delay from an event's transaction to the receiver, p50 and p95.

What it measures: the web process (uvicorn), the game worker, the mailer and the web
hook worker (the Procfile's ``worker``, ``mailer`` and ``hooks``: the ``mail`` and
``webhooks`` queues) run as subprocesses on loopback, on the embedded default (SQLite +
the filesystem broker), then on PostgreSQL (fresh schema) + Redis (an empty database).
Two accounts sign up through the API (their sign-in mail goes to a local SMTP sink),
each registers a web hook for ``turn`` and ``game_over`` on a loopback HTTP receiver in
this process (``WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8``), and they play 2-seat Space Worm
games by random legal moves, one move at a time, each waiting for the web hook of the
turn it caused. A delivery's delay runs from the ``timestamp`` in its body (taken when
the delivery row is written, in the event's transaction, just before its commit) to its
arrival at the receiver (``time.time()`` in its handler thread, same clock). Samples:
``ARBITER_BENCH_WEBHOOK_SAMPLES`` deliveries per backend (default 60). The machine is
shared, so the figures are noisy.

Run alone: ``.venv/bin/python bench/webhook_delay.py``.
"""

from __future__ import annotations

import os
import random
import re
import time
from datetime import datetime
from urllib.parse import parse_qs, urlparse

import common
import requests

from arbiter.play_mail import Sink
from tests.webhook_receiver import ReceiverServer

SAMPLES = int(os.environ.get("ARBITER_BENCH_WEBHOOK_SAMPLES", "60"))
TIMEOUT = 60.0


def stack_for(folder, database_url, broker_url, sink_url) -> common.Stack:
    """Return web + worker + mailer + hooks, mail to ``sink_url``, loopback hooks allowed."""
    stack = common.Stack(folder, database_url, broker_url)
    stack.env.update(
        SMTP_URL=sink_url, WEBHOOK_ALLOWED_NETWORKS="127.0.0.0/8", WEBHOOK_ALLOW_HTTP="1"
    )
    return stack


def wait(predicate, what: str, timeout: float = TIMEOUT):
    """Poll ``predicate`` until it returns something true; return it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.01)
    raise RuntimeError(f"timed out waiting for {what}")


def sign_in(http, url: str, sink: Sink, email: str) -> str:
    """Sign up through the mailed link; return the personal token."""
    seen = len(sink.messages)
    http.post(f"{url}/v1/auth/links", json={"email": email}, timeout=30).raise_for_status()

    def link():
        with sink.lock:
            for msg in sink.messages[seen:]:
                found = re.search(r"https?://\S+/v1/auth/confirm\?\S+", msg.get_content())
                if str(msg["To"]) == email and found:
                    return found.group(0)
        return None

    query = parse_qs(urlparse(wait(link, f"the sign-in mail to {email}")).query)
    answer = http.post(
        f"{url}/v1/auth/sessions",
        timeout=30,
        json={"email": query["email"][0], "token": query["token"][0]},
    )
    answer.raise_for_status()
    return answer.json()["token"]["token"]


def delays(receiver) -> list[float]:
    """Return each received delivery's delay: arrival minus its body's timestamp."""
    import json

    out = []
    for got in receiver.ok():
        stamp = json.loads(got.body)["timestamp"].replace("Z", "+00:00")
        out.append(got.at - datetime.fromisoformat(stamp).timestamp())
    return out


def play(
    http, url: str, receiver, tokens: dict[int, str], emails: list[str], rng: random.Random
) -> None:
    """Play games until ``SAMPLES`` deliveries arrived, one move at a time, each
    waiting for the web hook of the turn it caused."""
    import json

    def versions() -> set[tuple[str, int]]:
        return {
            (b["data"]["game"], b["data"]["version"])
            for b in (json.loads(r.body) for r in receiver.ok())
            if b["type"] == "turn"
        }

    while len(receiver.ok()) < SAMPLES:
        created = http.post(
            f"{url}/v1/games",
            headers={"Authorization": f"Bearer {tokens[0]}"},
            timeout=30,
            json={
                "engine": "space-worm",
                "players": [
                    {"name": "Ann", "email": emails[0]},
                    {"name": "Bob", "email": emails[1]},
                ],
            },
        )
        created.raise_for_status()
        game_id = created.json()["id"]
        while len(receiver.ok()) < SAMPLES:
            s = wait(
                lambda: (lambda s: s if s["status"] == "over" or s["to_act"] else None)(
                    http.get(f"{url}/v1/games/{game_id}", timeout=30).json()
                ),
                "a decision",
            )
            if s["status"] == "over":
                break
            wait(lambda: (game_id, s["version"]) in versions(), "the turn's web hook")
            answer = common.play_random(http, url, game_id, tokens[s["to_act"][0]], rng)
            if answer.status_code not in (201, 409):
                raise RuntimeError(f"move refused: {answer.status_code} {answer.text[:200]}")


def run(report: common.Report, case: str, folder, database_url, broker_url) -> None:
    sink_url = f"smtp://127.0.0.1:{common.free_port()}"
    with (
        Sink(sink_url) as sink,
        ReceiverServer() as receiver,
        stack_for(folder, database_url, broker_url, sink_url) as stack,
    ):
        wait(lambda: " ready." in stack.log("hooks"), "the hooks process")
        http = requests.Session()
        emails = ["ann@players.test", "bob@players.test"]
        tokens = {seat: sign_in(http, stack.url, sink, email) for seat, email in enumerate(emails)}
        for seat, token in tokens.items():
            http.post(
                f"{stack.url}/v1/me/webhooks",
                headers={"Authorization": f"Bearer {token}"},
                json={"url": f"{receiver.url}seat{seat}", "events": ["turn", "game_over"]},
                timeout=30,
            ).raise_for_status()
        play(http, stack.url, receiver, tokens, emails, random.Random(1))
        samples = delays(receiver)
        report.add(
            case,
            f"event -> receiver p50 (n={len(samples)})",
            common.ms(common.percentile(samples, 50)),
        )
        report.add(case, "event -> receiver p95", common.ms(common.percentile(samples, 95)))
        ids = [r.headers["webhook-id"] + r.path for r in receiver.ok()]
        if len(ids) != len(set(ids)):
            report.note(f"{case}: {len(ids) - len(set(ids))} deliveries arrived twice")
        for problem in stack.problems():
            report.note(f"{case}: {problem[:300]}")


if __name__ == "__main__":
    report = common.Report("webhook_delay")
    print(f"webhook_delay ({common.machine()})")
    common.run_on_backends(report, run)
