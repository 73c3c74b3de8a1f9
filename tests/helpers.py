"""Test helpers that drive the API like a client and roll chance like the worker."""

from __future__ import annotations

import random

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import Event, Game
from arbiter.service.chance import advance_chance
from engines import move_parts


def auth(token: str) -> dict:
    """Return the Authorization header for a seat token."""
    return {"Authorization": f"Bearer {token}"}


def new_game(client, engine: str = "space-worm", players: int = 2, emails: bool = False,
             options: dict | None = None) -> tuple[str, list[str]]:
    """Create a game over the API; return its id and the seat tokens."""
    body = {"engine": engine, "options": options or {}, "players": [
        {"name": f"P{i}", "email": f"p{i}@example.org" if emails else None}
        for i in range(players)]}
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.json
    return answer.json["id"], [s["token"] for s in answer.json["seats"]]


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
    answer = client.post(f"/v1/games/{game_id}/moves", headers=auth(tokens[seat]),
                         json={"move": move, "expected_version": legal["version"]})
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
        return db.session.scalar(sa.select(sa.func.count()).select_from(Event)
                                 .where(Event.game_id == game_id))
