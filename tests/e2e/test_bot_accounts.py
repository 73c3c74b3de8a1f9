"""A bot account's program plays whole games over HTTP (issue 25, items 3 and 4): a
person signs up (the link read from the mail), makes a bot account through the client,
and the example ``clients/python/examples/bot_account.py``, installed from
``clients/python`` into a fresh virtual environment (pip fetches httpx from PyPI), runs
with the bot's token. It is seated by id in a game of every engine against a built-in
bot seat, hears of each on ``/v1/me/stream`` and plays it to the end with random
legal moves; the built-in bot moves from the game worker. Against the Procfile's
processes (Redis as broker and stream fan-out where configured)."""

from __future__ import annotations

import subprocess
import uuid

import pytest
from arbiter_client import Client

import engines
from arbiter.verify import verify
from tests import processes
from tests.clients.test_service import CLIENT, install_in_fresh_venv, sign_up
from tests.conftest import REDIS_URL, free_port, smtp_server

pytestmark = pytest.mark.xdist_group("clients")

BOT = CLIENT / "examples" / "bot_account.py"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """The stack mailing to a test SMTP server: ``(url, inbox)``."""
    folder = tmp_path_factory.mktemp("bot-stack")
    port = free_port()
    if REDIS_URL:
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
    with smtp_server() as (smtp_url, inbox):
        env = processes.service_env(folder, port, None, REDIS_URL, SMTP_URL=smtp_url)
        procs = processes.serve(folder, port, env)
        try:
            yield f"http://127.0.0.1:{port}", inbox
        finally:
            processes.stop(procs)


def test_the_example_bot_account_plays_a_game_of_every_engine_against_a_built_in_bot(
    stack, tmp_path
):
    url, inbox = stack
    python = install_in_fresh_venv(tmp_path / "venv")
    away = tmp_path  # not the repository: nothing of it is importable there
    assert subprocess.run([python, "-c", "import arbiter"], cwd=away).returncode != 0
    assert len(BOT.read_text().splitlines()) < 40
    email = f"owner-{uuid.uuid4().hex[:6]}@example.org"
    with Client(url) as anonymous:
        owner_token = sign_up(anonymous, inbox, email)
    with Client(url, owner_token) as owner:
        bot = owner.account.create_bot("Robo")
        token = bot["token"]["token"]
        assert bot["token"]["scopes"] == ["games:play"]
        run = subprocess.Popen(
            [
                python,
                BOT,
                "--url",
                url,
                "--token",
                token,
                "--games",
                str(len(engines.ENGINE_MODULES)),
                "--seed",
                "3",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=away,
        )
        try:
            first = run.stdout.readline()  # it is connected before the games exist
            assert first.startswith("playing as Robo"), first + run.stdout.read()
            games = {
                engine: owner.games.create(
                    engine,
                    [
                        {"name": "Robo", "account": bot["id"]},
                        {"name": "Rando", "bot": {"kind": "random"}},
                    ],
                )["id"]
                for engine in engines.ENGINE_MODULES
            }
            output = first + run.communicate(timeout=900)[0]
        finally:
            run.kill()
        assert run.returncode == 0, output
        for engine, game_id in games.items():
            summary = owner.games.get(game_id)
            assert summary["status"] == "over", (engine, output)
            assert summary["players"][0].get("bot_account") is True
            assert summary["players"][1]["bot"]["kind"] == "random"
            record = owner.games.record(game_id)
            assert verify(dict(record)).ok
            moved = {e["seat"] for e in record["events"] if e["kind"] == "move"}
            assert 0 in moved, (engine, output)  # the bot account played its seat
            assert f"game {game_id} over: {summary['result']['reason']}" in output
