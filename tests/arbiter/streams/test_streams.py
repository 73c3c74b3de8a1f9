"""Event streams and the long-poll on the real web process (uvicorn serving
:mod:`arbiter.streams.asgi`), on the embedded default (SQLite, in-process notices and
the poll) and on PostgreSQL + Redis pub/sub. The test process writes to the same
database as another process would (the worker rolling dice), so notices cross
processes as in production.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from urllib.parse import parse_qs, urlparse

import pytest
import requests
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games.chance import advance_chance
from arbiter.models import OutboxMail
from arbiter.settings import environment
from arbiter.streams import wire
from tests import processes
from tests.conftest import REDIS_URL, free_port, make_app, need
from tests.helpers import sign_in

pytestmark = pytest.mark.xdist_group("streams")
"""Its servers are module-wide: one xdist worker runs the module."""

TIMEOUT = 20


class SSE:
    """A Server-Sent Events client over ``requests`` (one message per :meth:`next`)."""

    def __init__(self, url: str, headers: dict | None = None) -> None:
        self.response = requests.get(url, headers=headers or {}, stream=True, timeout=(5, TIMEOUT))
        self.lines = self.response.iter_lines(chunk_size=None, decode_unicode=True)
        self.comments = 0

    def next(self) -> dict:
        """Return the next message as ``{"id", "event", "data", "retry"}``."""
        message: dict = {}
        for line in self.lines:
            if line == "":
                if "data" in message:
                    message["data"] = json.loads(message["data"])
                    return message
                continue
            if line.startswith(":"):
                self.comments += 1
                continue
            field, _, value = line.partition(":")
            message[field] = value.removeprefix(" ")
        raise EOFError("the stream ended")

    def events(self, count: int) -> list[dict]:
        """Return the next ``count`` event messages."""
        return [self.next() for _ in range(count)]

    def close(self) -> None:
        self.response.close()


@pytest.fixture(scope="module", params=["embedded", "postgres-redis"])
def server(request, tmp_path_factory):
    """The web process (uvicorn, 1 worker, 2 Flask threads) and an app on the same
    database for the test's own writes: ``(url, app)``; one per module and backend.

    On PostgreSQL + Redis it speaks the Procfile's HTTP protocol, whose direct writer
    the game streams use (:class:`arbiter.serve.DirectWriter`); on the embedded
    default uvicorn's own protocol (no direct writer), so game streams go through their
    queues and the ASGI ``send``: both ways of feeding a reader are served for real."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    sqlite_url = f"sqlite:///{tmp_path / 'arbiter.sqlite3'}"
    env = {
        **os.environ,
        "ARBITER_INSTANCE_PATH": str(tmp_path / "instance"),
        "WEB_THREADS": "2",
        "STREAM_POLL_SECONDS": "0.2",
        "STREAM_KEEPALIVE_SECONDS": "1",
        "METRICS_TOKEN": "scrape-me",
        "STREAM_REVOKE_CHECK_SECONDS": "600",
    }  # revocations must come as notices
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env.pop("CELERY_BROKER_URL", None)
    if request.param == "embedded":
        db_url, config, http = sqlite_url, {"STREAM_REDIS_URL": ""}, []
    else:
        db_url = request.getfixturevalue("postgres_url")
        redis_url = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
        channel = f"t{uuid.uuid4().hex[:8]}"
        env.update(
            STREAM_REDIS_URL=redis_url, STREAM_CHANNEL=channel, STREAM_POLL_SECONDS="30"
        )  # delivery must come through Redis
        config = {"STREAM_REDIS_URL": redis_url, "STREAM_CHANNEL": channel}
        http = ["--http", "arbiter.serve:ProblemHttpToolsProtocol"]
    env["DATABASE_URL"] = db_url
    env = environment(env)  # the stream settings go in ARBITER_OVERRIDES
    app = make_app(db_url, **config)
    env["SECRET_KEY"] = app.config["SECRET_KEY"]  # marks the test signs, the server reads
    port = free_port()
    procs = processes.start(
        {
            "web": [
                processes.BIN / "uvicorn",
                "--factory",
                "arbiter.streams.asgi:create_app",
                "--port",
                str(port),
                *http,
            ]
        },
        env,
        tmp_path / "logs",
    )
    request.addfinalizer(lambda: processes.stop(procs, 5))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # uvicorn starts slowly on a loaded 2-core machine
    while True:
        try:
            if requests.get(f"{url}/v1/engines", timeout=5).ok:
                break
        except requests.RequestException:
            time.sleep(0.2)
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            pytest.fail((tmp_path / "logs" / "web.log").read_text())
    yield url, app
    with app.app_context():
        db.engine.dispose()


def new_game(url: str, engine: str = "dark-horse") -> dict:
    """Create a two-seat game through the API; return the creation answer."""
    answer = requests.post(
        f"{url}/v1/games",
        json={"engine": engine, "players": [{"name": "Ann"}, {"name": "Bob"}]},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def roll(app, game: dict, version: int) -> None:
    """Roll the game's pending chance from this process (as the worker would)."""
    with app.app_context():
        advance_chance(game["id"], version)


def test_stream_sends_backlog_then_live_events_exactly_once(server):
    """The backlog, then each committed event once, in seq order without gaps, each
    with ``seq`` (also the SSE id) and the game's ``version``."""
    url, app = server
    game = new_game(url)
    stream = SSE(f"{url}/v1/games/{game['id']}/stream")
    backlog = stream.events(3)
    assert [m["data"]["seq"] for m in backlog] == [1, 2, 3]
    assert [m["id"] for m in backlog] == ["1", "2", "3"]
    assert backlog[0]["event"] == "game-created" and backlog[0]["data"]["version"] == 3
    roll(app, game, 3)
    version = requests.get(f"{url}/v1/games/{game['id']}", timeout=TIMEOUT).json()["version"]
    live = stream.events(version - 3)
    assert [m["data"]["seq"] for m in live] == list(range(4, version + 1))
    assert all(m["data"]["version"] >= m["data"]["seq"] for m in live)
    assert live[-1]["data"]["version"] == version
    stream.close()


def test_last_event_id_resumes_with_every_missed_event_once(server):
    """A reader that reconnects with ``Last-Event-ID: N`` gets exactly the events after
    N: those written while it was away, none twice, none missing."""
    url, app = server
    game = new_game(url)
    first = SSE(f"{url}/v1/games/{game['id']}/stream")
    seen = first.events(2)
    first.close()
    roll(app, game, 3)
    version = requests.get(f"{url}/v1/games/{game['id']}", timeout=TIMEOUT).json()["version"]
    again = SSE(f"{url}/v1/games/{game['id']}/stream", {"Last-Event-ID": seen[-1]["id"]})
    resumed = again.events(version - 2)
    assert [m["data"]["seq"] for m in resumed] == list(range(3, version + 1))
    again.close()


def test_stream_is_filtered_per_reader(server):
    """Hidden payloads (Dark Horse's deal) reach only the seat entitled to them, as
    ``/events`` shows them; a spectator's stream carries ``{"hidden": true}``."""
    url, app = server
    game = new_game(url)
    roll(app, game, 3)
    version = requests.get(f"{url}/v1/games/{game['id']}", timeout=TIMEOUT).json()["version"]
    token = game["seats"][0]["token"]
    for headers in ({}, {"Authorization": f"Bearer {token}"}):
        stream = SSE(f"{url}/v1/games/{game['id']}/stream", headers)
        streamed = [m["data"] for m in stream.events(version)]
        stream.close()
        listed = requests.get(
            f"{url}/v1/games/{game['id']}/events", headers=headers, timeout=TIMEOUT
        ).json()["events"]
        assert [{k: v for k, v in e.items() if k != "version"} for e in streamed] == listed
    spectator = requests.get(f"{url}/v1/games/{game['id']}/events", timeout=TIMEOUT).json()
    assert any(e["payload"].get("hidden") for e in spectator["events"])  # something to hide


def test_stream_refuses_bad_token_and_bad_last_event_id(server):
    """Problems before the stream starts: 401 for a token of no seat, 400 for a
    Last-Event-ID or an ``after`` that is not a seq (the sentence names the one sent),
    404 for no such game; all problem+json."""
    url, _app = server
    game = new_game(url)
    base = f"{url}/v1/games/{game['id']}/stream"
    cases = [
        (base, {"Authorization": "Bearer nope"}, 401, "bad-token"),
        (base, {"Last-Event-ID": "x"}, 400, "bad-last-event-id"),
        (f"{base}?after=-5", {}, 400, "bad-last-event-id"),
        (f"{url}/v1/games/nosuch/stream", {}, 404, "game-not-found"),
    ]
    for address, headers, status, code in cases:
        answer = requests.get(address, headers=headers, timeout=TIMEOUT)
        assert answer.status_code == status
        assert answer.headers["Content-Type"] == "application/problem+json"
        assert answer.json()["code"] == code
    by_header = requests.get(base, headers={"Last-Event-ID": "x"}, timeout=TIMEOUT).json()
    assert by_header["detail"].startswith("Last-Event-ID must be the seq")
    by_query = requests.get(f"{base}?after=-5", timeout=TIMEOUT).json()
    assert by_query["detail"].startswith("The after parameter must be the seq")
    assert "-5" in by_query["detail"] and "Last-Event-ID" not in by_query["detail"]


def test_the_flask_stream_names_the_after_parameter_it_refuses(client):
    """Without the event loop, ``?after=-5`` is 400 bad-last-event-id naming ``after``."""
    game = client.post(
        "/v1/games", json={"engine": "space-worm", "players": [{"name": "A"}, {"name": "B"}]}
    ).json
    answer = client.get(f"/v1/games/{game['id']}/stream?after=-5")
    assert answer.status_code == 400 and answer.json["code"] == "bad-last-event-id"
    assert answer.json["detail"].startswith("The after parameter must be the seq")


def test_idle_streams_and_long_polls_hold_no_thread(server):
    """With 2 Flask threads, 30 open streams and 30 waiting long-polls leave the API
    answering; a move then reaches every long-poll and every stream."""
    url, app = server
    game = new_game(url)
    streams = [
        SSE(f"{url}/v1/games/{game['id']}/stream", {"Last-Event-ID": "3"}) for _ in range(30)
    ]
    answers: list = []

    def poll() -> None:
        answers.append(
            requests.get(
                f"{url}/v1/games/{game['id']}/events", params={"after": 3, "wait": 25}, timeout=60
            )
        )

    polls = [threading.Thread(target=poll) for _ in range(30)]
    for thread in polls:
        thread.start()
    time.sleep(0.5)
    assert requests.get(f"{url}/v1/engines", timeout=10).status_code == 200
    assert not answers  # the long-polls are all still waiting
    roll(app, game, 3)
    for thread in polls:
        thread.join(timeout=30)
    assert len(answers) == 30
    assert all(a.status_code == 200 and a.json()["events"][0]["seq"] == 4 for a in answers)
    assert all(s.next()["data"]["seq"] == 4 for s in streams)
    for stream in streams:
        stream.close()


def test_long_poll_answers_problems_and_immediate_events_as_flask_does(server):
    """A long-poll with news answers at once; bad queries are Flask's problems."""
    url, _app = server
    game = new_game(url)
    now = requests.get(
        f"{url}/v1/games/{game['id']}/events", params={"after": 0, "wait": 20}, timeout=5
    )
    assert [e["seq"] for e in now.json()["events"]] == [1, 2, 3]
    bad = requests.get(f"{url}/v1/games/{game['id']}/events", params={"wait": 99}, timeout=5)
    assert bad.status_code == 422
    missing = requests.get(f"{url}/v1/games/nosuch/events", params={"wait": 5}, timeout=5)
    assert missing.status_code == 404


@pytest.mark.slow  # waits 2.5 s; make check has the hub's ticker (test_stream_hub.py)
def test_idle_stream_gets_keep_alives(server):
    """An idle stream gets a keep-alive comment every STREAM_KEEPALIVE_SECONDS."""
    url, app = server
    game = new_game(url)
    stream = SSE(f"{url}/v1/games/{game['id']}/stream", {"Last-Event-ID": "3"})
    threading.Timer(2.5, roll, (app, game, 3)).start()
    assert stream.next()["data"]["seq"] == 4
    assert stream.comments >= 2
    stream.close()


def test_open_streams_are_counted_in_metrics(server):
    """``arbiter_open_streams`` counts the streams open in the web process (through
    prometheus-client's multiprocess folder, as with several workers)."""
    url, _app = server
    game = new_game(url)

    def open_now() -> float:
        text = requests.get(
            f"{url}/metrics", headers={"Authorization": "Bearer scrape-me"}, timeout=TIMEOUT
        ).text
        return sum(
            float(line.split()[-1])
            for line in text.splitlines()
            if line.startswith("arbiter_open_streams")
        )

    before = open_now()
    streams = [SSE(f"{url}/v1/games/{game['id']}/stream") for _ in range(3)]
    for stream in streams:
        stream.events(3)
    assert open_now() == before + 3
    for stream in streams:
        stream.close()


def test_me_stream_follows_every_game_of_the_account(server):
    """``/v1/me/stream`` (personal token): one ndjson line per new event of each game
    where the account holds a seat, with ``game``, ``seq`` and ``version``, as that seat
    may see it; empty lines keep it alive; a game token or no token is refused."""
    url, app = server
    email = f"ann-{uuid.uuid4().hex[:8]}@example.org"  # the PostgreSQL schema is shared
    token = sign_in(app.test_client(), app, email, "Ann")
    made = []
    for engine in ("dark-horse", "space-worm"):
        answer = requests.post(
            f"{url}/v1/games",
            timeout=TIMEOUT,
            json={"engine": engine, "players": [{"name": "Ann", "email": email}, {"name": "Bob"}]},
        )
        made.append(answer.json())
    assert requests.get(f"{url}/v1/me/stream", timeout=TIMEOUT).status_code == 401
    seat_token = made[0]["seats"][0]["token"]
    assert (
        requests.get(
            f"{url}/v1/me/stream",
            timeout=TIMEOUT,
            headers={"Authorization": f"Bearer {seat_token}"},
        ).status_code
        == 401
    )
    stream = requests.get(
        f"{url}/v1/me/stream",
        headers={"Authorization": f"Bearer {token}"},
        stream=True,
        timeout=(5, TIMEOUT),
    )
    assert stream.headers["Content-Type"] == "application/x-ndjson"
    lines = stream.iter_lines(chunk_size=None)
    for game in made:
        roll(app, game, 3)
    got: dict[str, list[int]] = {g["id"]: [] for g in made}
    blank = 0
    deadline = time.monotonic() + TIMEOUT
    while not all(len(v) >= 2 for v in got.values()) and time.monotonic() < deadline:
        line = next(lines)
        if not line:
            blank += 1
            continue
        event = json.loads(line)
        assert event["version"] >= event["seq"]
        got[event["game"]].append(event["seq"])
    stream.close()
    assert all(seqs[:2] == [4, 5] for seqs in got.values()), got
    assert blank >= 1


def test_me_stream_cursor_resumes_with_every_missed_event_once(server):
    """Each ``/v1/me/stream`` line carries a ``cursor``; a reader that reconnects with
    the cursor of the last line it read (as ``Last-Event-ID``) gets first every event
    written in any of its games while it was away (and those it was sent but never
    read), then the live ones: none twice, none missing. A cursor no line carried is
    400 ``bad-cursor``."""
    url, app = server
    email = f"cy-{uuid.uuid4().hex[:8]}@example.org"  # the PostgreSQL schema is shared
    token = sign_in(app.test_client(), app, email, "Cy")
    headers = {"Authorization": f"Bearer {token}"}
    made = [
        requests.post(
            f"{url}/v1/games",
            timeout=TIMEOUT,
            json={
                "engine": "dark-horse",
                "players": [{"name": "Cy", "email": email}, {"name": "Bob"}],
            },
        ).json()
        for _ in range(2)
    ]
    ids = [g["id"] for g in made]
    got: dict[str, list[int]] = {g: [] for g in ids}

    def read(response, until) -> str:
        """Read lines into ``got`` until ``until()``; return the last cursor."""
        cursor, lines = None, response.iter_lines(chunk_size=None)
        deadline = time.monotonic() + TIMEOUT
        while not until() and time.monotonic() < deadline:
            line = next(lines)
            if line:
                event = json.loads(line)
                got[event["game"]].append(event["seq"])
                cursor = event["cursor"]
                assert wire.read_cursor(cursor)[event["game"]] == event["seq"]
        return cursor

    first = requests.get(f"{url}/v1/me/stream", headers=headers, stream=True, timeout=(5, TIMEOUT))
    roll(app, made[0], 3)  # live: a few events of the first game
    cursor = read(first, lambda: len(got[ids[0]]) >= 1)
    first.close()  # whatever else was on its way is missed
    roll(app, made[1], 3)  # while away: the second game's setup roll
    versions = {
        g: requests.get(f"{url}/v1/games/{g}", timeout=TIMEOUT).json()["version"] for g in ids
    }
    assert all(v > 3 for v in versions.values())
    again = requests.get(
        f"{url}/v1/me/stream",
        headers={**headers, "Last-Event-ID": cursor},
        stream=True,
        timeout=(5, TIMEOUT),
    )
    assert again.status_code == 200
    read(again, lambda: all(len(got[g]) >= versions[g] - 3 for g in ids))
    again.close()
    assert got == {g: list(range(4, versions[g] + 1)) for g in ids}
    refused = requests.get(
        f"{url}/v1/me/stream",
        timeout=TIMEOUT,
        headers={**headers, "Last-Event-ID": "1.not-a-cursor"},
    )
    assert refused.status_code == 400 and refused.json()["code"] == "bad-cursor"


def test_me_stream_without_the_event_loop_answers_the_missed_events_and_ends(app, client):
    """The Flask route alone (no ASGI front) answers a reconnecting reader the events
    after its cursor, each with its cursor, and ends."""
    email = f"di-{uuid.uuid4().hex[:8]}@example.org"
    token = sign_in(client, app, email, "Di")
    headers = {"Authorization": f"Bearer {token}"}
    game = client.post(
        "/v1/games",
        json={"engine": "dark-horse", "players": [{"name": "Di", "email": email}, {"name": "Bob"}]},
    ).get_json()
    assert client.get("/v1/me/stream", headers=headers).data == b"\n"
    with app.app_context():
        advance_chance(game["id"], 3)
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    answer = client.get(
        "/v1/me/stream", headers={**headers, "Last-Event-ID": wire.cursor({game["id"]: 3})}
    )
    lines = [json.loads(line) for line in answer.data.splitlines() if line]
    assert [e["seq"] for e in lines] == list(range(4, version + 1))
    # the cursor holds the game's talk position too (issue 24: no message yet)
    assert wire.read_cursor(lines[-1]["cursor"]) == {game["id"]: version, f"talk:{game['id']}": 0}
    assert (
        client.get("/v1/me/stream?cursor=2.x", headers=headers).get_json()["code"] == "bad-cursor"
    )


def account_with_game(url: str, app) -> tuple[str, str, dict]:
    """An account (its personal token and that token's id) holding seat 0 of a new
    Dark Horse game: ``(token, token_id, game)``."""
    email = f"rev-{uuid.uuid4().hex[:8]}@example.org"
    token = sign_in(app.test_client(), app, email, "Ann")
    game = requests.post(
        f"{url}/v1/games",
        timeout=TIMEOUT,
        json={
            "engine": "dark-horse",
            "players": [{"name": "Ann", "email": email}, {"name": "Bob"}],
        },
    ).json()
    mine = requests.get(
        f"{url}/v1/me/tokens", headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT
    ).json()
    assert len(mine) == 1
    return token, mine[0]["id"], game


def ends_within(response, seconds: float) -> tuple[float, bytes]:
    """Read ``response`` until it ends; return how long that took after now (s) and
    the bytes read. Fails if it is still open after ``seconds``."""
    start = time.monotonic()
    box: list = []

    def read() -> None:
        try:
            for chunk in response.iter_content(chunk_size=None):
                box.append(chunk)
        except requests.RequestException as err:
            box.append(err)
        box.append(None)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still open after {seconds} s: {b''.join(box)!r}"
    got = b"".join(c for c in box if isinstance(c, bytes))
    return time.monotonic() - start, got


@pytest.mark.parametrize("how", ["revoke-token", "delete-account"])
def test_revoking_the_token_ends_every_stream_it_opened_at_once(server, how):
    """``DELETE /v1/me/tokens/{id}`` (or ``DELETE /v1/me``) ends, within a second or
    two, the ``/v1/me/stream`` and the game stream opened with that token (the game
    stream after an ``event: revoked`` message), by the revocation notice (the
    re-check is 600 s here); no later event reaches them; reconnecting is 401; a
    spectator's stream of the same game goes on."""
    url, app = server
    token, token_id, game = account_with_game(url, app)
    bearer = {"Authorization": f"Bearer {token}"}
    me = requests.get(f"{url}/v1/me/stream", headers=bearer, stream=True, timeout=(5, TIMEOUT))
    mine = requests.get(
        f"{url}/v1/games/{game['id']}/stream", headers=bearer, stream=True, timeout=(5, TIMEOUT)
    )
    spectator = SSE(f"{url}/v1/games/{game['id']}/stream", {"Last-Event-ID": "3"})
    assert me.status_code == 200 and mine.status_code == 200
    time.sleep(0.3)  # both joined their hub
    if how == "revoke-token":
        gone = requests.delete(f"{url}/v1/me/tokens/{token_id}", headers=bearer, timeout=TIMEOUT)
    else:
        gone = requests.delete(f"{url}/v1/me", headers=bearer, timeout=TIMEOUT)
    assert gone.status_code == 204, gone.text
    roll(app, game, 3)
    took_me, _ = ends_within(me, 3)
    took_game, text = ends_within(mine, 3)
    assert took_me < 2 and took_game < 2
    assert text.rstrip().endswith(
        b'"detail": "The token that opened this stream has been revoked."}'
    )
    assert b"event: revoked" in text and b"id: 4\n" not in text
    assert spectator.next()["data"]["seq"] == 4  # the others go on
    spectator.close()
    again = requests.get(f"{url}/v1/me/stream", headers=bearer, timeout=TIMEOUT)
    assert again.status_code == 401 and again.json()["code"] == "token-revoked"


def test_a_start_past_the_games_version_is_refused(server):
    """A ``Last-Event-ID`` or ``after`` past the game's version is 400 (the stream's
    ``bad-last-event-id``, ``/events``'s ``after-past-version``, long-poll or not),
    saying the version, instead of a reader that would skip the next events."""
    url, _app = server
    game = new_game(url)  # version 3
    base = f"{url}/v1/games/{game['id']}"
    cases = [
        (f"{base}/stream", {"Last-Event-ID": "8"}, "bad-last-event-id"),
        (f"{base}/stream?after=8", {}, "bad-last-event-id"),
        (f"{base}/events?after=8", {}, "after-past-version"),
        (f"{base}/events?after=8&wait=6", {}, "after-past-version"),
    ]
    for address, headers, code in cases:
        start = time.monotonic()
        answer = requests.get(address, headers=headers, timeout=TIMEOUT)
        assert time.monotonic() - start < 2, address
        assert answer.status_code == 400, (address, answer.text)
        assert answer.headers["Content-Type"] == "application/problem+json"
        problem = answer.json()
        assert problem["code"] == code and problem["version"] == 3
        assert problem["detail"] == "There is no event 8 yet: this game is at version 3."
    at_version = SSE(f"{base}/stream", {"Last-Event-ID": "3"})
    assert at_version.response.status_code == 200
    at_version.close()


def test_a_finished_game_answers_at_once_and_its_streams_end(server):
    """When the game is over: a stream open before the end gets the last events and
    ends; a reconnect after the last event is 204 (an EventSource stops), one before it
    gets the rest and ends; a long-poll with nothing after ``after`` answers at once."""
    url, app = server
    game = new_game(url, "space-worm")
    base = f"{url}/v1/games/{game['id']}"
    version = requests.get(base, timeout=TIMEOUT).json()["version"]
    live = SSE(f"{base}/stream", {"Last-Event-ID": str(version)})
    time.sleep(0.3)
    resigned = requests.post(
        f"{base}/resign",
        timeout=TIMEOUT,
        headers={"Authorization": f"Bearer {game['seats'][1]['token']}"},
    )
    assert resigned.status_code == 201 and resigned.json()["status"] == "over"
    final = requests.get(base, timeout=TIMEOUT).json()["version"]
    kinds = [m["event"] for m in live.events(final - version)]
    assert kinds[-2:] == ["game-over", "seed-revealed"]
    with pytest.raises(EOFError):
        live.next()  # the stream ended
    start = time.monotonic()
    done = requests.get(f"{base}/stream", headers={"Last-Event-ID": str(final)}, timeout=TIMEOUT)
    assert done.status_code == 204 and done.content == b""
    rest = requests.get(f"{base}/stream?after={final - 2}", timeout=TIMEOUT)
    assert rest.status_code == 200 and rest.text.count("id: ") == 2
    answer = requests.get(f"{base}/events", params={"after": final, "wait": 5}, timeout=TIMEOUT)
    assert answer.status_code == 200
    assert answer.json() == {"events": [], "version": final}
    assert time.monotonic() - start < 2


def test_a_cancelled_games_streams_end_as_a_finished_games_do(server):
    """Issue 22, item 15: a cancelled game (an invited player declined) kept its
    streams open and its long-polls waiting, though nothing more can come. Now a
    stream open before the cancellation gets ``game-cancelled`` and ends, a reconnect
    after it is 204, and a long-poll with nothing after ``after`` answers at once."""
    url, app = server
    client = app.test_client()
    tag = uuid.uuid4().hex[:8]
    host = sign_in(client, app, f"host-{tag}@example.org", "Host")
    stranger = f"stranger-{tag}@example.org"
    made = requests.post(
        f"{url}/v1/games",
        json={
            "engine": "space-worm",
            "players": [
                {"name": "Host", "email": f"host-{tag}@example.org"},
                {"name": "Stranger", "email": stranger},
            ],
        },
        headers={"Authorization": f"Bearer {host}"},
        timeout=TIMEOUT,
    )
    assert made.status_code == 201 and made.json()["status"] == "waiting", made.text
    base = f"{url}/v1/games/{made.json()['id']}"
    version = requests.get(base, timeout=TIMEOUT).json()["version"]
    live = SSE(f"{base}/stream", {"Last-Event-ID": str(version)})
    time.sleep(0.3)
    with app.app_context():
        mail = db.session.scalars(
            sa.select(OutboxMail).where(
                OutboxMail.to_addr == stranger, OutboxMail.dedupe_key.like("invite:%")
            )
        ).one()
    link = urlparse(next(w for w in mail.body.split() if "/v1/invitations/" in w))
    invitation = link.path.rsplit("/", 1)[1]
    declined = requests.post(
        f"{url}/v1/invitations/{invitation}/decline",
        json={"token": parse_qs(link.query)["token"][0]},
        timeout=TIMEOUT,
    )
    assert declined.status_code == 200, declined.text
    assert requests.get(base, timeout=TIMEOUT).json()["status"] == "cancelled"
    final = requests.get(base, timeout=TIMEOUT).json()["version"]
    kinds = [m["event"] for m in live.events(final - version)]
    assert kinds[-1] == "game-cancelled"
    assert stream_ends_within(live, 5)  # was: open (with keep-alives) until the client left
    start = time.monotonic()
    again = requests.get(f"{base}/stream", headers={"Last-Event-ID": str(final)}, timeout=TIMEOUT)
    assert again.status_code == 204 and again.content == b""
    answer = requests.get(f"{base}/events", params={"after": final, "wait": 5}, timeout=TIMEOUT)
    assert answer.status_code == 200 and answer.json() == {"events": [], "version": final}
    assert time.monotonic() - start < 2


def stream_ends_within(stream: SSE, seconds: float) -> bool:
    """True when ``stream`` ends within ``seconds`` without another event (else it is
    closed here)."""
    box: list[str] = []

    def read() -> None:
        try:
            stream.next()
            box.append("event")
        except EOFError:
            box.append("ended")
        except requests.RequestException:
            box.append("closed")

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        stream.close()
    return box == ["ended"]


def test_a_seat_reading_its_stream_is_present_until_it_leaves(server):
    """Issue 24, item 5: a seat with its game stream open is marked present (so its
    turns are not mailed), and the mark is cleared when the stream closes; a
    spectator's stream marks nobody."""
    from arbiter.games import presence  # noqa: PLC0415

    url, app = server
    game = new_game(url)
    token = game["seats"][1]["token"]
    spectator = SSE(f"{url}/v1/games/{game['id']}/stream")
    spectator.events(1)
    stream = SSE(f"{url}/v1/games/{game['id']}/stream", {"Authorization": f"Bearer {token}"})
    stream.events(1)

    def present() -> set[int]:
        with app.app_context():
            here = presence.present(game["id"])
            db.session.rollback()
            return here

    deadline = time.monotonic() + TIMEOUT
    while present() != {1} and time.monotonic() < deadline:
        time.sleep(0.1)
    assert present() == {1}
    stream.close()
    deadline = time.monotonic() + TIMEOUT
    while present() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert present() == set()
    spectator.close()
    # a game page's stream carries no token but the page's signed presence mark
    with app.app_context():
        mark = presence.page_token(game["id"], 0)
    page = SSE(f"{url}/v1/games/{game['id']}/stream?presence={mark}")
    page.events(1)
    deadline = time.monotonic() + TIMEOUT
    while present() != {0} and time.monotonic() < deadline:
        time.sleep(0.1)
    assert present() == {0}
    page.close()
    forged = SSE(f"{url}/v1/games/{game['id']}/stream?presence=forged")
    assert forged.events(1)  # a forged mark reads as a spectator: the stream still answers
    forged.close()
