"""Direct writes: a response's body bytes written straight to the connection's
transport, past the ASGI ``send`` (for the stream hub, :mod:`arbiter.streams.hub`)."""

from __future__ import annotations

from arbiter.serve.joined import Joined

DIRECT_WRITE = "arbiter.direct_write"
"""The ASGI scope extension (``scope["extensions"][DIRECT_WRITE]``) holding a
:class:`DirectWriter` for the request's response."""


class DirectWriter:
    """Writes response body bytes straight to a connection's transport, framed as
    uvicorn's request-response ``cycle`` frames the rest of the response (its
    ``chunked_encoding``: one chunk per write; else the bytes as they are, counted
    against a ``content-length``), without the ASGI ``send``.

    Call it only once the app has sent ``http.response.start`` and before its last
    body message, from the connection's event loop; it never waits: the bytes the
    socket does not take at once stay in the transport's buffer.
    """

    __slots__ = ("cycle",)

    def __init__(self, cycle) -> None:
        self.cycle = cycle

    def __call__(self, data: bytes) -> int | None:
        """Write ``data``; return the bytes waiting in the transport's buffer, or None
        when the response is over or the client has gone (nothing is written).

        :raises RuntimeError: ``data`` is more than the response's ``content-length``
            has left (as uvicorn's ``send`` raises).
        """
        cycle = self.cycle
        transport = cycle.transport
        if isinstance(transport, Joined):
            transport = transport.direct()
        if (
            cycle.disconnected
            or cycle.response_complete
            or not cycle.response_started
            or transport.is_closing()
        ):
            return None
        if data:
            if cycle.chunked_encoding:  # an empty chunk would end the body: none is sent
                transport.write(b"%x\r\n%b\r\n" % (len(data), data))
            else:
                if len(data) > cycle.expected_content_length:
                    raise RuntimeError("Response content longer than Content-Length")
                cycle.expected_content_length -= len(data)
                transport.write(data)
        return transport.get_write_buffer_size()
