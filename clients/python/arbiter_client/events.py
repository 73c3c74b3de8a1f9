"""``client.events``: a game's log, read once, long-polled or streamed, and the
account's stream of all its games."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, cast, overload

from arbiter_client import streams
from arbiter_client.base import Area, seg
from arbiter_client.types import AccountEvent, MessageEvent, StreamEvent
from arbiter_client.types import Events as EventsAnswer


class Events(Area):
    """``/v1/games/{id}/events``, ``/v1/games/{id}/stream`` and ``/v1/me/stream``."""

    def list(self, game_id: str, after: int = 0, wait: float | None = None) -> EventsAnswer:
        """Return the events after seq ``after`` as the session may see them (hidden
        payloads are ``{"hidden": true}`` until the game is over); with ``wait``, wait
        up to that many seconds (at most 30) for news when there is none yet.

        :raises BadRequest: ``after-past-version``.
        """
        params = {"after": after, "wait": wait}
        path = f"/v1/games/{seg(game_id)}/events"
        return cast(EventsAnswer, self._s.request("GET", path, params=params, wait=wait))

    @overload
    def stream(
        self, game_id: str, after: int = 0, talk: Literal[False] = False
    ) -> Iterator[StreamEvent]: ...
    @overload
    def stream(
        self, game_id: str, after: int = 0, *, talk: Literal[True]
    ) -> Iterator[StreamEvent | MessageEvent]: ...
    def stream(
        self, game_id: str, after: int = 0, talk: bool = False
    ) -> Iterator[StreamEvent] | Iterator[StreamEvent | MessageEvent]:
        """Iterate over the game's events after ``after`` and then each new one as it
        is committed (Server-Sent Events), reconnecting with ``Last-Event-ID``; the
        iteration ends once the game is over. With ``talk``, the messages the token
        may read come too (:class:`~arbiter_client.types.MessageEvent`, no ``seq``).
        See :func:`arbiter_client.streams.game_stream`."""
        return streams.game_stream(self._s, game_id, after, talk)

    def poll(self, game_id: str, after: int = 0, wait: float = 25.0) -> Iterator[StreamEvent]:
        """As :meth:`stream`, by long-polling ``/events`` (for networks where a stream
        cannot pass). See :func:`arbiter_client.streams.long_poll`."""
        return streams.long_poll(self._s, game_id, after, wait)

    @overload
    def mine(
        self, cursor: str | None = None, talk: Literal[False] = False
    ) -> Iterator[AccountEvent]: ...
    @overload
    def mine(
        self, cursor: str | None = None, *, talk: Literal[True]
    ) -> Iterator[AccountEvent | MessageEvent]: ...
    def mine(
        self, cursor: str | None = None, talk: bool = False
    ) -> Iterator[AccountEvent] | Iterator[AccountEvent | MessageEvent]:
        """Iterate over every new event of the account's games (a personal token with
        ``games:read``; ndjson), resuming after ``cursor``; reconnects by itself and
        never ends (break out). Hold one such stream per token: it follows every game.
        With ``talk``, the messages its seats may read come too
        (:class:`~arbiter_client.types.MessageEvent`, with ``game`` and ``cursor``).
        See :func:`arbiter_client.streams.account_stream`."""
        return streams.account_stream(self._s, cursor, talk)
