"""Helpers for the bot tests: drive a game as the game worker would, in process."""

from __future__ import annotations

import sqlalchemy as sa

import engines
from arbiter.extensions import db
from arbiter.games import bot_moves, chance
from arbiter.models import Event, Game
from tests.helpers import slow_unless

ENGINES = list(engines.ENGINE_MODULES)
QUICK_ENGINE = "space-worm"
"""The engine whose whole bot games ``make check`` plays (the shortest game)."""
ENGINES_QUICK_FIRST = slow_unless(ENGINES, lambda engine: engine == QUICK_ENGINE)
"""``ENGINES`` as parameters for tests that play whole bot games: every engine but
``QUICK_ENGINE`` marked slow (``make test`` plays them all; ``make check`` one, while
tests/arbiter/bots has every engine's bot choose its moves)."""


def bot_game(client, engine: str, bots: list[dict | None], **extra) -> dict:
    """Create a game over REST whose seats are ``bots`` (None: a person); return the
    creation answer."""
    players = [
        {"name": f"P{i}"} if bot is None else {"name": f"Robo{i}", "bot": bot}
        for i, bot in enumerate(bots)
    ]
    answer = client.post("/v1/games", json={"engine": engine, "players": players, **extra})
    assert answer.status_code == 201, answer.json
    return answer.json


def drive(app, game_id: str, limit: int = 20_000, strict: bool = True) -> Game:
    """Do what the game worker's tasks do (rolls and bot moves) until the game waits
    for a person or is over (or, not ``strict``, ``limit`` steps were taken); return
    the game row."""
    with app.app_context():
        for _ in range(limit):
            game = db.session.get(Game, game_id)
            db.session.refresh(game)
            if game.status != "active":
                return game
            if game.prompt_type == "chance":
                chance.advance_chance(game_id, game.version)
            elif bot_moves.play_bot(game_id, game.version) < 0:
                return game
        if not strict:
            return game
        raise AssertionError(f"game {game_id} did not stop in {limit} steps")


def moves_of(app, game_id: str) -> list[Event]:
    """Return the game's move events, in order."""
    with app.app_context():
        rows = db.session.scalars(
            sa.select(Event)
            .where(Event.game_id == game_id, Event.kind == "move")
            .order_by(Event.seq)
        )
        out = list(rows)
        for row in out:
            db.session.expunge(row)
        return out
