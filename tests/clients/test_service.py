"""The client package against the running service (the Procfile's web, worker, mailer
and beat; one stack for the module, with a tiny game-creation limit so that a 429
comes on demand): it creates, reads and plays games, follows the three kinds of
stream and resumes them, raises the service's refusals as typed errors with their
codes, and waits out a 429's Retry-After with the same Idempotency-Key. Then the
example bot, installed from ``clients/python`` into a fresh virtual environment (pip
fetches httpx from PyPI), plays a whole game of every engine over HTTP.
"""

from __future__ import annotations

import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from arbiter_client import (
    NO_RETRY,
    BadRequest,
    Client,
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    Unauthorized,
    Unprocessable,
    random_move,
)

import engines
from arbiter.verify import verify
from tests import processes
from tests.conftest import REDIS_URL, free_port, smtp_server

pytestmark = [pytest.mark.stack, pytest.mark.xdist_group("clients")]

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "python"
CREATE_LIMIT = "3 per 2 seconds"
"""The stack's RATELIMIT_CREATE: a burst of creations meets a 429 within seconds."""


def install_in_fresh_venv(folder: Path) -> Path:
    """Make a virtual environment in ``folder`` and pip-install the client package from
    a copy of the repository's ``clients/python`` (the build writes beside its source)
    into it, its dependencies from PyPI; return its python."""
    source = folder.parent / "source"
    shutil.copytree(CLIENT, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=300)
    python = folder / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(source)],
        check=True,
        timeout=600,
        capture_output=True,
    )
    return python


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory):
    """A future of a fresh venv's python with the client installed (made while the
    stack starts)."""
    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(install_in_fresh_venv, tmp_path_factory.mktemp("fresh") / "venv")
    yield future
    pool.shutdown(wait=True)


@pytest.fixture(scope="module")
def inbox():
    """The SMTP server the stack mails to: ``(url, inbox)``."""
    with smtp_server() as server:
        yield server


@pytest.fixture(scope="module")
def service(tmp_path_factory, inbox, fresh_venv):
    """Start the stack (Redis as broker and limit storage where configured); yield its
    URL."""
    folder = tmp_path_factory.mktemp("client-stack")
    port = free_port()
    if REDIS_URL:
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
    env = processes.service_env(
        folder,
        port,
        None,
        REDIS_URL,
        SMTP_URL=inbox[0],
        OPEN_CREATION="1",
        RATELIMIT_ENABLED="1",
        RATELIMIT_CREATE=CREATE_LIMIT,
        RATELIMIT_KEY_PREFIX=f"clients-{uuid.uuid4().hex[:8]}",
        WEBHOOK_ALLOWED_NETWORKS="127.0.0.0/8",  # a hook on loopback (it never fires)
    )
    procs = processes.serve(folder, port, env)
    yield f"http://127.0.0.1:{port}"
    processes.stop(procs)


@pytest.fixture
def client(service):
    with Client(service, timeout=30) as client:
        yield client


def wait_for_a_decision(client: Client, game_id: str) -> dict:
    """Return the game's summary once a seat is to act (the worker rolls first)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary = client.games.get(game_id)
        if summary["to_act"]:
            return summary
        client.events.list(game_id, after=summary["version"], wait=5)
    raise AssertionError(f"game {game_id} never asked for a move")


def play_out(client: Client, created: dict) -> list[int]:
    """Play every seat of ``created`` with random legal moves while following the
    game's stream as a spectator; return the seqs the stream gave."""
    game_id, seen = created["id"], []
    seats = [client.with_token(s["token"]) for s in created["seats"]]
    for event in client.events.stream(game_id):
        seen.append(event["seq"])
        for seat in seats:
            legal = seat.moves.legal(game_id)
            move = random_move(legal)
            if move is not None:
                try:
                    seat.moves.play(game_id, move, expected_version=legal["version"])
                except Conflict:
                    pass
    return seen


def test_a_game_created_read_and_played_through_the_client(client):
    created = client.games.create("space-worm", ["Ann", "Bob"])
    game_id = created["id"]
    assert [s["name"] for s in created["seats"]] == ["Ann", "Bob"] and created["creator_token"]
    summary = wait_for_a_decision(client, game_id)
    seat = summary["to_act"][0]
    mover = client.with_token(created["seats"][seat]["token"])
    other = client.with_token(created["seats"][1 - seat]["token"])
    legal = mover.moves.legal(game_id)
    assert (
        legal["seat"] == seat and legal["moves"] and len(legal["notation"]) == len(legal["moves"])
    )
    assert other.moves.legal(game_id)["moves"] == []  # it owes no move
    assert mover.games.view(game_id)["seat"] == seat and client.games.view(game_id)["seat"] is None

    refusals = [
        (
            Conflict,
            "stale-version",
            lambda: mover.moves.play(game_id, legal["moves"][0], expected_version=1),
        ),
        (Conflict, "not-your-turn", lambda: other.moves.play(game_id, legal["moves"][0])),
        (Unprocessable, "bad-move", lambda: mover.moves.play(game_id, {"nonsense": True})),
        (Unauthorized, "bad-token", lambda: client.with_token("wrong").moves.legal(game_id)),
        (NotFound, "game-not-found", lambda: client.games.get("no-such-game")),
        (Conflict, "game-not-over", lambda: client.games.record(game_id)),
        (BadRequest, "after-past-version", lambda: client.events.list(game_id, after=9999)),
    ]
    for kind, code, call in refusals:
        with pytest.raises(kind) as caught:
            call()
        assert (caught.value.code, caught.value.detail) == (code, caught.value.problem["detail"])
        assert caught.value.detail and caught.value.status == caught.value.response.status_code
    assert client.games.get(game_id)["version"] == summary["version"]  # nothing written

    with ThreadPoolExecutor(max_workers=1) as pool:  # a stalled game fails, never hangs
        seen = pool.submit(play_out, client, created).result(timeout=300)
    record = client.games.record(game_id)
    last = record["events"][-1]["seq"]
    assert seen == list(range(1, last + 1))  # every event once, in order, to the end
    assert verify(dict(record)).ok
    # a finished game's streams: from event 3 on, then nothing after the last (204)
    assert [e["seq"] for e in client.events.stream(game_id, after=3)] == list(range(4, last + 1))
    assert [e["seq"] for e in client.events.poll(game_id, after=3)] == list(range(4, last + 1))
    assert list(client.events.stream(game_id, after=last)) == []
    assert client.engines.get("worms")["id"] == "worms"
    assert {e["id"] for e in client.engines.list()} == set(engines.ENGINE_MODULES)


def test_a_429_is_a_typed_error_and_a_retry_after_it_keeps_its_idempotency_key(service):
    with Client(service, retry=NO_RETRY) as impatient, pytest.raises(RateLimited) as caught:
        for _ in range(20):
            impatient.games.create("space-worm", ["Ann"])
    err = caught.value
    assert (err.status, err.code) == (429, "rate-limited") and err.retry_after >= 1

    answers: list[tuple[float, int, str]] = []

    def seen(response: httpx.Response) -> None:
        if response.request.method == "POST":
            key = response.request.headers.get("Idempotency-Key")
            answers.append((time.monotonic(), response.status_code, key))

    with Client(service, http=httpx.Client(event_hooks={"response": [seen]})) as patient:
        ids = [patient.games.create("space-worm", ["Ann"])["id"] for _ in range(6)]
    assert len(set(ids)) == 6
    refused = [i for i, (_, status, _) in enumerate(answers) if status == 429]
    assert refused, answers  # 6 creations at 3 per 2 seconds met the limit
    for i in refused:
        (at, _, key), (then, status, again) = answers[i], answers[i + 1]
        assert status in (201, 429) and again == key  # the same request, sent again
        assert then - at >= 0.9  # after its Retry-After (whole seconds, at least 1)
    assert len({key for _, status, key in answers if status == 201}) == 6


def sign_up(client: Client, inbox, email: str) -> str:
    """Sign ``email`` up through the client (the link read from the mail); return the
    personal token."""
    client.account.request_link(email, "Ann")
    deadline = time.monotonic() + 60
    while not inbox.to(email) and time.monotonic() < deadline:
        time.sleep(0.2)
    link = re.search(r"\S+/v1/auth/confirm\?\S+", inbox.to(email)[-1].get_content()).group(0)
    query = {k: v[0] for k, v in parse_qs(urlparse(link).query).items()}
    return client.account.sign_in(query["email"], query["token"])["token"]["token"]


@pytest.fixture(scope="module")
def account(service, inbox):
    """A signed-up account: ``(email, personal token with every scope)``."""
    email = f"ann-{uuid.uuid4().hex[:6]}@example.org"
    with Client(service) as client:
        return email, sign_up(client, inbox[1], email)


def test_the_account_stream_follows_my_games_and_resumes_from_a_cursor(service, client, account):
    email, me_token = account
    connected = threading.Event()

    def answered(response: httpx.Response) -> None:
        if response.request.url.path == "/v1/me/stream":
            connected.set()

    http = httpx.Client(event_hooks={"response": [answered]})
    with Client(service, me_token, http=http) as me:
        created = me.games.create("space-worm", [{"name": "Ann", "email": email}, "Cy"])
        game_id = created["id"]
        assert me.account.me()["email"] == email
        assert [g["id"] for g in me.account.games()] == [game_id]
        # the first roll is in: Ann owes a move, and nothing new comes until Cy acts
        decision = wait_for_a_decision(client, game_id)
        lines: queue.Queue = queue.Queue()
        stream = me.events.mine()
        reader = threading.Thread(
            target=lambda: [lines.put(next(stream)) for _ in range(2)], daemon=True
        )
        reader.start()
        assert connected.wait(30)  # the service answered: the stream follows the game now
        # a game where the account owes a move starts with its last event
        owed = lines.get(timeout=30)
        assert (owed["game"], owed["seq"]) == (game_id, decision["version"])
        client.with_token(created["seats"][1]["token"]).games.resign(game_id)  # Cy
        first = lines.get(timeout=30)
        reader.join(5)
        stream.close()
        assert (first["game"], first["kind"], first["seat"]) == (game_id, "resigned", 1)
        # events written after that line (the game's end): the cursor resumes after it
        resumed = me.events.mine(cursor=first["cursor"])
        after = next(resumed)
        resumed.close()
    assert (after["game"], after["seq"]) == (game_id, first["seq"] + 1)
    assert after["cursor"] != first["cursor"]


def test_the_example_bot_from_a_fresh_venv_plays_a_game_of_every_engine(service, fresh_venv):
    python = fresh_venv.result(timeout=600)
    away = python.parent.parent  # not the repository: nothing of it is importable there
    assert subprocess.run([python, "-c", "import arbiter"], cwd=away).returncode != 0
    bot = CLIENT / "examples" / "bot.py"
    assert len(bot.read_text().splitlines()) < 40
    runs = {
        engine: subprocess.Popen(
            [python, bot, engine, "--url", service, "--seed", "7"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=away,
        )
        for engine in engines.ENGINE_MODULES
    }
    outputs = {engine: run.communicate(timeout=600)[0] for engine, run in runs.items()}
    failed = {e: out for e, out in outputs.items() if runs[e].returncode != 0}
    assert not failed, failed
    with Client(service) as client:
        for engine, output in outputs.items():
            game_id = re.search(rf"playing {engine} game (\w+)", output).group(1)
            assert client.games.get(game_id)["status"] == "over", output
            assert verify(dict(client.games.record(game_id))).ok
            assert "game over" in output


def test_the_ten_lines_of_the_client_readme_play_a_game(service, tmp_path):
    readme = (CLIENT / "README.md").read_text()
    block = re.search(r"## Ten lines\n\n```python\n(.*?)```", readme, flags=re.S).group(1)
    assert len([line for line in block.splitlines() if line.strip()]) == 10
    script = tmp_path / "ten.py"
    script.write_text(block.replace("http://127.0.0.1:8000", service))
    done = subprocess.run(
        [sys.executable, script], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "'scores'" in done.stdout, done.stdout


def test_tokens_web_hooks_tournaments_and_campaigns_through_the_client(service, account):
    email, token = account
    with Client(service, token) as me:
        bot = me.account.create_token("my bot", ["games:play"])
        assert bot["token"].startswith("arb_") and bot["scopes"] == ["games:play"]
        assert bot["id"] in [t["id"] for t in me.account.tokens()]
        with pytest.raises(Forbidden) as caught:  # a play token creates no games
            me.with_token(bot["token"]).games.create("space-worm", ["Ann"])
        assert caught.value.code == "missing-scope"
        me.account.revoke_token(bot["id"])
        with pytest.raises(Unauthorized) as caught:
            me.with_token(bot["token"]).account.games()
        assert caught.value.code == "token-revoked"

        hook = me.webhooks.create(f"http://127.0.0.1:{free_port()}/hook", ["tournament_over"])
        assert hook["secret"].startswith("whsec_")
        assert me.webhooks.update(hook["id"], events=["turn"])["events"] == ["turn"]
        assert [h["id"] for h in me.webhooks.list()] == [hook["id"]]
        assert me.webhooks.deliveries(hook["id"]) == []
        me.webhooks.delete(hook["id"])
        assert me.webhooks.list() == []

        cup = me.tournaments.create("space-worm", "round_robin", 2, name="Cup")
        assert me.tournaments.enter(cup["id"])["account"] == me.account.me()["id"]
        assert [e["name"] for e in me.tournaments.get(cup["id"])["entries"]] == ["Ann"]
        assert cup["id"] in [t["id"] for t in me.tournaments.list(engine="space-worm")]
        swiss = me.tournaments.create("space-worm", "swiss", 2, rounds=3)
        assert swiss["deadline_policy"] == "forfeit"
        mine = me.tournaments.enter(swiss["id"])
        asked = me.tournaments.request_bye(swiss["id"], mine["id"], 2, "half")
        assert asked["byes_requested"] == {"2": "H"}
        table = me.tournaments.standings(swiss["id"], after_round=0)
        assert table["after_round"] == 0 and table["standings"][0]["crosstable"] == []

        campaign = me.campaigns.create("star-maps", ["Ann"], name="Stars")
        organiser = me.with_token(campaign["token"])
        game = organiser.campaigns.next_game(campaign["id"])
        assert game["seats"][0]["token"]
        assert [g["id"] for g in me.campaigns.get(campaign["id"])["games"]][-1] == game["id"]
