"""Strangers one caller can make the service mail in a day (issue 22, item 3).

What it measures: the Procfile's web process (uvicorn) and Celery workers (``worker``,
``mailer``) on loopback, on the embedded default (SQLite + the filesystem broker),
their mail going to a local SMTP sink (aiosmtpd) in this process, the service's
default settings (rate limits off, as in the other benchmarks: a bulk request counts
once against ``RATELIMIT_CREATE`` anyway).

1. **Anonymous** (open creation, as ``make run``): one ``POST /v1/bulk-games`` of
   ``ARBITER_BENCH_STRANGER_GAMES`` games (default 100) of 5 players, each a new
   address, each player named like the issue's attack. Reported: the answer, the
   invitation mails that reached the sink (waiting until none arrive for 10 s), how
   fast they came, and the day's reach: strangers per request times the requests a
   day allows (``RATELIMIT_CREATE``'s 500 a day, ``BULK_GAMES_MAX`` games of 6 seats
   each), capped by the mail rate over 86,400 s.
2. **A verified account** (signed up through its link, read from the sink): the same
   bulk request, then single games each naming one new address, until one is
   refused (at most 100). Reported: how many were taken, and the invitation mails
   that reached the sink.

Run alone: ``.venv/bin/python bench/strangers.py`` (against any checkout: it needs
only the HTTP API, so it measures main and a branch alike).
"""

from __future__ import annotations

import os
import re
import time
from urllib.parse import unquote

import common
import requests

from arbiter.play_mail import Sink, body_of, is_invitation

GAMES = int(os.environ.get("ARBITER_BENCH_STRANGER_GAMES", "100"))
SEATS = 5
PHISH = "Hello URGENT: account locked, verify at http://evil.example/login"
DAILY_REQUESTS, MAX_BATCH_SEATS = 500, 500 * 6


def batch(tag: str) -> dict:
    """``GAMES`` games of ``SEATS`` new addresses each."""
    return {
        "games": [
            {
                "engine": "space-worm",
                "players": [
                    {"name": f"{PHISH[:75]} {s}", "email": f"{tag}{g}.{s}@strangers.test"}
                    for s in range(SEATS)
                ],
            }
            for g in range(GAMES)
        ]
    }


def settle(sink: Sink, tag: str, quiet: float = 10.0) -> list[float]:
    """Wait until no invitation to ``tag...`` has arrived for ``quiet`` seconds; return
    the arrival times of those that did."""
    last, count = time.monotonic(), -1
    while time.monotonic() - last < quiet:
        with sink.lock:
            times = [
                t
                for m, t in zip(sink.messages, sink.arrived)
                if is_invitation(m) and str(m["To"]).startswith(tag)
            ]
        if len(times) != count:
            count, last = len(times), time.monotonic()
        time.sleep(0.2)
    return times


def sign_up(http: requests.Session, url: str, sink: Sink, address: str) -> str:
    """Sign ``address`` up through its mailed link; return the personal token."""
    http.post(f"{url}/v1/auth/links", json={"email": address}, timeout=30).raise_for_status()
    deadline = time.monotonic() + 60
    while not sink.to(address):
        if time.monotonic() > deadline:
            raise RuntimeError(f"no sign-in mail reached {address}")
        time.sleep(0.1)
    nonce = unquote(re.search(r"[?&]token=([^&\s]+)", body_of(sink.to(address)[-1])).group(1))
    answer = http.post(
        f"{url}/v1/auth/sessions", json={"email": address, "token": nonce}, timeout=30
    )
    answer.raise_for_status()
    return answer.json()["token"]["token"]


def reach(report: common.Report, case: str, answer, times: list[float]) -> None:
    """Report one bulk request's answer, its mails, their rate and the day's reach."""
    report.add(case, "bulk request answer", f"{answer.status_code} {answer.json().get('code', '')}")
    report.add(case, "invitation mails received", str(len(times)))
    if len(times) > 1:
        rate = (len(times) - 1) / max(1e-6, times[-1] - times[0])
        per_day = min(MAX_BATCH_SEATS * DAILY_REQUESTS, int(rate * 86400))
        report.add(case, "invitation mails/s", f"{rate:.1f}")
        report.add(case, "strangers mailed per day (estimate)", f"{per_day:,}")
    elif answer.status_code >= 400:
        report.add(case, "strangers mailed per day (estimate)", "0 by bulk")


def run(report: common.Report, case: str, folder, database_url, broker_url) -> None:
    sink_url = f"smtp://127.0.0.1:{common.free_port()}"
    stack = common.Stack(folder, database_url, broker_url)
    stack.env.update(SMTP_URL=sink_url)
    with Sink(sink_url) as sink, stack:
        http = requests.Session()
        anonymous = http.post(f"{stack.url}/v1/bulk-games", json=batch("anon"), timeout=300)
        reach(report, f"{case}, anonymous", anonymous, settle(sink, "anon"))
        token = sign_up(http, stack.url, sink, "inviter@strangers.test")
        auth = {"Authorization": f"Bearer {token}"}
        bulk = http.post(
            f"{stack.url}/v1/bulk-games", json=batch("acct"), headers=auth, timeout=300
        )
        reach(report, f"{case}, account bulk", bulk, settle(sink, "acct"))
        taken, refusal = 0, "none in 100"
        for i in range(100):
            one = http.post(
                f"{stack.url}/v1/games",
                json={
                    "engine": "space-worm",
                    "players": [{"name": PHISH, "email": f"one{i}@x.test"}],
                },
                headers=auth,
                timeout=30,
            )
            if one.status_code != 201:
                refusal = f"{one.status_code} {one.json().get('code')}"
                break
            taken += 1
        mailed = settle(sink, "one")
        report.add(f"{case}, account singles", "games taken before a refusal", str(taken))
        report.add(f"{case}, account singles", "refusal", refusal)
        report.add(f"{case}, account singles", "invitation mails received", str(len(mailed)))
        texts = [body_of(m) for m in sink.snapshot() if is_invitation(m)]
        report.add(
            case, "invitations holding the typed name", str(sum("URGENT" in t for t in texts))
        )
        for problem in stack.problems():
            report.note(f"{case}: {problem[:300]}")


if __name__ == "__main__":
    report = common.Report("strangers")
    print(f"strangers ({common.machine()})")
    with common.instance_dir("strangers") as folder:
        run(report, "embedded default", folder, None, None)
    report.done()
