"""Joined writes: what a response writes in one turn of the event loop leaves in one
``send`` system call.

uvicorn writes a response's head (``http.response.start``) and then its body, each
straight to the socket: two system calls and, on a quiet connection, two segments for
the client to read, where the front's Flask answers (:mod:`arbiter.streams.bridge`)
have both at once. Under the side-by-side load (issue 26) those two writes were a tenth
of a web process's CPU samples: a loopback send does the receiving side's work too.
"""

from __future__ import annotations


class Joined:
    """A connection's transport as a request-response cycle sees it: writes are held
    until the end of the event loop's turn and then written together (before a
    ``close``, and whenever :meth:`flush` is called); everything else is the
    transport's own, its ``get_write_buffer_size`` too (the bytes held leave this turn:
    they say nothing of a slow reader, :mod:`arbiter.streams.hub`)."""

    __slots__ = ("held", "loop", "transport")

    def __init__(self, transport, loop) -> None:
        self.transport = transport
        self.loop = loop
        self.held: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        """Hold ``data`` for this turn of the loop."""
        if self.held is None:
            self.held = [data]
            self.loop.call_soon(self.flush)
        else:
            self.held.append(data)

    def flush(self) -> None:
        """Write what is held, in one write."""
        held, self.held = self.held, None
        if held and not self.transport.is_closing():
            self.transport.write(held[0] if len(held) == 1 else b"".join(held))

    def close(self) -> None:
        """Write what is held, then close."""
        self.flush()
        self.transport.close()

    def __getattr__(self, name: str):
        return getattr(self.transport, name)
