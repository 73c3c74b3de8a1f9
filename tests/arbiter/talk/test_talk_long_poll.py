"""The long-poll of a game's messages on the real web process (uvicorn serving
:mod:`arbiter.streams.asgi`), embedded and on PostgreSQL + Redis: waiting readers hold
no Flask thread, a message wakes exactly the readers who may read it, and the others'
long-polls are answered with nothing of it."""

from __future__ import annotations

import re
import threading
import time

import requests

from tests.arbiter.streams.test_streams import server  # noqa: F401 - the module's server

TIMEOUT = 60


def test_waiting_long_polls_hold_no_thread_and_wake_on_a_message_they_may_read(server):  # noqa: F811
    url, _ = server
    created = requests.post(
        f"{url}/v1/games",
        json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "Bob"}]},
        timeout=TIMEOUT,
    ).json()
    game_id = created["id"]
    ann, bob = (f"Bearer {s['token']}" for s in created["seats"])
    answers: dict = {}

    def poll(name: str, token: str | None) -> None:
        answers[name] = requests.get(
            f"{url}/v1/games/{game_id}/messages",
            params={"after": 0, "wait": 20},
            headers={"Authorization": token} if token else {},
            timeout=TIMEOUT,
        )

    readers = {f"bob{i}": bob for i in range(12)} | {f"spectator{i}": None for i in range(12)}
    threads = [threading.Thread(target=poll, args=item) for item in readers.items()]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    # 24 long-polls wait, and the API (2 Flask threads) still answers
    assert requests.get(f"{url}/v1/engines", timeout=10).status_code == 200
    assert not answers
    started = time.monotonic()
    posted = requests.post(
        f"{url}/v1/games/{game_id}/messages",
        json={"text": "Ann at the table"},
        headers={"Authorization": ann},
        timeout=TIMEOUT,
    )
    assert posted.status_code == 201, posted.text
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    assert len(answers) == 24
    for name, answer in answers.items():
        assert answer.status_code == 200
        texts = [m["text"] for m in answer.json()["messages"]]
        assert texts == (["Ann at the table"] if name.startswith("bob") else []), name
    # Bob's long-polls were woken by the message, not by the end of their wait
    assert time.monotonic() - started < 15


def test_the_page_panel_long_poll_wakes_the_seat_and_tells_a_spectator_nothing(server):  # noqa: F811
    url, _ = server
    created = requests.post(
        f"{url}/v1/games",
        json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "Bob"}]},
        timeout=TIMEOUT,
    ).json()
    game_id = created["id"]
    bob = requests.Session()  # a browser that opens Bob's seat with its token
    page = bob.get(f"{url}/games/{game_id}", timeout=TIMEOUT).text
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    opened = bob.post(
        f"{url}/games/{game_id}/token",
        data={"csrf_token": csrf, "token": created["seats"][1]["token"]},
        timeout=TIMEOUT,
    )
    assert opened.ok and "You are playing seat 1" in opened.text
    answers: dict = {}

    def poll(name: str, session) -> None:
        answers[name] = session.get(
            f"{url}/games/{game_id}/talk", params={"after": 0, "wait": 20}, timeout=TIMEOUT
        )

    threads = [
        threading.Thread(target=poll, args=("bob", bob)),
        threading.Thread(target=poll, args=("spectator", requests.Session())),
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    assert not answers
    started = time.monotonic()
    posted = requests.post(
        f"{url}/v1/games/{game_id}/messages",
        json={"text": "Ann at the table"},
        headers={"Authorization": f"Bearer {created['seats'][0]['token']}"},
        timeout=TIMEOUT,
    )
    assert posted.status_code == 201
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    assert answers["bob"].json() == {"messages": [1], "last": 1}
    assert answers["spectator"].json() == {"messages": [], "last": 0}
    assert time.monotonic() - started < 15
