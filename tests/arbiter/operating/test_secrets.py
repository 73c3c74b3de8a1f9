"""Secrets hold everywhere (DESIGN.md, "Hidden information in the log"): in random
games played through the API, at every step, nothing another seat holds appears in any
response or mail to a seat (or a spectator) that may not see it."""

from __future__ import annotations

import os
import random

import pytest
import sqlalchemy as sa

import engines
from arbiter.extensions import db
from arbiter.games.games import load
from arbiter.models import OutboxMail
from tests.helpers import auth, new_game, random_move, until_decision

API_GAMES = int(os.environ.get("ARBITER_API_PLAYOUTS", "3"))
"""Games per engine: 3 in `make test`, 1 in `make check`, 1,000 in `make soak`."""
WITH_SECRETS = [e for e in engines.all_engines() if type(e).secrets is not engines.Engine.secrets]


def responses_for(client, game_id, token, after):
    """Everything a reader with ``token`` (None: spectator) can fetch now, as text."""
    headers = auth(token) if token else {}
    parts = [
        client.get(f"/v1/games/{game_id}", headers=headers).get_data(as_text=True),
        client.get(f"/v1/games/{game_id}/view", headers=headers).get_data(as_text=True),
        client.get(f"/v1/games/{game_id}/events?after={after}", headers=headers).get_data(
            as_text=True
        ),
    ]
    if token:
        parts.append(
            client.get(f"/v1/games/{game_id}/legal-moves", headers=headers).get_data(as_text=True)
        )
    return "\n".join(parts)


def mails_to(app, game_id, seat):
    with app.app_context():
        rows = db.session.scalars(
            sa.select(OutboxMail).where(OutboxMail.game_id == game_id, OutboxMail.seat == seat)
        )
        return "\n".join(m.subject + m.body for m in rows)


def held_by_others(engine, state, players, reader):
    """Secrets of every seat other than ``reader`` (all seats for a spectator)."""
    found = set()
    for seat in range(players):
        if seat != reader:
            found.update(engine.secrets(state, seat))
    if reader is not None:
        found -= set(engine.secrets(state, reader))  # also legitimately its own
    return found


@pytest.mark.skipif(not WITH_SECRETS, reason="no registered engine declares secrets yet")
@pytest.mark.parametrize("engine", WITH_SECRETS, ids=lambda e: e.id)
def test_no_response_or_mail_leaks_another_seats_secrets(app, client, engine):
    rng = random.Random(f"leaks-{engine.id}")
    for game_no in range(API_GAMES):
        players = rng.randint(engine.min_players, min(engine.max_players, 4))
        game_id, tokens = new_game(client, engine.id, players, emails=True)
        after = 0
        while True:
            s = until_decision(client, app, game_id)
            if s["status"] == "over":
                break
            with app.app_context():
                _, _, state = load(game_id)
            for reader in [None, *range(players)]:
                secrets = held_by_others(engine, state, players, reader)
                if not secrets:
                    continue
                seen = responses_for(
                    client, game_id, tokens[reader] if reader is not None else None, after
                )
                if reader is not None:
                    seen += mails_to(app, game_id, reader)
                leaked = [x for x in secrets if x in seen]
                assert not leaked, (game_no, reader, leaked)
            after = max(0, s["version"] - 3)
            _, _, answer = random_move(client, app, game_id, tokens, rng)
            assert answer.status_code == 201, answer.json
        record = client.get(f"/v1/games/{game_id}/record").json
        assert not any(e["payload"].get("hidden") for e in record["events"])
        public = client.get(f"/v1/games/{game_id}/events?after=0").json["events"]
        assert not any(e["payload"].get("hidden") for e in public)  # all public once over
