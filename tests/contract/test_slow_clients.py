"""Slow, idle and proxied clients against the Procfile's real web process (issue 22,
items 1, 6 and 8): no client holds a Flask thread while its body trickles in, a head
or body that does not arrive in time is refused and its connection closed, one
address holds a bounded number of unfinished connections, a refusal leaves the
connection ready for the next request, and ``X-Forwarded-For`` counts only from a
configured proxy."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from tests import processes
from tests import slow_clients as slow
from tests.conftest import free_port

pytestmark = pytest.mark.xdist_group("slow-clients")
"""Its servers are module-wide: one xdist worker runs the module."""

SHORT = {
    "HEAD_TIMEOUT_SECONDS": "2",
    "BODY_TIMEOUT_SECONDS": "3",
    "BODY_MIN_RATE": "1024",
    "BODY_MAX_SECONDS": "6",
    "RATELIMIT_ENABLED": "1",
    "RATELIMIT_SIGN_IN_CLIENT": "1 per hour",
}
"""Deadlines a few seconds long, so that the tests see them pass; one sign-in link per
client address, so that a shared bucket shows."""


def web(tmp_path_factory, workers: int = 2, **settings: str):
    """Start the Procfile's web process (no Celery workers; ``workers`` processes)
    with ``settings``; return its port and processes."""
    folder = tmp_path_factory.mktemp("web")
    port = free_port()
    env = processes.service_env(folder, port, **{**SHORT, **settings})
    subprocess.run(
        [processes.BIN / "arbiter", "db-upgrade"], env=env, check=True, capture_output=True
    )
    argv = processes.web_command(port, env)
    argv[argv.index("--workers") + 1] = str(workers)
    procs = processes.start({"web": argv}, env, folder / "logs")
    try:
        processes.wait_until_up(f"http://127.0.0.1:{port}", procs)
    except RuntimeError:
        processes.stop(procs)
        raise
    return port, procs


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """Two web processes as in the Procfile, with short deadlines and a per-client
    cap no test reaches, no proxy trusted; yields its port."""
    port, procs = web(tmp_path_factory, CLIENT_MAX_PENDING="2000")
    yield port
    processes.stop(procs)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    """One web process (the caps are per process) behind a trusted proxy at
    127.0.0.1, with a cap of 4 unfinished connections per client address; yields its
    port."""
    port, procs = web(
        tmp_path_factory,
        workers=1,
        CLIENT_MAX_PENDING="4",
        HEAD_TIMEOUT_SECONDS="20",
        FORWARDED_ALLOW_IPS="127.0.0.1",
    )
    yield port
    processes.stop(procs)


def test_slow_bodies_hold_no_thread_and_are_refused_in_time(front):
    """150 bodies of 60 KB sent a byte a second (more than the two processes' 64
    Flask threads) stop nobody: an unrelated GET answers at once; each slow body gets
    408 ``body-too-slow`` once its time is up, and its connection is closed."""
    with slow.SlowClients(front, 150, slow.slow_body_head()) as clients:
        time.sleep(1.5)  # every body has started and is waiting for more
        status, seconds = slow.get(front, timeout=5)
        assert status == 200 and seconds < 2, (status, seconds)
        status, seconds = slow.get(front, "/games", timeout=5)
        assert status == 200 and seconds < 2, (status, seconds)
        assert clients.wait_all_ended(10), f"{clients.open_count()} slow bodies still held"
        assert clients.answers() == {408: 150}, clients.answers()
        assert clients.problem_codes() == {"body-too-slow"}


def test_slowloris_heads_are_closed_by_the_head_deadline(front):
    """300 heads that never end (a header byte a second) leave the service answering,
    and each is refused (408 ``head-too-slow``) and closed once HEAD_TIMEOUT_SECONDS
    (2 s here) have passed."""
    with slow.SlowClients(front, 300, slow.SLOWLORIS_HEAD) as clients:
        status, seconds = slow.get(front, timeout=5)
        assert status == 200 and seconds < 2, (status, seconds)
        assert clients.wait_all_ended(6), f"{clients.open_count()} heads still held"
        assert clients.answers() == {408: 300}, clients.answers()
        assert clients.problem_codes() == {"head-too-slow"}


def test_a_connection_that_sends_nothing_is_closed(front):
    with slow.connect(front) as sock:
        assert slow.closed_after(sock, 5), "an idle new connection is held"


def test_the_next_request_after_an_early_refusal_is_answered(front):
    """A 401 for a body that is still arriving: the rest of the body is not read as
    the next request (which once answered 414 ``uri-too-long``)."""
    game = json.loads(slow.get_body(front, "POST", "/v1/games", json.dumps(new_game()).encode())[2])
    body = b'{"move": "' + b"x" * 60_000 + b'"}'
    head = (
        f"POST /v1/games/{game['id']}/moves HTTP/1.1\r\nHost: t\r\n"
        "Authorization: Bearer wrong\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    with slow.connect(front) as sock:
        sock.sendall(head + body[:1000])
        time.sleep(0.5)  # the old server answered the 401 meanwhile
        sock.sendall(body[1000:] + b"GET /v1/engines HTTP/1.1\r\nHost: t\r\n\r\n")
        status, _, _, rest = slow.read_answer(sock)
        assert status == 401
        status, _, answer, _ = slow.read_answer(sock, rest)
        assert status == 200, answer
        assert "space-worm" in answer.decode()


def new_game() -> dict:
    """Return the body of a two-player Space Worm game without emails."""
    players = [{"name": "Ann", "email": None}, {"name": "Bob", "email": None}]
    return {"engine": "space-worm", "options": {}, "players": players}


def sign_in_statuses(port: int, source: str, tag: str) -> list[int]:
    """Ask for 3 sign-in links (3 addresses) from ``source``, each request forwarded
    "for" another address; return the statuses."""
    statuses = []
    for i in range(3):
        body = json.dumps({"email": f"{tag}{i}@example.org"}).encode()
        forwarded = {"X-Forwarded-For": f"203.0.113.{i + 1}"}
        statuses.append(slow.get_body(port, "POST", "/v1/auth/links", body, source, forwarded)[0])
    return statuses


def test_x_forwarded_for_is_ignored_by_default(front):
    """No proxy trusted: the three requests share the peer's bucket of one link an
    hour (per web process: two processes, so at least one of three is refused)."""
    assert 429 in sign_in_statuses(front, "127.0.0.1", "default"), "X-Forwarded-For was trusted"


def test_x_forwarded_for_counts_from_a_trusted_proxy_only(proxied):
    assert sign_in_statuses(proxied, "127.0.0.1", "proxied") == [202, 202, 202]
    assert sign_in_statuses(proxied, "127.0.0.2", "direct") == [202, 429, 429]


def test_one_address_holds_few_unfinished_connections(proxied):
    """Past CLIENT_MAX_PENDING (4 here), once they have waited SLOW_AFTER_SECONDS (1),
    an address's oldest unfinished connections are closed (429
    ``too-many-connections`` to a head begun), and a new one closes the oldest, so
    one address cannot hold more, nor keep anyone out; the trusted proxy's
    connections are not counted."""
    with slow.SlowClients(proxied, 10, slow.SLOWLORIS_HEAD, sources=["127.0.0.2"]) as clients:
        time.sleep(1.5)  # past SLOW_AFTER_SECONDS: no longer a burst of new connections
        assert clients.answers() == {429: 6}, clients.answers()
        status, seconds = slow.get(proxied, source="127.0.0.2", timeout=5)
        assert status == 200 and seconds < 2, (status, seconds)
        time.sleep(0.2)
        assert clients.answers() == {429: 7}, clients.answers()
        assert clients.problem_codes() == {"too-many-connections"}
        assert clients.open_count() == 3
    with slow.SlowClients(proxied, 10, slow.SLOWLORIS_HEAD, sources=["127.0.0.1"]) as clients:
        time.sleep(1.5)
        assert slow.get(proxied, source="127.0.0.1", timeout=5)[0] == 200
        assert clients.open_count() == 10, clients.answers()
