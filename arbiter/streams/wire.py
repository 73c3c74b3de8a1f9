"""The bytes of the streams: Server-Sent Events (WHATWG HTML, "Server-sent events")
and newline-delimited JSON (one object per line, as Lichess's ``/api/stream/event``)."""

from __future__ import annotations

import json

from arbiter.errors import ArbiterError

SSE_KEEPALIVE = b": keep-alive\n\n"
"""An SSE comment: keeps proxies and clients from closing an idle stream."""
NDJSON_KEEPALIVE = b"\n"
"""An empty line: the ndjson keep-alive (readers skip blank lines)."""


def sse(event: dict, version: int, retry_ms: int | None = None) -> bytes:
    """Return one SSE message for ``event`` (an ``/events`` item): ``id`` is its seq
    (what ``Last-Event-ID`` sends back), ``event`` its kind, ``data`` the event as
    JSON with the game's ``version`` when it was sent."""
    data = json.dumps({**event, "version": version}, separators=(",", ":"))
    head = f"retry: {retry_ms}\n" if retry_ms is not None else ""
    return f"{head}id: {event['seq']}\nevent: {event['kind']}\ndata: {data}\n\n".encode()


def ndjson(game_id: str, event: dict, version: int) -> bytes:
    """Return one ndjson line for ``event`` of ``game_id`` (``{"game", "seq", "version",
    ...}``)."""
    return (json.dumps({"game": game_id, **event, "version": version},
                       separators=(",", ":")) + "\n").encode()


def sse_cut(detail: str) -> bytes:
    """Return the SSE message that tells a reader it was cut off and should reconnect
    with its Last-Event-ID."""
    return f"event: cut\ndata: {json.dumps({'detail': detail})}\n\n".encode()


def read_after(raw: str | None, what: str) -> int:
    """Return a seq given by a client (``Last-Event-ID`` or ``after``), 0 when absent.

    :raises ArbiterError: 400 ``bad-last-event-id`` for anything but a seq.
    """
    if raw is None or raw == "":
        return 0
    if not raw.isdigit() or len(raw) > 10:
        raise ArbiterError(f"{what} must be the seq of an event, such as 7, not {raw!r}.",
                           code="bad-last-event-id")
    return int(raw)
