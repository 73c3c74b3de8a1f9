"""One account's web hook receivers cannot hold up anyone else (issue 22, item 2).

The Procfile's processes on the embedded default (as ``make run`` starts them), mail to
a real SMTP server on loopback, web hooks to real receivers on loopback that never
answer, answer one byte a second forever, or answer 500
(:class:`tests.webhook_receiver.SlowReceiver`). Small settings keep it short: a 3 s
deadline per attempt, the default bound of 4 deliveries in flight per account.
"""

from __future__ import annotations

import time

import pytest
import requests

from arbiter.play_mail import is_turn_mail
from tests.e2e.test_play import sign_up_by_mail
from tests.webhook_receiver import SlowReceiver

DEADLINE = 3.0
BOUND = 4
QUICK = 10.0
"""What "still arrives within a few seconds" means here: unloaded, a turn mail takes
0.3-1 s and a web hook 0.1 s (``bench/webhook_isolation.py``); the margin is for a
loaded 2-core machine."""


@pytest.fixture
def settings(monkeypatch):
    """The stack's settings: loopback receivers allowed, 22 hooks per account."""
    for name, value in {
        "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
        "WEBHOOK_ALLOW_HTTP": "1",
        "WEBHOOKS_PER_ACCOUNT": "22",
        "WEBHOOK_DEADLINE_SECONDS": str(DEADLINE),
        "WEBHOOK_TIMEOUT_SECONDS": "10",
        "WEBHOOKS_IN_FLIGHT_PER_ACCOUNT": str(BOUND),
    }.items():
        monkeypatch.setenv(name, value)


def post(url: str, token: str, path: str, body: dict) -> dict:
    answer = requests.post(
        f"{url}{path}", headers={"Authorization": f"Bearer {token}"}, json=body, timeout=30
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def hook(url: str, token: str, target: str) -> None:
    """Register a ``turn`` hook at ``target``."""
    post(url, token, "/v1/me/webhooks", {"url": target, "events": ["turn"]})


def anonymous_game(url: str, token: str) -> dict:
    """Create a game with two unnamed seats: each prompt is a ``turn`` for its creator."""
    body = {"engine": "space-worm", "players": [{"name": "X"}, {"name": "Y"}]}
    return post(url, token, "/v1/games", body)


def within(seconds: float, found, what: str):
    """Wait for ``found()`` to return something true; return it.

    :raises AssertionError: not within ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        value = found()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds:.0f} s")


def turn_mails(inbox) -> list:
    """Return the "your turn" mails received so far."""
    return [m for m in list(inbox.messages) if is_turn_mail(m)]


def to_act(url: str, game_id: str):
    """Return ``(the first seat to act,)`` (a tuple: seat 0 is true too), or None."""
    summary = requests.get(f"{url}/v1/games/{game_id}", timeout=30).json()
    return (summary["to_act"][0],) if summary["to_act"] else None


def play_first(url: str, game_id: str, token: str) -> requests.Response:
    """Play the seat's first legal move; return the answer."""
    headers = {"Authorization": f"Bearer {token}"}
    legal = requests.get(f"{url}/v1/games/{game_id}/legal-moves", headers=headers, timeout=30)
    return requests.post(
        f"{url}/v1/games/{game_id}/moves",
        headers=headers,
        json={"move": legal.json()["moves"][0], "expected_version": legal.json()["version"]},
        timeout=30,
    )


def test_other_accounts_mail_and_hooks_flow_while_one_accounts_hooks_hang(
    start_stack, smtp, settings
):
    """Given one account with 20 hooks on a receiver that never answers, 1 on one that
    answers a byte a second forever and 1 on one that answers 500, and three of its
    games prompting (66 deliveries): another account's game still gets each turn mail
    and each web hook within a few seconds; the first account never has more than 4
    connections open at once (it has 4); and a third account's hook on the dripping
    receiver is cut at the 3 s deadline."""
    smtp_url, inbox = smtp
    with SlowReceiver(drip_seconds=1.0) as receiver:
        url = start_stack(None, None, smtp_url)
        noisy = sign_up_by_mail(url, inbox, "noisy@example.org")
        ann = sign_up_by_mail(url, inbox, "ann@example.org")
        sign_up_by_mail(url, inbox, "bob@example.org")
        dripper = sign_up_by_mail(url, inbox, "drip@example.org")
        targets = [f"hang/noisy/{i}" for i in range(20)] + ["drip/noisy/1", "fail/noisy/1"]
        for target in targets:
            hook(url, noisy, receiver.url + target)
        hook(url, ann, receiver.url + "ok/ann/1")
        hook(url, dripper, receiver.url + "drip/d/1")
        for _ in range(3):
            anonymous_game(url, noisy)
        within(60, lambda: len(receiver.of("/hang/noisy/")) >= BOUND, "the noisy hooks at work")

        anonymous_game(url, dripper)
        players = [{"name": "Ann", "email": "ann@example.org"}]
        players.append({"name": "Bob", "email": "bob@example.org"})
        game: dict = {}

        def create() -> None:
            game.update(post(url, ann, "/v1/games", {"engine": "space-worm", "players": players}))

        def move() -> None:
            [seat] = within(QUICK, lambda: to_act(url, game["id"]), "a decision")
            token = {s["seat"]: s["token"] for s in game["seats"]}[seat]
            assert play_first(url, game["id"], token).status_code == 201

        for action in (create, move, move):
            mails, hooks = len(turn_mails(inbox)), len(receiver.of("/ok/ann/"))
            action()
            within(QUICK, lambda: len(turn_mails(inbox)) > mails, "the other account's turn mail")
            within(QUICK, lambda: len(receiver.of("/ok/ann/")) > hooks, "its turn web hook")

        within(QUICK, lambda: [v for v in receiver.of("/drip/d/") if v.closed], "the drip's end")
        [drip] = receiver.of("/drip/d/")
        assert drip.closed - drip.opened <= DEADLINE + 1.5, drip
        assert receiver.most_open["noisy"] == BOUND, receiver.most_open
