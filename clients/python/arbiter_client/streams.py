"""The service's streams as plain iterators that reconnect by themselves.

- :func:`game_stream`: ``GET /v1/games/{id}/stream`` (Server-Sent Events). After a
  broken connection, a slow-reader cut (``event: cut``) or a server restart it
  reconnects with ``Last-Event-ID``: every event comes exactly once, in order. It ends
  when the game is over and its last event was read (the service then answers 204).

Both streams carry the game's talk too (``event: talk``, lines of ``kind``
``"message"``, without ``seq``): with ``talk=True`` the iterators yield those as
:class:`~arbiter_client.types.MessageEvent`, else they skip them (still resuming
after them, so that none comes twice).
- :func:`account_stream`: ``GET /v1/me/stream`` (ndjson): every new event of the
  account's games; it reconnects with the last line's ``cursor`` and never ends by
  itself (break out of the loop), unless another stream of the same token replaces
  it (:class:`~arbiter_client.errors.StreamReplaced`).
- :func:`long_poll`: ``GET /v1/games/{id}/events?after=N&wait=S`` in a loop, for where
  a stream cannot pass (a proxy that buffers); it ends when the game is over.

A refusal (401 revoked token, 404 ...) is raised as the typed error; 429 and 503 wait
their ``Retry-After`` as every request does (:class:`arbiter_client.session.Retry`), and
a lost connection is tried again with the policy's back-off, its tries counted afresh
after every connection that delivered something.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import cast

import httpx
from httpx_sse import EventSource

from arbiter_client.errors import StreamReplaced, TransportError
from arbiter_client.session import Session
from arbiter_client.types import AccountEvent, Events, MessageEvent, StreamEvent

log = logging.getLogger("arbiter_client")


def game_stream(
    session: Session, game_id: str, after: int = 0, talk: bool = False
) -> Iterator[StreamEvent | MessageEvent]:
    """Yield the events of ``game_id`` after seq ``after`` as the session's token may
    see them, then each new one as it is committed, until the game is over; with
    ``talk``, the messages the token may read among them (from the first, each once).

    :raises ApiError: the service refused the stream (404 no such game ...).
    :raises TransportError: the connection kept failing past the retry policy.
    """
    last, failures = str(after), 0
    while True:
        delivered = False
        try:
            with session.stream(
                f"/v1/games/{game_id}/stream",
                headers={"Accept": "text/event-stream", "Last-Event-ID": str(last)},
            ) as response:
                if response.status_code == 204:  # over, nothing after `last`
                    return
                for message in EventSource(response).iter_sse():
                    if message.event in ("cut", "revoked") or not message.data:
                        continue  # the connection ends; reconnecting says why, if refused
                    event = json.loads(message.data)
                    last, delivered = message.id or str(event.get("seq", last)), True
                    if message.event == "talk":
                        if talk:
                            yield cast(MessageEvent, event)
                        continue
                    yield cast(StreamEvent, event)
        except (httpx.TransportError, TransportError) as err:
            failures = _after_connection(session, delivered, failures, err)
            continue
        failures = _after_connection(session, delivered, failures, None)


def account_stream(
    session: Session, cursor: str | None = None, talk: bool = False
) -> Iterator[AccountEvent | MessageEvent]:
    """Yield every new event of the games the account (a personal token with
    ``games:read``) holds a seat in, each as that seat may see it, resuming after
    ``cursor`` (a line's ``cursor``) when given; with ``talk``, the messages of
    those games the seat may read too. Games created after the stream
    connected are followed as soon as the account is seated in them, from their
    first event. Never ends by itself.

    :raises ApiError: the service refused the stream (401 revoked token ...).
    :raises StreamReplaced: the token opened another account stream, which replaced
        this one (one per token).
    :raises TransportError: the connection kept failing past the retry policy.
    """
    failures = 0
    while True:
        delivered = False
        headers = {"Accept": "application/x-ndjson"}
        if cursor:
            headers["Last-Event-ID"] = cursor
        try:
            with session.stream("/v1/me/stream", headers=headers) as response:
                for line in response.iter_lines():
                    if not line.strip():
                        continue  # keep-alive
                    raw = json.loads(line)
                    if "end" in raw:  # {"end": "replaced"}: a newer stream of this token
                        raise StreamReplaced(str(raw.get("detail") or raw["end"]))
                    cursor, delivered = raw.get("cursor") or cursor, True
                    if raw.get("kind") == "message" and "seq" not in raw:
                        if talk:
                            yield cast(MessageEvent, raw)
                        continue
                    yield cast(AccountEvent, raw)
        except (httpx.TransportError, TransportError) as err:
            failures = _after_connection(session, delivered, failures, err)
            continue
        failures = _after_connection(session, delivered, failures, None)


def long_poll(
    session: Session, game_id: str, after: int = 0, wait: float = 25.0
) -> Iterator[StreamEvent]:
    """Yield the events of ``game_id`` after seq ``after`` by long-polling ``/events``
    (each poll waits up to ``wait`` seconds, at most the service's 30), until the game
    is over and every event was read.

    :raises ApiError: the service refused a poll.
    :raises TransportError: a poll could not be delivered.
    """
    while True:
        answer = cast(
            Events,
            session.request(
                "GET",
                f"/v1/games/{game_id}/events",
                params={"after": after, "wait": wait},
                wait=wait,
            ),
        )
        for event in answer.get("events", []):
            after = event["seq"]
            yield cast(StreamEvent, {**event, "version": answer.get("version", after)})
        if not answer.get("events"):
            summary = session.request("GET", f"/v1/games/{game_id}")
            if summary["status"] in ("over", "cancelled") and after >= summary["version"]:
                return


def _after_connection(
    session: Session, delivered: bool, failures: int, err: Exception | None
) -> int:
    """Return the count of connections in a row that brought nothing, this one
    included; before reconnecting after such a one, wait as the retry policy says.

    :raises TransportError: the policy is spent.
    """
    if delivered:
        return 0  # reconnect at once
    failures += 1
    wait = session.retry.wait(failures, None)
    if wait is None:
        raise TransportError(f"the stream kept ending without news: {err!r}") from err
    log.info("stream ended (%r); reconnecting in %.1f s", err, wait)
    session.retry.sleep(wait)
    return failures
