"""Real games and accounts for the fuzzer to reach: signed in, created and moved over
HTTP on a live service, their ids and tokens written to a JSON file that
``tests/contract/hooks.py`` reads."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import requests

from arbiter.play import play

CLOCK = {"type": "per-move", "seconds": 86400, "vacation_days": 30}
ACCOUNT = "fuzz@example.org"
DOOMED = "fuzz-doomed@example.org"
"""The account ``DELETE /v1/me`` is given: deleting it must not end the others' runs."""
KEYS = "fuzz-keys@example.org"
"""The account ``/v1/me/tokens`` is given (list, make, revoke): the fuzzer revokes ids
it learns from listings, which must never be the first account's token."""


def _create(
    url: str,
    players: int,
    clock: dict | None = None,
    engine: str = "space-worm",
    token: str | None = None,
    email: str | None = None,
) -> dict:
    """Create a game (with ``token`` as its creator; seat 0's email ``email``); return
    its id, seat tokens and creator token."""
    body = {"engine": engine, "players": [{"name": f"Fuzz {i}"} for i in range(players)]}
    if email:
        body["players"][0]["email"] = email
    if clock:
        body["clock"] = clock
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.post(f"{url}/v1/games", json=body, headers=auth, timeout=30)
    answer.raise_for_status()
    created = answer.json()
    return {
        "id": created["id"],
        "tokens": [s["token"] for s in created["seats"]],
        "creator": created["creator_token"],
    }


def _wait_for_decision(url: str, game: dict, seconds: float = 120) -> None:
    """Wait until the worker has rolled and the game waits for a seat."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if requests.get(f"{url}/v1/games/{game['id']}", timeout=30).json()["to_act"]:
            return
        time.sleep(0.2)
    raise RuntimeError(f"game {game['id']} never waited for a decision")


def sign_in(url: str, inbox, email: str, seconds: float = 120) -> str:
    """Sign ``email`` in as a user would: ask for a link, read the mail the service
    sent to ``inbox`` (:class:`tests.smtp_server.Inbox`), post the link's token; return
    the personal token (every scope)."""
    answer = requests.post(
        f"{url}/v1/auth/links",
        timeout=30,
        json={"email": email, "display_name": email.split("@")[0]},
    )
    answer.raise_for_status()
    deadline = time.monotonic() + seconds
    while not (mails := inbox.to(email)) and time.monotonic() < deadline:
        time.sleep(0.2)
    if not mails:
        raise RuntimeError(f"no sign-in mail came for {email}")
    body = mails[-1].get_body(preferencelist=("plain",)).get_content()
    nonce = re.search(r'"token": "([^"]+)"', body).group(1)
    answer = requests.post(
        f"{url}/v1/auth/sessions", timeout=30, json={"email": email, "token": nonce}
    )
    answer.raise_for_status()
    return answer.json()["token"]["token"]


def _account(url: str, inbox) -> dict:
    """Sign in the fuzzing account, the one it may delete, and the one whose tokens it
    may revoke, with three spare tokens for ``DELETE /v1/me/tokens/{id}``."""
    keys = sign_in(url, inbox, KEYS)
    spares = []
    for i in range(3):
        answer = requests.post(
            f"{url}/v1/me/tokens",
            timeout=30,
            headers={"Authorization": f"Bearer {keys}"},
            json={"name": f"spare {i}", "scopes": ["games:read"]},
        )
        answer.raise_for_status()
        spares.append(answer.json()["id"])
    return {
        "email": ACCOUNT,
        "token": sign_in(url, inbox, ACCOUNT),
        "keys": keys,
        "spare_tokens": spares,
        "doomed": sign_in(url, inbox, DOOMED),
    }


def seed(url: str, folder: Path, inbox) -> Path:
    """Create the accounts, games and campaign the fuzzer uses; return the JSON file.

    ``account``: a signed-in account's personal token (``/v1/me``, creation), the token
    of a second account for ``DELETE /v1/me``, and of a third with spare token ids for
    ``/v1/me/tokens``. Games:
    ``active``: two seats, waiting for a decision; ``clocked``: the same with a per-move
    clock and vacation days (pause, resume, extend, vacation); ``mine``: clocked,
    created by the account, which holds seat 0 (its personal token is seat 0's and the
    creator's); ``resign``: four seats for resignations; ``back``: two seats for taking a seat
    back from the autopilot (its own: an Idempotency-Key is scoped per seat, not per
    route); ``board``: Worms (a board to
    draw); ``over``: a finished game (record); ``campaign``: Star Maps with its
    organiser token.
    """
    account = _account(url, inbox)
    me = account["token"]
    games = {
        name: _create(url, players, clock, engine, me)
        for name, players, clock, engine in (
            ("active", 2, None, "space-worm"),
            ("clocked", 2, CLOCK, "space-worm"),
            ("resign", 4, None, "space-worm"),
            ("back", 2, None, "space-worm"),
            ("board", 2, None, "worms"),
        )
    }
    mine = _create(url, 2, CLOCK, token=me, email=ACCOUNT)
    games["mine"] = {"id": mine["id"], "tokens": [me], "creator": me}
    for game in games.values():
        _wait_for_decision(url, game)
    played = play(
        url,
        "space-worm",
        1,
        seed=7,
        out_dir=folder / "records",
        echo=lambda line: None,
        timeout=300,
        token=me,
    )
    games["over"] = {"id": played.game_id, "tokens": [], "creator": None}
    answer = requests.post(
        f"{url}/v1/campaigns",
        timeout=30,
        json={"engine": "star-maps", "players": [{"name": "Fuzz A"}, {"name": "Fuzz B"}]},
    )
    answer.raise_for_status()
    fixtures = {
        "url": url,
        "games": games,
        "account": account,
        "campaign": {"id": answer.json()["id"], "token": answer.json()["token"]},
    }
    path = folder / "fuzz-fixtures.json"
    path.write_text(json.dumps(fixtures, indent=1))
    return path
