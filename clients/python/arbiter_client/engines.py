"""``client.engines``: the rules engines the service has."""

from __future__ import annotations

from typing import cast

from arbiter_client.base import Area, seg
from arbiter_client.types import Engine


class Engines(Area):
    """``/v1/engines``."""

    def list(self) -> list[Engine]:
        """Return every engine: id, player counts, options, move notation."""
        return cast(list[Engine], self._s.request("GET", "/v1/engines"))

    def get(self, engine_id: str) -> Engine:
        """Return one engine (with its component data, where it has some).

        :raises NotFound: no such engine.
        """
        return cast(Engine, self._s.request("GET", f"/v1/engines/{seg(engine_id)}"))
