"""Faults survived on purpose (issue 16): the service's real processes (uvicorn web, the
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

import itertools
import threading
import time
import uuid
from collections import Counter

import pytest

from tests.e2e.faults import (
    SOAK,
    Driver,
    Stack,
    arrivals,
    check,
    events_of,
    passed_over,
    roll_delays,
    settle_mail,
    timeout_lateness,
    unsent_ids,
)
from tests.servers import PrivatePostgres, PrivateRedis
from tests.smtp_server import BreakableSmtp

GAMES = 10 if SOAK else 3
OPTIONS = {} if SOAK else {"sheet": "small"}
MOVES_BEFORE_FAULT = 2 * GAMES
"""A fault starts once this many moves were made (each game ~20 moves on the small
sheet), not after a fixed time: on a quiet machine three games end within 5 s."""

pytestmark = [pytest.mark.faults, pytest.mark.xdist_group("faults")]
"""One xdist worker runs them all, in order, on the module's own servers."""


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


KOMBU_RESTORE_RACE = (
    "Unrecoverable error: AttributeError(\"'NoneType' object has no attribute 'hostname'\")"
)
"""What kombu 5.7's Redis transport logs when a worker exits on the race it has when the
broker's connection drops while it restores unacknowledged messages (its channel's
connection is gone before ``restore_unacked`` asks it for its host): seen once in about
seven runs of the Redis fault; a process manager restarts the worker (README, Faults)."""


def finish(
    stack: Stack, driver: Driver, smtp, seconds: float = 300, tolerated: tuple[str, ...] = ()
) -> None:
    """Wait for every game to end and the mail to settle, then assert the checks and
    that no process exited by itself, except processes in ``tolerated`` whose log
    shows kombu's restore race (:data:`KOMBU_RESTORE_RACE`) once for each exit."""
    assert driver.wait(seconds), "some games did not finish"
    # a game's last mails may be written a moment after its end is seen (and the
    # mailer may be backing off): a mail still on its way is checked again, for up to
    # two minutes; a mail received twice stays a problem however long one waits
    deadline = time.monotonic() + 120
    while True:
        settle_mail(stack, game_ids=driver.ids)
        outcome = check(stack, driver, smtp.inbox)
        on_the_way = [p for p in outcome.problems if "not sent" in p or "never received" in p]
        if not on_the_way or time.monotonic() > deadline:
            break
        time.sleep(2)
    assert outcome.problems == [], outcome.problems
    assert outcome.games == driver.games and outcome.mails > 0
    assert driver.bad_answers() == [], driver.bad_answers()[:5]
    races = Counter({name: stack.log(name).count(KOMBU_RESTORE_RACE) for name in tolerated})
    crashes = Counter(name for name, _, _ in stack.crashes)
    assert all(crashes[name] <= races[name] for name in crashes), stack.crashes
    return outcome


def test_postgres_stopped_for_30_seconds_then_started(world, servers):
    """Given PostgreSQL stopped for 30 s mid-game, every answer meanwhile is a 503
    problem+json with Retry-After (no 500, no hang, no HTML); once it is back, the
    games resume without restarting any process, and nothing is lost or doubled."""
    pg, _ = servers
    stack, smtp = world()
    driver = Driver(stack.url, GAMES, options=OPTIONS, agree=stack.agree)
    driver.create()
    driver.start()
    assert driver.wait_moves(MOVES_BEFORE_FAULT) == GAMES, "the games ended before the fault"
    down = time.time()
    pg.stop()
    time.sleep(30)
    starting = time.time()
    pg.start()
    up = time.time()
    outcome = finish(stack, driver, smtp)
    during = driver.during(down + 1, starting)
    dropped = [
        a for a in driver.answers if down <= a.at <= starting and not isinstance(a.status, int)
    ]
    answered = {s for s in during if isinstance(s, int)}
    assert answered == {503} and during[503] > 0, during
    # a connection the client saw closed without an answer (seen once in ~6 runs,
    # a keep-alive race of the HTTP client) is no server answer; a web worker that
    # died would be, and is refused here
    assert len(dropped) <= max(1, during[503] // 100), dropped
    assert "died" not in stack.log("web")
    recovery = driver.first_success_after(up)
    assert recovery is not None and recovery < 10
    assert stack.alive() and all(n == 1 for n in stack.starts.values())
    report(
        "postgres down 30 s",
        during=dict(during),
        recovery_s=round(recovery, 2),
        dropped=[a.media for a in dropped],
        events=outcome.events,
        mails=outcome.mails,
    )


def start_games(stack: Stack, **kwargs) -> Driver:
    """Create the scenario's games and start playing them."""
    kwargs.setdefault("options", OPTIONS)
    driver = Driver(stack.url, kwargs.pop("games", GAMES), agree=stack.agree, **kwargs)
    driver.create()
    driver.start()
    return driver


@pytest.mark.soak  # make test runs two of the six faults (fifteen minutes); make soak all six
def test_redis_stopped_then_started(world, servers):
    """Given Redis stopped mid-game (10 s; a minute under soak), clients keep getting
    answers meanwhile (no 5xx, no hang); after it is back, the rolls and mails that
    were never queued catch up through the sweeps, and nothing is lost or doubled.
    The workers and beat reconnect by themselves (the Procfile's workers run without
    gossip and mingle, whose broadcast channels are what a reconnecting worker failed
    on; see the README's Faults); the one exit allowed is kombu's restore race
    (:data:`KOMBU_RESTORE_RACE`), restarted as a process manager would, and even then
    nothing is lost or doubled."""
    _, redis_server = servers
    stack, smtp = world()
    driver = start_games(stack)
    assert driver.wait_moves(MOVES_BEFORE_FAULT) == GAMES, "the games ended before the fault"
    down = time.time()
    redis_server.stop()
    time.sleep(60 if SOAK else 10)
    starting = time.time()
    redis_server.start()
    up = time.time()
    outcome = finish(stack, driver, smtp, tolerated=("worker", "mailer", "hooks"))
    during = driver.during(down + 1, starting)
    assert during and all(isinstance(s, int) and s < 500 for s in during), during
    restarts = Counter(name for name, _, _ in stack.crashes)
    assert all(p.poll() is None for p in stack.procs.values()), stack.starts
    assert all(n == 1 + restarts[name] for name, n in stack.starts.items()), stack.starts
    for name in ("worker", "mailer", "hooks"):
        log = stack.log(name)
        assert log.count("Unrecoverable error") == log.count(KOMBU_RESTORE_RACE), log[-3000:]
    slowest = max(a.seconds for a in driver.answers if down <= a.at <= starting)
    rolls = [at for _, _, _, _, _, at in events_of(stack, driver.ids, "chance") if at > up]
    mails = [at for at in smtp.inbox.times if at > up]
    assert rolls and mails, "the workers did not resume after Redis came back"
    report(
        "redis down",
        seconds=round(starting - down),
        during=dict(during),
        slowest_answer_s=round(slowest, 2),
        first_roll_after_s=round(min(rolls) - up, 1) if rolls else None,
        first_mail_after_s=round(min(mails) - up, 1) if mails else None,
        events=outcome.events,
        mails=outcome.mails,
    )


@pytest.mark.soak  # make test runs two of the six faults (fifteen minutes); make soak all six
def test_smtp_down_for_minutes_then_up_sends_waiting_mail_within_a_minute(world):
    """Given the SMTP server down (36 s, past the back-off's cap; 3 minutes under
    soak), the games go on; once it is back, every mail that waited goes out within
    a minute (the back-off starts at 5 s and is capped at 40 s), each exactly once."""
    stack, smtp = world()
    driver = start_games(stack)
    assert driver.wait_moves(MOVES_BEFORE_FAULT) == GAMES, "the games ended before the fault"
    smtp.stop()
    down = time.time()
    time.sleep(180 if SOAK else 36)
    waiting = unsent_ids(stack)
    smtp.start()
    up = time.time()
    outcome = finish(stack, driver, smtp)
    arrived, passed = arrivals(smtp.inbox), passed_over(stack)
    assert all(i in arrived or i in passed for i, _ in waiting)
    delays = [arrived[i] - max(up, created) for i, created in waiting if i in arrived]
    assert delays and max(delays) < 60, (len(waiting), len(passed), max(delays))
    report(
        "smtp down",
        seconds=round(up - down),
        waiting_mails=len(waiting),
        last_waiting_mail_after_s=round(max(delays), 1),
        answers_during=dict(driver.during(down, up)),
        mails=outcome.mails,
    )


@pytest.mark.soak  # make test runs two of the six faults (fifteen minutes); make soak all six
def test_a_slow_smtp_server_never_delays_dice_timeouts_or_answers(world):
    """Given an SMTP server taking 2 s per mail for the first 10 s (mail piles up
    behind it), rolls and timeouts are not delayed (their workers do not send mail)
    and answers stay quick; afterwards every mail goes out once."""
    stack, smtp = world()
    smtp.data_delay = 2.0
    driver = start_games(stack)
    clocked = start_games(stack, games=2, clock={"type": "per-move", "seconds": 3}, sleepers=(1,))
    time.sleep(10)
    backlog = len(unsent_ids(stack))
    smtp.data_delay = 0.0
    finish(stack, driver, smtp)
    finish(stack, clocked, smtp)
    rolls = roll_delays(stack, driver.ids + clocked.ids)
    late = timeout_lateness(stack, clocked.ids)
    moves = sorted(a.seconds for a in driver.answers if a.what == "move")
    assert backlog > 5  # mail really was waiting behind the slow server
    assert max(rolls) < 10 and late and max(late) < 10, (max(rolls), late)
    report(
        "slow smtp (2 s per mail)",
        mail_backlog=backlog,
        roll_delay_max_s=round(max(rolls), 2),
        roll_delay_median_s=round(sorted(rolls)[len(rolls) // 2], 2),
        timeout_late_max_s=round(max(late), 2),
        move_p95_s=round(moves[int(len(moves) * 0.95)], 2),
    )


def test_workers_killed_mid_roll_and_mid_send_then_restarted(world):
    """Given the dice worker SIGKILLed just after moves that lead to a roll, and the
    mail worker SIGKILLed while the SMTP server holds a mail's data (before it
    accepted it), each started again: every roll and every mail still happens, once."""
    stack, smtp = world(MAIL_CLAIM_SECONDS="10")
    smtp.data_delay = 0.3
    kills = {"worker": 0, "mailer": 0}
    datas = itertools.count(1)

    def kill_mailer_mid_send(envelope):
        # the 3rd and 7th mails to reach DATA: early enough that the mail a game still
        # sends (turn mails whose turn is over are not sent) reach them
        if next(datas) in (3, 7):
            kills["mailer"] += 1
            stack.kill("mailer")
            threading.Timer(1.0, stack.start, args=("mailer",)).start()

    smtp.on_data = kill_mailer_mid_send
    # the default sheet (~33 moves a game), two games more than the other faults' and a
    # slower player: fewer, the small sheet's or quicker ones could end within the 4 s
    # after the first kill on a quiet machine (a move's few milliseconds are no pace)
    driver = start_games(stack, options={}, games=GAMES + 2, think=0.25)
    deadline = time.monotonic() + 60
    seen = 0
    while (
        time.monotonic() < deadline
        and kills["worker"] < 3
        and any(t.is_alive() for t in driver.threads)
    ):
        time.sleep(0.05)
        if len(driver.moved) > seen + 5:  # fast moves: the games may end soon after a kill
            seen = len(driver.moved)
            time.sleep(0.03)
            stack.kill("worker")
            kills["worker"] += 1
            stack.start("worker")
            time.sleep(4)
    outcome = finish(stack, driver, smtp)
    rolls = roll_delays(stack, driver.ids)
    assert kills["worker"] >= 2 and kills["mailer"] >= 1, kills
    report(
        "workers killed",
        kills=kills,
        roll_delay_max_s=round(max(rolls), 1),
        events=outcome.events,
        mails=outcome.mails,
    )


@pytest.mark.soak  # make test runs two of the six faults (fifteen minutes); make soak all six
def test_beat_killed_around_deadlines_then_restarted(world):
    """Given clocked games whose seat 1 never moves (3 s per move, a reminder 2 s
    before), beat SIGKILLed for 3 s (shorter than the 5 s outage threshold: deadlines
    enforced late) and later for 8 s (an outage: deadlines extended, and reminded
    again for the new deadline), each deadline is enforced exactly once."""
    stack, smtp = world(CLOCK_OUTAGE_SECONDS="5")
    driver = start_games(
        stack, clock={"type": "per-move", "seconds": 3, "reminders": [2]}, sleepers=(1,)
    )
    gaps = []
    for pause, off in ((4, 3), (3, 8)):
        time.sleep(pause)
        stack.kill("beat")
        started = time.time()
        time.sleep(off)
        stack.start("beat")
        gaps.append((started, time.time()))
    outcome = finish(stack, driver, smtp)
    extended = events_of(stack, driver.ids, "deadline-extended")
    assert extended, "the 8 s stop of beat was no outage"
    reminders = reminder_times(stack)
    for game_id, _, _, _, _payload, at in extended:
        assert any(g == game_id and t >= at for g, t in reminders), game_id
    late = timeout_lateness(stack, driver.ids)
    report(
        "beat killed",
        stops=[round(b - a, 1) for a, b in gaps],
        timeouts=outcome.timeouts,
        extensions=len(extended),
        timeout_late_max_s=round(max(late), 1),
        reminders=len(reminders),
    )


def reminder_times(stack: Stack) -> list[tuple[str, float]]:
    """Return ``(game_id, written at)`` of every reminder mail in the outbox."""
    import sqlalchemy as sa

    from arbiter.extensions import db
    from arbiter.models import OutboxMail

    with stack.app.app_context():
        rows = [
            (m.game_id, m.created_at.timestamp())
            for m in db.session.scalars(
                sa.select(OutboxMail).where(OutboxMail.dedupe_key.like("remind:%"))
            )
        ]
        db.session.remove()
    return rows
