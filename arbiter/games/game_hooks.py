"""The web hook events a game's transition causes: ``turn`` for every new prompt (to
the accounts of the seats it waits for, and the game's creator), ``game_over`` at the
end (to every seated account, and the creator).

Their payloads hold only what the game's public summary shows; a receiver reads a
seat's view with its own token.
"""

from __future__ import annotations

from datetime import datetime

from arbiter import settings
from arbiter.hooks import webhooks
from arbiter.models import Game
from arbiter.models.timestamps import iso
from arbiter.uow import Appended, UnitOfWork


def _link(game: Game) -> str:
    return f"{settings.current().service.base_url}/v1/games/{game.id}"


def turn(
    game: Game, prompt: dict, version: int, deadline: datetime | None
) -> tuple[dict, list[str]]:
    """Return the ``turn`` payload of a new decision at ``version`` and the accounts
    concerned: ``{"game", "engine", "version", "to_act", "deadline", "url"}``."""
    seats = list(prompt.get("seats", []))
    accounts = [s.account_id for s in game.seats if s.seat in seats and not s.resigned]
    payload = {
        "game": game.id,
        "engine": game.engine,
        "version": version,
        "to_act": seats,
        "deadline": iso(deadline),
        "url": _link(game),
    }
    return payload, [*accounts, game.creator_account_id]


def game_over(game: Game, result: dict, version: int) -> tuple[dict, list[str]]:
    """Return the ``game_over`` payload (``{"game", "engine", "version", "result",
    "url", "record"}``) and the accounts concerned."""
    payload = {
        "game": game.id,
        "engine": game.engine,
        "version": version,
        "result": result,
        "url": _link(game),
        "record": _link(game) + "/record",
    }
    return payload, [*(s.account_id for s in game.seats), game.creator_account_id]


def post_hooks(uow: UnitOfWork, appended: Appended) -> None:
    """Staged handler (:mod:`arbiter.follow_ups`): write the web hook deliveries of a
    transition (``turn`` for a new decision or a game that starts, ``game_over``),
    in its transaction. A game that is not active gets none."""
    a = appended
    if a.prompt["type"] == "idle":
        return
    if a.result is not None:
        webhooks.notify(uow, "game_over", *game_over(a.game, a.result, a.version))
    elif a.prompt["type"] == "decision" and (a.new_prompt or a.started):
        webhooks.notify(uow, "turn", *turn(a.game, a.prompt, a.since, a.deadline))
