"""Test helpers that drive the API like a client and roll chance like the worker."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

import pytest
import sqlalchemy as sa
import yaml

from arbiter.extensions import db
from arbiter.games.chance import advance_chance
from arbiter.models import Event, Game
from engines import move_parts


def load_yaml(text: str):
    """Return the data of a YAML document, parsed with libyaml's safe loader where PyYAML
    was built with it (the same data as ``yaml.safe_load``, about five times faster on
    ``openapi.yaml``), else with ``yaml.safe_load``."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def slow_unless(values: Iterable, quick: Callable) -> list:
    """Return ``values`` as ``pytest.param`` values for ``parametrize``, each one
    ``quick(value)`` refuses marked ``slow`` (``make test`` runs them all, ``make check``
    the quick ones). Raises nothing."""
    return [pytest.param(v, marks=() if quick(v) else (pytest.mark.slow,)) for v in values]


def sampled(rows: Sequence, *, every: int = 3, kind: Callable | None = None) -> list:
    """Return ``rows`` (tuples for several argument names, else single values) as
    ``pytest.param`` values for ``parametrize``, with the same ids, every one but a
    representative subset marked ``slow`` (``make test`` runs them all, ``make check``
    the subset): the first and the last row, every ``every``-th, and the first row of
    each kind ``kind(row)`` names (so each kind of refusal keeps a row in ``make check``).
    Raises nothing."""
    seen = set()
    params = []
    for index, row in enumerate(rows):
        label = kind(row) if kind else None
        keep = index % every == 0 or index == len(rows) - 1 or (kind and label not in seen)
        seen.add(label)
        values = row if isinstance(row, tuple) else (row,)
        params.append(pytest.param(*values, marks=() if keep else (pytest.mark.slow,)))
    return params


def auth(token: str) -> dict:
    """Return the Authorization header for a seat token."""
    return {"Authorization": f"Bearer {token}"}


def new_game(
    client,
    engine: str = "space-worm",
    players: int = 2,
    emails: bool = False,
    options: dict | None = None,
) -> tuple[str, list[str]]:
    """Create a game over the API; return its id and the seat tokens. With ``emails``
    the seats' addresses (``p<i>@example.org``) are accounts first, so that they have
    agreed to mail and the game starts at once."""
    if emails:
        agreed(client.application, *(f"p{i}@example.org" for i in range(players)))
    body = {
        "engine": engine,
        "options": options or {},
        "players": [
            {"name": f"P{i}", "email": f"p{i}@example.org" if emails else None}
            for i in range(players)
        ],
    }
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.json
    return answer.json["id"], [s["token"] for s in answer.json["seats"]]


def agreed(app, *emails: str) -> None:
    """Make each address a verified account (as if it had signed up, without the
    sign-in mail), so that it has agreed to game mail; existing ones are kept."""
    from arbiter.accounts import accounts

    with app.app_context():
        for email in emails:
            if accounts.account_by_address(email) is None:
                accounts.new_account(email, None)
        db.session.commit()


def roll(app, game_id: str) -> int:
    """Resolve pending chance as the worker would; return events appended."""
    with app.app_context():
        return advance_chance(game_id, db.session.get(Game, game_id).version)


def summary(client, game_id: str) -> dict:
    """Return the game's public summary."""
    return client.get(f"/v1/games/{game_id}").json


def until_decision(client, app, game_id: str) -> dict:
    """Roll until the game waits for a seat (or is over); return the summary."""
    s = summary(client, game_id)
    while s["status"] == "active" and not s["to_act"]:
        roll(app, game_id)
        s = summary(client, game_id)
    return s


def random_move(client, app, game_id: str, tokens: list[str], rng: random.Random):
    """Play one random legal move for a seat to act; return (seat, move, answer)."""
    s = until_decision(client, app, game_id)
    seat = rng.choice(s["to_act"])
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    move = move_parts.pick(legal, rng)
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[seat]),
        json={"move": move, "expected_version": legal["version"]},
    )
    return seat, move, answer


def play_out(client, app, game_id: str, tokens: list[str], seed: int = 0) -> dict:
    """Play random legal moves until the game is over; return the final summary."""
    rng = random.Random(seed)
    while True:
        s = until_decision(client, app, game_id)
        if s["status"] == "over":
            return s
        _, _, answer = random_move(client, app, game_id, tokens, rng)
        assert answer.status_code == 201, answer.json


def event_count(app, game_id: str) -> int:
    """Return the number of events of a game, read from the database."""
    with app.app_context():
        return db.session.scalar(
            sa.select(sa.func.count()).select_from(Event).where(Event.game_id == game_id)
        )


def mailed_link(app, email: str) -> dict:
    """Return ``{"email", "token"}`` of the latest sign-in link mailed to ``email``,
    read from the outbox the way the recipient would read the mail."""
    import re
    from urllib.parse import parse_qs, urlparse

    from arbiter.models import OutboxMail

    with app.app_context():
        mail = db.session.scalars(
            sa.select(OutboxMail)
            .where(OutboxMail.to_addr == email.strip().lower())
            .order_by(OutboxMail.id.desc())
        ).first()
        assert mail is not None, f"no mail to {email}"
        url = re.search(r"https?://\S+/v1/auth/confirm\?\S+", mail.body).group(0)
    query = parse_qs(urlparse(url).query)
    return {"email": query["email"][0], "token": query["token"][0]}


def sign_in(client, app, email: str, name: str | None = None) -> str:
    """Sign up or in through the mailed link; return the personal token (every scope)."""
    sent = client.post("/v1/auth/links", json={"email": email, "display_name": name})
    assert sent.status_code == 202, sent.json
    answer = client.post("/v1/auth/sessions", json=mailed_link(app, email))
    assert answer.status_code == 201, answer.json
    return answer.json["token"]["token"]


INVITER = "host@example.org"
"""The address of the account :func:`inviter` signs in."""


def inviter(client, app, email: str = INVITER, name: str = "Host") -> str:
    """Return a personal token (every scope) of a signed-in account, which may invite
    addresses that are not accounts (a caller without a personal token may not: issue
    22, item 3); the account is signed up through its mailed link on first use in
    ``app`` and its token kept for the next calls."""
    kept = app.extensions.setdefault("test_inviters", {})
    if email not in kept:
        kept[email] = sign_in(client, app, email, name)
    return kept[email]


def scoped_token(client, token: str, *scopes: str) -> str:
    """Make a personal token with only ``scopes``, using a token with account:write."""
    answer = client.post(
        "/v1/me/tokens", headers=auth(token), json={"name": "test", "scopes": list(scopes)}
    )
    assert answer.status_code == 201, answer.json
    return answer.json["token"]
