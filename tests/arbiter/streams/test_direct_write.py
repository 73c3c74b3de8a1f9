"""The web process's direct writer (:class:`arbiter.serve.DirectWriter`): the stream
hub writes body bytes past the ASGI ``send``, framed as uvicorn frames the rest of
the response, on the web process's real protocol
(:class:`arbiter.serve.ProblemHttpToolsProtocol`) over a fake transport (no socket)."""

from __future__ import annotations

import asyncio

from uvicorn.config import Config
from uvicorn.server import ServerState

from arbiter.serve import DIRECT_WRITE, ProblemHttpToolsProtocol


class Transport(asyncio.Transport):
    """Keeps what is written; ``unsent`` plays the bytes the socket did not take."""

    def __init__(self) -> None:
        super().__init__()
        self.data = b""
        self.closing = False
        self.unsent = 0

    def write(self, data: bytes) -> None:
        self.data += data

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name, default=None):
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def served(app, request: bytes, unsent: int = 0, turns: int = 20) -> bytes:
    """Serve ``request`` with ``app`` on the web process's protocol over a
    :class:`Transport` whose socket leaves ``unsent`` bytes; return the bytes written
    once the loop has turned ``turns`` times."""
    config = Config(app=app, lifespan="off", log_level="critical")
    protocol = ProblemHttpToolsProtocol(config, ServerState(), {}, _loop=asyncio.get_running_loop())
    transport = Transport()
    protocol.connection_made(transport)
    transport.unsent = unsent
    protocol.data_received(request)
    for _ in range(turns):
        await asyncio.sleep(0)
    return transport.data


def exchange(request: bytes) -> tuple[bytes, list]:
    """Serve ``request`` with an app that starts a response, writes ``a`` through ASGI,
    ``bc`` and ``""`` directly, ``d`` through ASGI, ``ef`` directly, and ends; return
    the bytes on the wire and what each direct write returned (the first before the
    start, the last after the end)."""
    returned: list = []

    async def app(scope, receive, send):
        write = scope["extensions"][DIRECT_WRITE]
        returned.append(write(b"too early"))
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/event-stream")],
            }
        )
        await send({"type": "http.response.body", "body": b"a", "more_body": True})
        returned.append(write(b"bc"))
        returned.append(write(b""))
        await send({"type": "http.response.body", "body": b"d", "more_body": True})
        returned.append(write(b"ef"))
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        returned.append(write(b"too late"))

    return asyncio.run(served(app, request, unsent=7, turns=50)), returned


def test_direct_writes_are_chunks_of_the_response_in_order():
    """HTTP/1.1: each direct write is one chunk between the app's own; an empty write
    sends nothing (a zero chunk would end the body); a write before the response
    starts or after it ended sends nothing and says so (None); otherwise the bytes
    still unsent are returned (the hub cuts a reader off on them)."""
    wire, returned = exchange(b"GET /v1/games/g/stream HTTP/1.1\r\nHost: x\r\n\r\n")
    head, _, body = wire.partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower()
    assert body == b"1\r\na\r\n2\r\nbc\r\n1\r\nd\r\n2\r\nef\r\n0\r\n\r\n"
    assert returned == [None, 7, 7, 7, None]


def test_direct_writes_to_an_http_10_client_are_raw_bytes():
    """HTTP/1.0 (no chunking): the bytes go out as they are, and the connection closes
    at the end."""
    wire, returned = exchange(b"GET /v1/games/g/stream HTTP/1.0\r\n\r\n")
    head, _, body = wire.partition(b"\r\n\r\n")
    assert b"chunked" not in head.lower()
    assert body == b"abcdef"
    assert returned == [None, 7, 7, 7, None]


def test_only_get_requests_are_offered_a_direct_writer():
    """A POST's scope has no direct writer (streams are GETs; nothing else needs one)."""
    scopes = []

    async def app(scope, receive, send):
        scopes.append(scope)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def serve():
        config = Config(app=app, lifespan="off", log_level="critical")
        protocol = ProblemHttpToolsProtocol(
            config, ServerState(), {}, _loop=asyncio.get_running_loop()
        )
        protocol.connection_made(Transport())
        protocol.data_received(b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        for _ in range(20):
            await asyncio.sleep(0)

    asyncio.run(serve())
    assert scopes and DIRECT_WRITE not in scopes[0].get("extensions", {})


def test_direct_writes_count_against_a_content_length():
    """A response with a ``content-length``: direct writes are its bytes as they are,
    counted with the app's own; one past the length is refused, as uvicorn's ``send``
    refuses it."""
    refused = []

    async def app(scope, receive, send):
        write = scope["extensions"][DIRECT_WRITE]
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"3")]}
        )
        write(b"ab")
        try:
            write(b"xy")
        except RuntimeError as err:
            refused.append(err)
        await send({"type": "http.response.body", "body": b"c"})

    wire = asyncio.run(served(app, b"GET /v1/x HTTP/1.1\r\nHost: x\r\n\r\n"))
    assert wire.partition(b"\r\n\r\n")[2] == b"abc" and len(refused) == 1
