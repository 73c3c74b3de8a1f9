"""The bytes of the streams: Server-Sent Events (WHATWG HTML, "Server-sent events")
and newline-delimited JSON (one object per line, as Lichess's ``/api/stream/event``)."""

from __future__ import annotations

import base64
import binascii
import json
import zlib

from arbiter.errors import ArbiterError

SSE_KEEPALIVE = b": keep-alive\n\n"
"""An SSE comment: keeps proxies and clients from closing an idle stream."""
NDJSON_KEEPALIVE = b"\n"
"""An empty line: the ndjson keep-alive (readers skip blank lines)."""


TALK_EVENT = "talk"
"""The SSE ``event`` name of a message event (its data's ``kind`` is ``message``; SSE's
own default type is ``message``, which an EventSource's ``onmessage`` would take)."""


def event_id(seq: int, talk: int = 0) -> str:
    """Return a game stream's SSE ``id``: the reader's position in the game's log and
    in its talk, ``seq`` alone while no message was sent (``12``), else ``seq-talk``
    (``12-5``). ``Last-Event-ID`` sends it back (:func:`read_positions`)."""
    return f"{seq}-{talk}" if talk else str(seq)


def sse(event: dict, version: int, retry_ms: int | None = None, talk: int = 0) -> bytes:
    """Return one SSE message for ``event`` (an ``/events`` item): ``id`` is its seq
    and the reader's talk position (:func:`event_id`, what ``Last-Event-ID`` sends
    back), ``event`` its kind, ``data`` the event as JSON with the game's ``version``
    when it was sent."""
    data = json.dumps({**event, "version": version}, separators=(",", ":"))
    head = f"retry: {retry_ms}\n" if retry_ms is not None else ""
    ident = event_id(event["seq"], talk)
    return f"{head}id: {ident}\nevent: {event['kind']}\ndata: {data}\n\n".encode()


def sse_talk(game_id: str, message: dict, seq: int) -> bytes:
    """Return the SSE message of a message event (:mod:`arbiter.talk.streamed`) sent
    after game event ``seq``: ``id`` ``seq-talk``, ``event: talk``."""
    data = json.dumps(message, separators=(",", ":"))
    ident = f"{seq}-{message['talk']}"
    return f"id: {ident}\nevent: {TALK_EVENT}\ndata: {data}\n\n".encode()


def ndjson_talk(game_id: str, message: dict, seq: int = 0) -> bytes:
    """Return the ndjson line of a message event of ``game_id``
    (``{"game", "kind": "message", "talk", ...}``, no ``seq``)."""
    return (json.dumps({"game": game_id, **message}, separators=(",", ":")) + "\n").encode()


def ndjson(game_id: str, event: dict, version: int, talk: int = 0) -> bytes:
    """Return one ndjson line for ``event`` of ``game_id`` (``{"game", "seq", "version",
    ...}``; ``talk``, the reader's talk position, is not in the line: the account
    stream's cursor carries it, :func:`with_cursor`)."""
    return (
        json.dumps({"game": game_id, **event, "version": version}, separators=(",", ":")) + "\n"
    ).encode()


def sse_cut(detail: str) -> bytes:
    """Return the SSE message that tells a reader it was cut off and should reconnect
    with its Last-Event-ID."""
    return f"event: cut\ndata: {json.dumps({'detail': detail})}\n\n".encode()


def sse_revoked() -> bytes:
    """Return the SSE message that ends a stream whose personal token was revoked (or
    whose account was deleted): reconnecting with it is refused (401)."""
    detail = "The token that opened this stream has been revoked."
    return f"event: revoked\ndata: {json.dumps({'detail': detail})}\n\n".encode()


def ndjson_replaced() -> bytes:
    """Return the last line of an account stream ended by a newer one of the same
    token (one account stream per token): ``{"end": "replaced", "detail"}``."""
    detail = (
        "This token opened another /v1/me/stream, which replaces this one: one "
        "account stream per token."
    )
    return (json.dumps({"end": "replaced", "detail": detail}) + "\n").encode()


def read_after(raw: str | None, what: str) -> int:
    """Return a seq given by a client (``Last-Event-ID`` or ``after``), 0 when absent.

    :raises ArbiterError: 400 ``bad-last-event-id`` for anything but a seq.
    """
    if raw is None or raw == "":
        return 0
    if not raw.isdigit() or len(raw) > 10:
        raise ArbiterError(
            f"{what} must be the seq of an event, such as 7, not {raw!r}.", code="bad-last-event-id"
        )
    return int(raw)


def read_positions(
    last_event_id: str | None, after: str | None, talk: str | None = None
) -> tuple[int, int]:
    """Return where a game stream starts: ``(seq, talk)``, the game event and the talk
    entry it resumes after. ``Last-Event-ID`` when sent (``12`` or ``12-5``, as
    :func:`event_id` made it), else the ``after`` and ``talk`` query parameters, else
    ``(0, 0)``: the whole log and every message.

    :raises ArbiterError: 400 ``bad-last-event-id`` naming the one that was used.
    """
    if last_event_id:
        seq, dash, told = last_event_id.partition("-")
        what = "Last-Event-ID"
        return read_after(seq, what), read_after(told, what) if dash else 0
    return read_after(after, "The after parameter"), read_after(talk, "The talk parameter")


def read_start(last_event_id: str | None, after: str | None) -> int:
    """Return the seq a game stream starts after: the ``Last-Event-ID`` header when
    sent, else the ``after`` query parameter, else 0.

    :raises ArbiterError: 400 ``bad-last-event-id`` naming the one that was used.
    """
    if last_event_id:
        return read_after(last_event_id, "Last-Event-ID")
    return read_after(after, "The after parameter")


CURSOR_VERSION = "1"
MAX_CURSOR = 32_000
"""The longest cursor read (characters): about 20 per game with its talk position
(about 14 without), 500 games followed, with room to spare."""


def cursor(positions: dict[str, int]) -> str:
    """Return the ``/v1/me/stream`` cursor of ``positions`` (``{game_id: seq}``, the
    last seq sent of each followed game): ``1.`` then the base64url of the
    zlib-compressed ``id:seq,id:seq`` list. A reconnecting client sends it back
    (``Last-Event-ID`` or ``?cursor=``) and gets every event after it exactly once."""
    text = ",".join(f"{g}:{seq}" for g, seq in sorted(positions.items()))
    packed = base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).rstrip(b"=")
    return f"{CURSOR_VERSION}.{packed.decode()}"


def read_cursor(raw: str | None) -> dict[str, int] | None:
    """Return the positions of a cursor made by :func:`cursor` (None when absent).

    :raises ArbiterError: 400 ``bad-cursor`` for anything else.
    """
    if raw is None or raw == "":
        return None
    bad = ArbiterError(
        "The cursor must be one a /v1/me/stream line carried, sent back unchanged.",
        code="bad-cursor",
    )
    version, _, packed = raw.partition(".")
    if version != CURSOR_VERSION or not packed or len(raw) > MAX_CURSOR:
        raise bad
    try:
        unpack = zlib.decompressobj()
        text = unpack.decompress(
            base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)), MAX_CURSOR * 4
        )  # bounded: no zip bomb
        if unpack.unconsumed_tail or not unpack.eof:
            raise ValueError("cursor too long or truncated")
        text = text.decode()
        pairs = [item.rsplit(":", 1) for item in text.split(",")] if text else []
        return {game: int(seq) for game, seq in pairs if int(seq) >= 0}
    except (ValueError, binascii.Error, zlib.error, UnicodeDecodeError):
        raise bad from None


def with_cursor(line: bytes, positions: dict[str, int]) -> bytes:
    """Return an ndjson event line (from :func:`ndjson`) with ``"cursor"`` added: the
    cursor of ``positions`` once this line is received."""
    return line[:-2] + b',"cursor":"' + cursor(positions).encode() + b'"}\n'
