"""The base of every API area: a session to send through."""

from __future__ import annotations

from urllib.parse import quote

from arbiter_client.session import Session


class Area:
    """One area of the API (``client.games``, ``client.moves`` ...), sending through
    the client's session."""

    def __init__(self, session: Session) -> None:
        self._s = session


def seg(value: str | int) -> str:
    """Return ``value`` as one URL path segment (quoted)."""
    return quote(str(value), safe="")
