"""``client.campaigns``: a series of games (Star Maps) whose unlocks carry over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from arbiter_client.base import Area, seg
from arbiter_client.games import game_body
from arbiter_client.types import JSON, GameCreated, Player


class Campaigns(Area):
    """``/v1/campaigns`` (the next game needs the organiser token of the creation)."""

    def create(
        self,
        engine: str,
        players: Sequence[Player | str],
        *,
        name: str | None = None,
        options: JSON | None = None,
    ) -> JSON:
        """Create a campaign; the answer's ``token`` is the organiser token (shown once)."""
        body = game_body(engine, players, options, name=name)
        return cast(JSON, self._s.request("POST", "/v1/campaigns", json=body))

    def get(self, campaign_id: str) -> JSON:
        """Return a campaign: what carries over so far, and its games."""
        return cast(JSON, self._s.request("GET", f"/v1/campaigns/{seg(campaign_id)}"))

    def next_game(
        self,
        campaign_id: str,
        *,
        options: JSON | None = None,
        clock: JSON | None = None,
        idempotency_key: str | None = None,
    ) -> GameCreated:
        """Start the campaign's next game with the unlocks so far (organiser token)."""
        body = {k: v for k, v in {"options": options, "clock": clock}.items() if v is not None}
        path = f"/v1/campaigns/{seg(campaign_id)}/games"
        return cast(
            GameCreated,
            self._s.request("POST", path, json=body, idempotency_key=idempotency_key),
        )
