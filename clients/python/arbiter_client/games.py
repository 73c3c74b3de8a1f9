"""``client.games``: create, list and read games, resign, and the clock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from arbiter_client.base import Area, seg
from arbiter_client.types import (
    JSON,
    ClockEvent,
    Game,
    GameCreated,
    Player,
    Record,
    Resigned,
    TookBack,
    View,
)


def game_body(
    engine: str,
    players: Sequence[Player | str],
    options: JSON | None = None,
    clock: JSON | None = None,
    **more: Any,
) -> JSON:
    """Return the body of ``POST /v1/games`` (a player may be given by name alone;
    None values are left out)."""
    body: JSON = {
        "engine": engine,
        "players": [{"name": p} if isinstance(p, str) else dict(p) for p in players],
        "options": options,
        "clock": clock,
        **more,
    }
    return {k: v for k, v in body.items() if v is not None}


class Games(Area):
    """``/v1/games`` and ``/v1/bulk-games``."""

    def create(
        self,
        engine: str,
        players: Sequence[Player | str],
        *,
        options: JSON | None = None,
        clock: JSON | None = None,
        rated: bool | None = None,
        start_at: str | None = None,
        unfilled: str | None = None,
        idempotency_key: str | None = None,
    ) -> GameCreated:
        """Create a game of ``engine`` for ``players`` (names, or ``{"name", "email"}``);
        return its summary with each seat's token and the creator token (shown this
        once). Needs a personal token with ``games:create`` where creation is closed.

        :raises Unprocessable: unknown engine, wrong player count, bad options.
        :raises RateLimited: too many games created (once the retries are spent).
        """
        body = game_body(
            engine,
            players,
            options,
            clock,
            rated=rated,
            start_at=start_at,
            unfilled=unfilled,
        )
        return cast(
            GameCreated,
            self._s.request("POST", "/v1/games", json=body, idempotency_key=idempotency_key),
        )

    def bulk_create(
        self,
        games: Sequence[JSON],
        *,
        start_at: str | None = None,
        unfilled: str | None = None,
        idempotency_key: str | None = None,
    ) -> list[GameCreated]:
        """Create every game of ``games`` (each a :func:`game_body`) in one
        transaction, or none; return them with their tokens."""
        body = {"games": list(games), "start_at": start_at, "unfilled": unfilled}
        answer = self._s.request(
            "POST",
            "/v1/bulk-games",
            json={k: v for k, v in body.items() if v is not None},
            idempotency_key=idempotency_key,
        )
        return cast(list[GameCreated], answer["games"])

    def list(
        self,
        *,
        status: str | None = None,
        engine: str | None = None,
        player: str | None = None,
        page: int = 1,
        page_size: int = 10,
    ) -> list[Game]:
        """Return one page of games, newest first, filtered by status, engine or a
        player's name."""
        params = {
            "status": status,
            "engine": engine,
            "player": player,
            "page": page,
            "page_size": page_size,
        }
        return cast(list[Game], self._s.request("GET", "/v1/games", params=params))

    def get(self, game_id: str) -> Game:
        """Return a game's public summary: status, version, ``to_act``, prompt.

        :raises NotFound: no such game.
        """
        return cast(Game, self._s.request("GET", f"/v1/games/{seg(game_id)}"))

    def view(self, game_id: str) -> View:
        """Return what the session's seat may see (a spectator's view without a token)."""
        return cast(View, self._s.request("GET", f"/v1/games/{seg(game_id)}/view"))

    def record(self, game_id: str) -> Record:
        """Return the full record of a finished game, its seed revealed (check it with
        ``arbiter verify``).

        :raises Conflict: the game is not over yet.
        """
        return cast(Record, self._s.request("GET", f"/v1/games/{seg(game_id)}/record"))

    def board_svg(self, game_id: str) -> str:
        """Return the board as the session's seat (or a spectator) sees it, as SVG."""
        return cast(str, self._s.request("GET", f"/v1/games/{seg(game_id)}/board.svg"))

    def resign(self, game_id: str, *, idempotency_key: str | None = None) -> Resigned:
        """Resign the session's seat: it ranks last and moves no more.

        :raises Conflict: the game is over, or the seat resigned already.
        """
        path = f"/v1/games/{seg(game_id)}/resign"
        return cast(Resigned, self._s.request("POST", path, idempotency_key=idempotency_key))

    def pause(self, game_id: str, *, idempotency_key: str | None = None) -> ClockEvent:
        """Pause every clock of the game (the creator token, or its creator's account)."""
        path = f"/v1/games/{seg(game_id)}/pause"
        return cast(ClockEvent, self._s.request("POST", path, idempotency_key=idempotency_key))

    def resume(self, game_id: str, *, idempotency_key: str | None = None) -> ClockEvent:
        """Resume a paused game: deadlines move by the pause's length."""
        path = f"/v1/games/{seg(game_id)}/resume"
        return cast(ClockEvent, self._s.request("POST", path, idempotency_key=idempotency_key))

    def extend(
        self,
        game_id: str,
        seconds: int,
        *,
        seat: int | None = None,
        idempotency_key: str | None = None,
    ) -> ClockEvent:
        """Extend ``seat``'s deadline (default: every running one) by ``seconds``."""
        body = {"seconds": seconds} if seat is None else {"seconds": seconds, "seat": seat}
        path = f"/v1/games/{seg(game_id)}/extend"
        return cast(
            ClockEvent,
            self._s.request("POST", path, json=body, idempotency_key=idempotency_key),
        )

    def vacation(
        self, game_id: str, days: int, *, idempotency_key: str | None = None
    ) -> ClockEvent:
        """Declare ``days`` of vacation for the session's seat: its clock stops."""
        path = f"/v1/games/{seg(game_id)}/vacation"
        return cast(
            ClockEvent,
            self._s.request("POST", path, json={"days": days}, idempotency_key=idempotency_key),
        )

    def back(self, game_id: str, *, idempotency_key: str | None = None) -> TookBack:
        """Take the session's seat back from the autopilot ("I'm back")."""
        path = f"/v1/games/{seg(game_id)}/back"
        return cast(TookBack, self._s.request("POST", path, idempotency_key=idempotency_key))
