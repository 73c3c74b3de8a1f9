"""``/v1/me/stream`` for bots (issue 25, item 3): a game where the account is seated
after the stream connected is followed from its first event (a bot hears of its new
games without reconnecting); one account stream per token (a newer one replaces the
older, whose last line says so); opening one counts against the read limit (429 with
Retry-After). On the real web process, embedded and PostgreSQL + Redis (the
``server`` fixture of :mod:`tests.arbiter.streams.test_streams`)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import httpx
import pytest
import requests

from arbiter.streams.asgi import Front
from tests.arbiter.streams.test_streams import TIMEOUT, roll, server  # noqa: F401 - the fixture
from tests.conftest import make_app
from tests.helpers import auth, sign_in

pytestmark = pytest.mark.xdist_group("streams")


def bot_of(url: str, app) -> tuple[str, str, str]:
    """Sign a new person in and make them a bot account; return the person's token,
    the bot's id and the bot's token."""
    email = f"owner-{uuid.uuid4().hex[:8]}@example.org"  # the PostgreSQL schema is shared
    owner = sign_in(app.test_client(), app, email, "Owner")
    made = requests.post(
        f"{url}/v1/me/bots", headers=auth(owner), json={"name": "Robo"}, timeout=TIMEOUT
    ).json()
    return owner, made["id"], made["token"]["token"]


def lines_of(response):
    """Yield the non-empty lines of an ndjson response as objects; fail when none
    comes within ``TIMEOUT`` seconds (keep-alive lines do not count)."""
    deadline = time.monotonic() + TIMEOUT
    for line in response.iter_lines(chunk_size=None):
        if line:
            yield json.loads(line)
            deadline = time.monotonic() + TIMEOUT
        assert time.monotonic() < deadline, "no line within the timeout"


@pytest.mark.parametrize(
    "where",
    # make check follows the web process's notice; the poll for games made elsewhere
    # waits for its interval (seconds), so make test alone runs it
    ["web", pytest.param("elsewhere", marks=pytest.mark.slow)],
)
def test_a_game_seated_after_the_stream_connected_is_followed_from_its_start(server, where):  # noqa: F811
    """Created through the web process (its notice), or by another process (``elsewhere``:
    this test's app; on the embedded default its notice never reaches the web process,
    whose poll for new seats finds the game)."""
    url, app = server
    owner, bot_id, token = bot_of(url, app)
    stream = requests.get(
        f"{url}/v1/me/stream", headers=auth(token), stream=True, timeout=(5, TIMEOUT)
    )
    assert stream.status_code == 200
    time.sleep(0.5)  # the stream is open before the game exists
    post = requests.post if where == "web" else app.test_client().post
    game = post(
        f"{url}/v1/games" if where == "web" else "/v1/games",
        headers=auth(owner),
        json={
            "engine": "dark-horse",
            "players": [{"name": "Ann"}, {"name": "Robo", "account": bot_id}],
        },
        **({"timeout": TIMEOUT} if where == "web" else {}),
    ).json
    game = game() if callable(game) else game
    seen = []
    for event in lines_of(stream):
        assert event["game"] == game["id"]
        seen.append(event["seq"])
        if len(seen) == 3:
            break
    stream.close()
    assert seen == [1, 2, 3]  # game-created and the two seats, from the very start


def test_one_account_stream_per_token_the_newer_replaces_the_older(server):  # noqa: F811
    url, app = server
    _, _, token = bot_of(url, app)
    first = requests.get(
        f"{url}/v1/me/stream", headers=auth(token), stream=True, timeout=(5, TIMEOUT)
    )
    assert first.status_code == 200
    time.sleep(0.5)
    second = requests.get(
        f"{url}/v1/me/stream", headers=auth(token), stream=True, timeout=(5, TIMEOUT)
    )
    assert second.status_code == 200
    last = next(lines_of(first))
    assert last["end"] == "replaced" and "one account stream per token" in last["detail"]
    with pytest.raises(StopIteration):
        next(lines_of(first))  # and the connection ends
    first.close()
    second.close()


def test_opening_an_account_stream_counts_against_the_read_limit(tmp_path):
    app = make_app(
        f"sqlite:///{tmp_path / 'limits.sqlite3'}",
        RATELIMIT_ENABLED=True,
        RATELIMIT_READ="2 per minute",
    )
    client = app.test_client()
    owner = sign_in(client, app, "ann@example.org", "Ann")
    token = client.post("/v1/me/bots", headers=auth(owner), json={"name": "Robo"}).json["token"][
        "token"
    ]
    assert client.get("/v1/me", headers=auth(token)).status_code == 200
    assert client.get("/v1/me", headers=auth(token)).status_code == 200

    async def open_stream():
        transport = httpx.ASGITransport(app=Front(app))
        async with httpx.AsyncClient(transport=transport, base_url="http://arbiter") as http:
            return await http.get("/v1/me/stream", headers=auth(token))

    answer = asyncio.run(open_stream())
    assert answer.status_code == 429
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["code"] == "rate-limited"
    assert int(answer.headers["retry-after"]) >= 1


def test_a_new_stream_starts_with_the_last_event_of_each_game_owing_a_move(server):  # noqa: F811
    url, app = server
    owner, bot_id, token = bot_of(url, app)
    body = {"engine": "space-worm", "players": [{"name": "Robo", "account": bot_id}]}
    owes = requests.post(f"{url}/v1/games", headers=auth(owner), json=body, timeout=TIMEOUT).json()
    waits = requests.post(
        f"{url}/v1/games",
        headers=auth(owner),
        json={**body, "players": [{"name": "Ann"}, {"name": "Robo", "account": bot_id}]},
        timeout=TIMEOUT,
    ).json()
    roll(app, owes, 2)  # the one-seat game now waits for the bot
    version = requests.get(f"{url}/v1/games/{owes['id']}", timeout=TIMEOUT).json()["version"]
    mine = requests.get(f"{url}/v1/me/games?to_act=true", headers=auth(token), timeout=TIMEOUT)
    assert [g["id"] for g in mine.json()["games"]] == [owes["id"]]
    stream = requests.get(
        f"{url}/v1/me/stream", headers=auth(token), stream=True, timeout=(5, TIMEOUT)
    )
    first = next(lines_of(stream))
    stream.close()
    assert (first["game"], first["seq"], first["version"]) == (owes["id"], version, version)
    assert waits["id"] != first["game"]
