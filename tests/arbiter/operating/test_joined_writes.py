"""What a connection writes in one event-loop turn leaves in one write
(:class:`arbiter.serve.joined.Joined`, issue 26), on uvicorn's real protocol over a
transport that records each write (a real socket for a client's FIN)."""

from __future__ import annotations

import asyncio
import socket

import pytest
import uvloop
from uvicorn.config import Config
from uvicorn.server import ServerState

from arbiter.serve import DIRECT_WRITE, ProblemHttpToolsProtocol
from tests.arbiter.streams.test_direct_write import Transport as Recording


class Transport(Recording):
    """Also keeps each write apart, and how many were made when it closed."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed_after: int | None = None

    def write(self, data: bytes) -> None:
        assert not self.closing, "written after close"
        self.writes.append(bytes(data))
        super().write(data)

    def close(self) -> None:
        self.closed_after = len(self.writes)
        super().close()


def serve(app, request: bytes, transport=Transport) -> Transport:
    """Serve ``request`` on the web process's protocol over ``transport(protocol)``
    (or a :class:`Transport`) with ``app(protocol)``'s answer; return the transport
    once the loop has turned 30 times."""

    async def scenario():
        config = Config(app=None, lifespan="off", log_level="critical")
        protocol = ProblemHttpToolsProtocol(
            config, ServerState(), {}, _loop=asyncio.get_running_loop()
        )
        protocol.app = app(protocol)
        written = transport(protocol) if transport is not Transport else Transport()
        protocol.connection_made(written)
        protocol.data_received(request)
        for _ in range(30):
            await asyncio.sleep(0)
        return written

    return asyncio.run(scenario())


async def whole(scope, receive, send):
    """Answer at once, head and body (as the Flask bridge does)."""
    headers = [(b"content-length", b"2")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"ok"})


def answer(protocol):
    return whole


GET = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


def test_a_head_and_its_body_leave_in_one_write():
    transport = serve(answer, GET)
    (written,) = transport.writes
    assert written.startswith(b"HTTP/1.1 200 ") and written.endswith(b"\r\n\r\nok")
    assert transport.closed_after is None  # kept alive


def test_an_answer_that_closes_is_written_before_the_close():
    transport = serve(answer, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert len(transport.writes) == 1 and transport.writes[0].endswith(b"ok")
    assert transport.closed_after == 1


def test_a_head_answer_without_body_bytes_is_still_written():
    transport = serve(answer, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert len(transport.writes) == 1 and transport.writes[0].endswith(b"\r\n\r\n")


def test_a_head_is_not_held_past_its_turn():
    """A stream's head goes out before its first event is ready."""
    seen: list[list[bytes]] = []

    def stream(protocol):
        async def app(scope, receive, send):
            await send({"type": "http.response.start", "status": 200, "headers": []})
            for _ in range(3):
                await asyncio.sleep(0)
            seen.append(list(protocol.transport.transport.writes))
            await send({"type": "http.response.body", "body": b"event", "more_body": False})

        return app

    transport = serve(stream, GET)
    assert len(seen[0]) == 1 and seen[0][0].startswith(b"HTTP/1.1 200 ")
    assert transport.writes[1:] == [b"5\r\nevent\r\n0\r\n\r\n"]


def test_pipelined_answers_keep_their_order():
    transport = serve(answer, GET * 3)
    wire = b"".join(transport.writes)
    assert wire.count(b"HTTP/1.1 200 ") == 3 and wire.endswith(b"ok")
    assert all(w.startswith(b"HTTP/1.1 200 ") and w.endswith(b"ok") for w in transport.writes)


def test_a_graceful_shutdown_in_the_same_turn_sends_the_answer_first():
    """uvicorn's shutdown closes every connection in one step; an answer completed
    earlier in that turn (still held) goes out before the close."""

    def shut_down(protocol):
        async def app(scope, receive, send):
            asyncio.get_running_loop().call_soon(protocol.shutdown)  # the server's step
            await whole(scope, receive, send)

        return app

    transport = serve(shut_down, b"POST /v1/games/x/moves HTTP/1.1\r\nHost: x\r\n\r\n")
    assert transport.closed_after == 1 and transport.writes[0].endswith(b"\r\n\r\nok")


def test_a_reader_that_reads_nothing_still_meets_flow_control():
    """Bytes held past the high-water mark are written at once, so the transport's
    flow control (its ``pause_writing``, which uvicorn's ``send`` waits on) stops a
    stream's backlog for a reader that reads nothing."""
    chunk, high = 10_000, 65_536
    got_past: list[int] = []

    class Full(Transport):
        """A socket whose reader reads nothing: past ``high`` it pauses the writer."""

        def __init__(self, protocol) -> None:
            super().__init__()
            self.protocol, self.size = protocol, 0

        def write(self, data: bytes) -> None:
            super().write(data)
            paused, self.size = self.size > high, self.size + len(data)
            if self.size > high and not paused:
                self.protocol.pause_writing()

    def backlog(protocol):
        async def app(scope, receive, send):
            await send({"type": "http.response.start", "status": 200, "headers": []})
            for i in range(100):
                await send({"type": "http.response.body", "body": b"x" * chunk, "more_body": True})
                got_past.append(i)

        return app

    transport = serve(backlog, b"GET /v1/games/x/stream HTTP/1.1\r\nHost: x\r\n\r\n", Full)
    assert transport.size < 2 * high and len(got_past) < 10, (transport.size, len(got_past))


def test_a_direct_write_goes_out_at_once_after_what_is_held():
    """The stream hub's direct writes (one per connection and notice) are not held:
    what the answer wrote before goes first, then the bytes, within the call."""
    seen: list[list[bytes]] = []

    def stream(protocol):
        async def app(scope, receive, send):
            await send({"type": "http.response.start", "status": 200, "headers": []})
            scope["extensions"][DIRECT_WRITE](b"event")
            seen.append(list(protocol.transport.transport.writes))
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        return app

    serve(stream, GET)
    head, event = seen[0]
    assert head.startswith(b"HTTP/1.1 200 ") and event == b"5\r\nevent\r\n"


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_an_answer_written_as_the_clients_fin_arrives_is_sent(loop):
    """A client that sends its request and then shuts its side (FIN): the transport
    closes itself on the FIN (uvicorn's ``eof_received``), after what is held is
    written. Over a real socket."""

    async def scenario():
        running = asyncio.get_running_loop()
        config = Config(app=whole, lifespan="off", log_level="critical")
        config.load()
        state = ServerState()
        server = await running.create_server(
            lambda: ProblemHttpToolsProtocol(config, state, {}, _loop=running), "127.0.0.1", 0
        )
        client = socket.create_connection(("127.0.0.1", server.sockets[0].getsockname()[1]))
        client.sendall(GET)
        client.shutdown(socket.SHUT_WR)
        client.setblocking(False)
        got = b""
        for _ in range(200):
            await asyncio.sleep(0.005)
            try:
                chunk = client.recv(65536)
            except BlockingIOError:
                continue
            if not chunk:
                break
            got += chunk
        client.close()
        server.close()
        return got

    got = uvloop.run(scenario()) if loop == "uvloop" else asyncio.run(scenario())
    assert got.startswith(b"HTTP/1.1 200 ") and got.endswith(b"ok"), got
