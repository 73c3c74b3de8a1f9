"""Web hooks against everyone else: other accounts' turn mail (and web hooks) while one
account's hooks hang, drip and fail (issue 22, item 2).

What it measures: the Procfile's web, worker, mailer and (where the Procfile has it)
hooks processes on loopback, on the embedded default (SQLite + the filesystem broker),
then on PostgreSQL (fresh schema) + Redis (an empty database), with the default web
hook settings (per-read timeout, deadline, bound on deliveries in flight) except
``WEBHOOKS_PER_ACCOUNT=22``. Mail goes to an SMTP sink in this process. A "noisy"
account registers 20 hooks on a receiver that never answers, 1 on one that answers one
byte every 5 s and never ends, and 1 on one that answers 500
(``tests/webhook_receiver.SlowReceiver``). Two other accounts play a 2-seat Space Worm
game; one of them has a hook on a receiver that answers at once.

Each sample is one move: the clock starts when the move's POST is answered and stops
when the next mail to a player arrives at the sink (its turn mail: a roll may lie
between; the end mail for a move that ends the game), and, apart, when the quiet
account's next web hook arrives. First ``quiet`` samples with the noisy hooks registered
and idle, then ``under attack``: the noisy account creates a game (an event for its 22
hooks) every ``ARBITER_BENCH_NOISE_EVERY`` seconds (default 2) from 10 s before the
first move to the end, and the moves go on, one every 2 s at least, for
``ARBITER_BENCH_ATTACK_SECONDS`` (default 60). A mail or hook that does not come within
``ARBITER_BENCH_ISOLATION_TIMEOUT`` seconds (default 300) is counted at that value (and
a mail that does not come ends the phase). Also reported: the most noisy connections the
receiver held at once, and how long the dripping receiver's connections stayed open.
Samples: ``ARBITER_BENCH_ISOLATION_SAMPLES`` per phase (default 5). The machine is
shared: ``uptime`` is printed before each phase.

Run alone (a few minutes; much longer where the hooks hold the mailer up):
``.venv/bin/python bench/webhook_isolation.py``.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import threading
import time
from urllib.parse import parse_qs, urlparse

import common
import requests

from arbiter.play_mail import Sink
from tests.webhook_receiver import SlowReceiver

SAMPLES = int(os.environ.get("ARBITER_BENCH_ISOLATION_SAMPLES", "5"))
TIMEOUT = float(os.environ.get("ARBITER_BENCH_ISOLATION_TIMEOUT", "300"))
NOISE_EVERY = float(os.environ.get("ARBITER_BENCH_NOISE_EVERY", "2"))
ATTACK = float(os.environ.get("ARBITER_BENCH_ATTACK_SECONDS", "60"))
PAUSE = 2.0
PLAYERS = ("ann@bench.test", "bob@bench.test")


def uptime() -> str:
    """Return ``uptime``'s line."""
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def wait(predicate, what: str, timeout: float = 60.0):
    """Poll ``predicate`` until it returns something true; return it."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
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


def hook(http, url: str, token: str, target: str) -> None:
    """Register a ``turn`` and ``game_over`` hook at ``target``."""
    http.post(
        f"{url}/v1/me/webhooks",
        headers={"Authorization": f"Bearer {token}"},
        json={"url": target, "events": ["turn", "game_over"]},
        timeout=30,
    ).raise_for_status()


def noise(url: str, token: str, stop: threading.Event) -> None:
    """Create a game with two unnamed seats every ``NOISE_EVERY`` s until ``stop``:
    each prompt of it is a ``turn`` event for its creator's hooks."""
    http = requests.Session()
    while not stop.wait(NOISE_EVERY):
        try:
            http.post(
                f"{url}/v1/games",
                headers={"Authorization": f"Bearer {token}"},
                json={"engine": "space-worm", "players": [{"name": "X"}, {"name": "Y"}]},
                timeout=30,
            )
        except requests.RequestException:
            pass


def moves(
    http, url, sink, receiver, game, rng, count, seconds=0.0
) -> tuple[list[tuple[float, float]], str | None]:
    """Play ``count`` moves, and more until ``seconds`` have passed, one every ``PAUSE``
    s at least (a new game when one ends: ``game()`` returns ``(id, seat tokens)``);
    return per move (seconds to the next mail to a player, seconds to the next web hook
    of the quiet account), ``TIMEOUT`` for one that did not come, and what stopped the
    phase early if the API failed (a timeout, a refusal), else None."""
    out: list[tuple[float, float]] = []
    try:
        _moves(http, url, sink, receiver, game, rng, count, seconds, out)
    except (requests.RequestException, RuntimeError) as err:
        return out, f"{type(err).__name__}: {err}"[:300]
    return out, None


def _moves(http, url, sink, receiver, game, rng, count, seconds, out) -> None:
    end = time.monotonic() + seconds
    game_id, tokens = game()
    while len(out) < count or time.monotonic() < end:
        if out:
            time.sleep(PAUSE)
        summary = wait(
            lambda: (lambda s: s if s["status"] == "over" or s["to_act"] else None)(
                http.get(f"{url}/v1/games/{game_id}", timeout=30).json()
            ),
            "a decision",
            TIMEOUT,
        )
        if summary["status"] == "over":
            game_id, tokens = game()
            continue
        mails, hooks = len(sink.messages), len(receiver.of("/ok/"))
        answer = common.play_random(http, url, game_id, tokens[summary["to_act"][0]], rng)
        answered = time.monotonic()
        if answer.status_code != 201:
            raise RuntimeError(f"move refused: {answer.status_code} {answer.text[:200]}")
        out.append(until_both(sink, mails, receiver, hooks, answered))
        if out[-1][0] >= TIMEOUT:
            break


def until_both(sink: Sink, mails: int, receiver, hooks: int, since: float) -> tuple[float, float]:
    """Return the seconds from ``since`` to the first mail to a player (a turn or the
    end: not a sign-in link) after index ``mails``, and to the quiet account's first
    web hook after index ``hooks`` (when the receiver had its request), ``TIMEOUT``
    for one that did not come."""
    got: list[float | None] = [None, None]
    while time.monotonic() < since + TIMEOUT and None in got:
        if got[0] is None:
            with sink.lock:
                for i in range(mails, len(sink.messages)):
                    if str(sink.messages[i]["To"]) in PLAYERS:
                        got[0] = sink.arrived[i] - since
                        break
        visits = receiver.of("/ok/")
        if got[1] is None and len(visits) > hooks:
            got[1] = max(0.0, visits[hooks].opened - since)
        time.sleep(0.01)
    return (
        TIMEOUT if got[0] is None else got[0],
        TIMEOUT if got[1] is None else got[1],
    )


def figures(report, case: str, phase: str, result) -> None:
    samples, problem = result
    if problem:
        report.add(case, f"{phase}: the API failed", problem)
    for index, what in ((0, "turn mail"), (1, "turn web hook")):
        values = [s[index] for s in samples]
        if not values:
            report.add(case, f"{phase}: {what}", "no sample")
            continue
        late = sum(v >= TIMEOUT for v in values)
        report.add(
            case,
            f"{phase}: {what} p50 / max (n={len(values)})",
            f"{common.percentile(values, 50):.2f} s / {max(values):.2f} s"
            + (f" ({late} not within {TIMEOUT:.0f} s)" if late else ""),
        )


def run(report: common.Report, case: str, folder, database_url, broker_url) -> None:
    sink_url = f"smtp://127.0.0.1:{common.free_port()}"
    rng = random.Random(1)
    with (
        Sink(sink_url) as sink,
        SlowReceiver(drip_seconds=5.0) as receiver,
        stack_for(folder, database_url, broker_url, sink_url) as stack,
    ):
        http = requests.Session()
        noisy = sign_in(http, stack.url, sink, "noisy@bench.test")
        for i in range(20):
            hook(http, stack.url, noisy, f"{receiver.url}hang/noisy/{i}")
        hook(http, stack.url, noisy, f"{receiver.url}drip/noisy/1")
        hook(http, stack.url, noisy, f"{receiver.url}fail/noisy/1")
        tokens = {seat: sign_in(http, stack.url, sink, e) for seat, e in enumerate(PLAYERS)}
        hook(http, stack.url, tokens[0], f"{receiver.url}ok/quiet/1")

        def game() -> tuple[str, dict[int, str]]:
            created = http.post(
                f"{stack.url}/v1/games",
                headers={"Authorization": f"Bearer {tokens[0]}"},
                json={
                    "engine": "space-worm",
                    "players": [{"name": n, "email": e} for n, e in zip(("Ann", "Bob"), PLAYERS)],
                },
                timeout=30,
            )
            created.raise_for_status()
            return created.json()["id"], {s["seat"]: s["token"] for s in created.json()["seats"]}

        report.note(f"{case}: quiet phase at {uptime()}")
        quiet = moves(http, stack.url, sink, receiver, game, rng, SAMPLES)
        figures(report, case, "quiet", quiet)
        stop = threading.Event()
        noiser = threading.Thread(target=noise, args=(stack.url, noisy, stop), daemon=True)
        noiser.start()
        time.sleep(10)
        report.note(f"{case}: attack phase at {uptime()}")
        try:
            attacked = moves(http, stack.url, sink, receiver, game, rng, SAMPLES, ATTACK)
        finally:
            stop.set()
        figures(report, case, "under attack", attacked)
        report.add(case, "noisy connections at once (most)", str(receiver.most_open.get("noisy")))
        drips = [v.closed - v.opened for v in receiver.of("/drip/") if v.closed is not None]
        still = sum(v.closed is None for v in receiver.of("/drip/"))
        report.add(
            case,
            "dripping receiver: attempts",
            f"{len(drips)} ended, longest {max(drips, default=0):.1f} s; {still} still open",
        )
        report.note(f"{case}: done at {uptime()}")


def stack_for(folder, database_url, broker_url, sink_url) -> common.Stack:
    """Return the Procfile's workers (the hooks process where there is one) and web,
    mail to ``sink_url``, loopback hooks allowed, 22 hooks per account."""
    stack = common.Stack(folder, database_url, broker_url)
    stack.env.update(
        SMTP_URL=sink_url,
        WEBHOOK_ALLOWED_NETWORKS="127.0.0.0/8",
        WEBHOOK_ALLOW_HTTP="1",
        WEBHOOKS_PER_ACCOUNT="22",
        MAIL_DOMAIN="bench.test",
    )
    return stack


if __name__ == "__main__":
    report = common.Report("webhook_isolation")
    print(f"webhook_isolation ({common.machine()})")
    common.run_on_backends(report, run)
