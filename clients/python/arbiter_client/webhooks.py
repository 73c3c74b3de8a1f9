"""``client.webhooks``: my web hooks (Standard Webhooks deliveries to a URL of mine)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, cast

from arbiter_client.base import Area, seg
from arbiter_client.types import JSON, Webhook, WebhookCreated


class Webhooks(Area):
    """``/v1/me/webhooks`` (a personal token)."""

    def list(self) -> list[Webhook]:
        """Return my web hooks, with their failure counts."""
        return cast(list[Webhook], self._s.request("GET", "/v1/me/webhooks"))

    def create(self, url: str, events: Sequence[str]) -> WebhookCreated:
        """Register ``url`` for ``events`` (``turn``, ``game_over``, ``round_paired``,
        ``tournament_over``); the answer's ``secret`` verifies deliveries (shown once)."""
        body = {"url": url, "events": list(events)}
        return cast(WebhookCreated, self._s.request("POST", "/v1/me/webhooks", json=body))

    def update(
        self,
        hook_id: str,
        *,
        events: Sequence[str] | None = None,
        enabled: bool | None = None,
    ) -> Webhook:
        """Change a hook's events, or enable (or disable) it."""
        body: dict[str, Any] = {}
        if events is not None:
            body["events"] = list(events)
        if enabled is not None:
            body["enabled"] = enabled
        path = f"/v1/me/webhooks/{seg(hook_id)}"
        return cast(Webhook, self._s.request("PATCH", path, json=body))

    def delete(self, hook_id: str) -> None:
        """Delete a hook and its delivery log."""
        self._s.request("DELETE", f"/v1/me/webhooks/{seg(hook_id)}")

    def deliveries(self, hook_id: str, limit: int | None = None) -> builtins.list[JSON]:
        """Return a hook's deliveries, newest first."""
        path = f"/v1/me/webhooks/{seg(hook_id)}/deliveries"
        answer = self._s.request("GET", path, params={"limit": limit})
        return cast(list[JSON], answer["deliveries"])
