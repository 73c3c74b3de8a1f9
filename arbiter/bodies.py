"""Request bodies: read whole by the web process's event loop, bounded in size and time,
before a Flask thread sees them; and held to ``MAX_CONTENT_LENGTH`` without a
``Content-Length`` too.

A Flask thread that reads a body from the socket waits as long as the client takes:
a hundred clients sending a byte a second held every thread (issue 22). So the ASGI
front (:class:`arbiter.streams.asgi.Front`) first reads the body with
:func:`read_body` (up to the route's limit, :func:`body_limit`; at the pace
:class:`Pace` asks, else :class:`TooSlow`), then hands Flask the whole body in memory
(:func:`replay`). A body announced larger than the limit is not read: Flask refuses it
at once (413). Flask authenticates and rate-limits before it parses or validates a
body, as before; only the bytes' arrival comes first (as a buffering proxy in front,
nginx's default, would do).

werkzeug reads such a body through a ``LimitedStream`` that stops at the limit, but
``get_data`` then returns the first ``MAX_CONTENT_LENGTH`` bytes as if they were the
whole body (werkzeug raises 413 only on a read after the limit): a body over the limit
would be read cut short (a 400 about malformed JSON). :class:`BoundedRequest` makes
that 413 ``body-too-large``, as for a ``Content-Length`` over the limit.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import LimitedStream

from arbiter.settings import Connections, Limits


class BoundedRequest(Request):
    """Flask's request, whose streamed body over ``max_content_length`` is 413."""

    def get_data(self, cache: bool = True, as_text: bool = False, parse_form_data: bool = False):
        """Return the body as werkzeug does.

        :raises RequestEntityTooLarge: a body without a length goes on past
            ``max_content_length``.
        """
        streamed = self.content_length is None and "stream" not in self.__dict__
        data = super().get_data(cache, as_text, parse_form_data)
        stream = self.__dict__.get("stream")
        if (
            streamed
            and isinstance(stream, LimitedStream)
            and stream.is_exhausted
            and self.environ["wsgi.input"].read(1)
        ):
            raise RequestEntityTooLarge()
        return data


BULK_PATH = "/v1/bulk-games"
"""The one route whose body may be up to ``BULK_BODY_BYTES`` (its ``before_request``
raises Flask's limit; the front must know it before Flask runs)."""


class TooSlow(Exception):
    """A request body did not arrive at the pace :class:`Pace` asks."""


@dataclass(frozen=True)
class Pace:
    """How fast a request body must arrive: within ``seconds``
    (``BODY_TIMEOUT_SECONDS``) plus a second per ``rate`` bytes received
    (``BODY_MIN_RATE``), never over ``most`` seconds (``BODY_MAX_SECONDS``)."""

    seconds: float
    rate: float
    most: float

    @classmethod
    def of(cls, connections: Connections) -> Pace:
        """Return the pace the ``connections`` settings ask."""
        return cls(
            connections.body_timeout_seconds,
            connections.body_min_rate,
            connections.body_max_seconds,
        )

    def deadline(self, start: float, received: int) -> float:
        """Return the loop time by which the body begun at ``start`` must be over,
        ``received`` bytes of it being in."""
        return start + min(self.most, self.seconds + received / max(self.rate, 1.0))


def body_limit(scope: dict, limits: Limits) -> int:
    """Return the largest body the request of ASGI ``scope`` may send (bytes)."""
    if scope["path"].rstrip("/") == BULK_PATH:
        return max(limits.bulk_body_bytes, limits.max_content_length)
    return limits.max_content_length


def announced(scope: dict) -> int | None:
    """Return the body length the request of ASGI ``scope`` announces: its
    ``Content-Length``, -1 for a chunked body (length unknown), None for no body."""
    length = None
    for name, value in scope["headers"]:
        if name == b"content-length":
            length = int(value)  # the parser refused a length not a number
        elif name == b"transfer-encoding":
            return -1
    return length or None


async def read_body(receive, limit: int, pace: Pace) -> bytes | None:
    """Read a request body through the ASGI ``receive`` until it ends or is over
    ``limit`` bytes; return what was read (longer than ``limit``: over it), or None
    when the client went away.

    :raises TooSlow: the body did not arrive at ``pace``.
    """
    loop = asyncio.get_running_loop()
    start = loop.time()
    data = bytearray()
    while True:
        try:
            async with asyncio.timeout_at(pace.deadline(start, len(data))):
                message = await receive()
        except TimeoutError:
            raise TooSlow() from None
        if message["type"] != "http.request":
            return None
        data += message.get("body", b"")
        if len(data) > limit or not message.get("more_body"):
            return bytes(data)


def replay(data: bytes, receive):
    """Return an ASGI ``receive`` that gives ``data`` as the whole body, then what
    ``receive`` gives (the rest of a body over the limit, to drain; a disconnect)."""
    given = False

    async def receive_again() -> dict:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": data, "more_body": False}

    return receive_again
