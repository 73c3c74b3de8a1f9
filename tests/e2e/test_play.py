"""A real game on real parts: the Procfile's processes (uvicorn web, Celery workers, beat), mail to
a real SMTP server on loopback, played over HTTP only by ``arbiter play``.

Once on the embedded default (SQLite, filesystem broker) and once on PostgreSQL +
Redis, each time a game of every engine at once on one running service. Checks: the game ends, the
scores match the engine's own replay (the record
verifies), every player got one turn mail per prompt and no duplicates, and the
game's end mailed everyone.
"""

from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

import engines
from arbiter.play import play
from tests.conftest import REDIS_URL, need

ENGINES_TO_PLAY = list(engines.ENGINE_MODULES)


@pytest.fixture
def stack(start_stack, smtp):
    """Start web, worker and beat with mail to the loopback SMTP server."""
    smtp_url, inbox = smtp
    return (lambda database_url, broker_url: start_stack(database_url, broker_url, smtp_url)), inbox


def sign_up_by_mail(url: str, inbox, email: str) -> str:
    """Sign ``email`` up as a player would: ask for a link, read it from the mail the
    SMTP server received, use it; return the personal token."""
    import re
    from urllib.parse import parse_qs, urlparse

    requests.post(f"{url}/v1/auth/links", json={"email": email}, timeout=10).raise_for_status()
    deadline = time.monotonic() + 60
    while not inbox.to(email) and time.monotonic() < deadline:
        time.sleep(0.2)
    mail = inbox.to(email)[-1]
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = re.search(r"\S+/v1/auth/confirm\?\S+", mail.get_content()).group(0)
    query = {k: v[0] for k, v in parse_qs(urlparse(link).query).items()}
    answer = requests.post(f"{url}/v1/auth/sessions", json=query, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]["token"]


def play_and_check(url: str, inbox, engine: str, players: int, tmp_path: Path) -> None:
    """Sign ``players`` addresses up, play one ``engine`` game out over HTTP and check its
    record and its mail: at most one turn mail per prompt, one end mail, no Message-ID
    twice."""
    emails = [f"seat{i}-{engine}@example.org" for i in range(players)]
    for email in emails:  # mail goes only to addresses that agreed: accounts
        sign_up_by_mail(url, inbox, email)
    lines: list[str] = []
    played = play(
        url,
        engine,
        players,
        seed=42,
        out_dir=tmp_path / "records" / engine,
        emails=emails,
        echo=lines.append,
        timeout=300,
    )
    assert played.verdict.ok, played.verdict.mismatch
    assert played.record["result"]["scores"] is not None
    assert any(line.startswith("record: ") and "verified" in line for line in lines)
    prompts = Counter()
    for event in played.record["events"]:
        if event["kind"] == "move":
            prompts[event["seat"]] += 1
    # a script moves without waiting for its turn mail: a mail whose turn was over
    # before it could go is passed over (tests/e2e/test_faults.py accounts for each)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and any(
        sum("is over" in m["Subject"] for m in inbox.to(a)) < 1 for a in emails
    ):
        time.sleep(0.2)
    time.sleep(1)  # a duplicate would arrive now
    for seat, address in enumerate(emails):
        got = inbox.to(address)
        turns = [m for m in got if str(m["Subject"]).startswith("[Arbiter] Your turn")]
        assert len(turns) <= prompts[seat], (address, len(turns), prompts[seat])
        assert len({m["Reply-To"] for m in turns}) == len(turns)  # one mail a prompt
        assert len({m["Message-ID"] for m in got}) == len(got)
        assert sum("is over" in m["Subject"] for m in got) == 1
        assert len(got) == len(turns) + 2, [str(m["Subject"]) for m in got]  # + sign-in, end
        assert all(m["List-Unsubscribe"].startswith("<http") for m in got)


def check_every_engine(url: str, inbox, tmp_path: Path) -> None:
    """Play a 3-player game of every engine at once on one running service (as its users
    would: several games in flight) and fail with every engine whose game went wrong."""
    with ThreadPoolExecutor(max_workers=len(ENGINES_TO_PLAY)) as pool:
        futures = {
            engine: pool.submit(play_and_check, url, inbox, engine, 3, tmp_path)
            for engine in ENGINES_TO_PLAY
        }
    failed = {engine: repr(f.exception()) for engine, f in futures.items() if f.exception()}
    assert not failed, failed


@pytest.mark.soak  # make test runs the other backend; make soak both
def test_every_engine_on_the_embedded_default(stack, tmp_path):
    """Given SQLite and the filesystem broker, a 3-player game of each engine plays out."""
    start, inbox = stack
    url = start(None, None)
    check_every_engine(url, inbox, tmp_path)


def test_every_engine_on_postgres_and_redis(stack, tmp_path, postgres_url):
    """Given PostgreSQL and Redis, a 3-player game of each engine plays out."""
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    start, inbox = stack
    url = start(postgres_url, broker)
    check_every_engine(url, inbox, tmp_path)
