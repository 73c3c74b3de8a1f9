"""Joined writes: what a connection writes in one turn of the event loop leaves in one
``send`` system call.

uvicorn writes a response's head (``http.response.start``) and then its body, each
straight to the socket: two system calls and, on a quiet connection, two segments for
the client to read, where the front's Flask answers (:mod:`arbiter.streams.bridge`)
have both at once. Under the side-by-side load (issue 26) those two writes were a tenth
of a web process's CPU samples: a loopback send does the receiving side's work too.
"""

from __future__ import annotations

HIGH_WATER = 64 * 1024
"""Bytes held past which they are written at once (asyncio's default high-water mark),
when the transport does not tell its own: the transport's flow control (its
``pause_writing``, on which uvicorn's ``send`` waits) sees them within the turn."""


class Joined:
    """A connection's transport as its protocol and request-response cycles see it:
    writes are held until the end of the event loop's turn and then written together;
    before that when they pass the transport's high-water mark, and before any
    ``close`` (uvicorn's graceful shutdown and keep-alive timeout, a refusal, an
    answer's end; the protocol flushes it too when the client's FIN makes the
    transport close itself: whoever closes, what was written goes first). Everything else is
    the transport's own, its ``get_write_buffer_size`` too (the bytes held leave this
    turn: they say nothing of a slow reader, :mod:`arbiter.streams.hub`)."""

    __slots__ = ("high", "held", "loop", "size", "transport")

    def __init__(self, transport, loop) -> None:
        self.transport = transport
        self.loop = loop
        self.held: list[bytes] | None = None
        self.size = 0
        try:
            self.high = transport.get_write_buffer_limits()[1]
        except (AttributeError, NotImplementedError):  # a transport that does not say
            self.high = HIGH_WATER

    def write(self, data: bytes) -> None:
        """Hold ``data`` for this turn of the loop (write all held at once past the
        high-water mark)."""
        if self.held is None:
            self.held = [data]
            self.size = len(data)
            self.loop.call_soon(self.flush)
        else:
            self.held.append(data)
            self.size += len(data)
        if self.size > self.high:
            self.flush()

    def flush(self) -> None:
        """Write what is held, in one write."""
        held, self.held = self.held, None
        if held and not self.transport.is_closing():
            self.transport.write(held[0] if len(held) == 1 else b"".join(held))

    def direct(self):
        """Return the transport itself, what is held written first: for writers that
        write once per turn anyway (the stream hub's, :mod:`arbiter.serve.direct`),
        to which holding would only add a callback per connection."""
        if self.held:
            self.flush()
        return self.transport

    def close(self) -> None:
        """Write what is held, then close."""
        self.flush()
        self.transport.close()

    def __getattr__(self, name: str):
        return getattr(self.transport, name)
