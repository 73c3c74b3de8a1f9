"""Unfinished connections on the web process's HTTP protocol
(:class:`arbiter.serve.ProblemHttpToolsProtocol`, issue 22): the head deadline, the
caps per client address and per process, trusted proxies, and the bytes of a body
answered early. On uvicorn's real protocol over fake transports (no socket); the same against
the real process is ``tests/contract/test_slow_clients.py``."""

from __future__ import annotations

import asyncio
import gc
import json
import weakref

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from arbiter.serve import ProblemHttpToolsProtocol, client_key


class Transport(asyncio.Transport):
    """Keeps what is written; closes when told (no ``connection_lost`` follows)."""

    def __init__(self, peer: str) -> None:
        super().__init__()
        self.peer = peer
        self.data = b""
        self.closing = False

    def write(self, data: bytes) -> None:
        self.data += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name, default=None):
        info = {"peername": (self.peer, 5000), "sockname": ("127.0.0.1", 8000)}
        return info.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def status(self) -> int | None:
        """Return the status of the answer written, if any."""
        return int(self.data.split()[1]) if self.data else None

    def code(self) -> str:
        """Return the problem ``code`` of the answer written."""
        return json.loads(self.data.partition(b"\r\n\r\n")[2])["code"]


async def app(scope, receive, send):
    """Answer 401 at once, without reading the body (as Flask once did)."""
    await send({"type": "http.response.start", "status": 401, "headers": []})
    await send({"type": "http.response.body", "body": b"no"})


class Server:
    """Connections to one protocol server (one web process's state)."""

    def __init__(self, forwarded: str = "", asgi=app, **limits) -> None:
        self.config = Config(app=asgi, lifespan="off", log_level="critical")
        self.config.forwarded_allow_ips = forwarded
        self.state = ServerState()
        self.limits = {
            "MAX_REQUEST_LINE": 8190,
            "MAX_REQUEST_HEAD": 16 * 1024,
            "HEAD_TIMEOUT_SECONDS": 10.0,
            "KEEPALIVE_SECONDS": 5.0,
            "CLIENT_MAX_PENDING": 32,
            "WEB_MAX_PENDING": 512,
            "SLOW_AFTER_SECONDS": 0.0,
            **limits,
        }

    def connect(self, peer: str = "192.0.2.1", data: bytes = b"") -> Transport:
        protocol = ProblemHttpToolsProtocol(
            self.config, self.state, {}, _loop=asyncio.get_running_loop()
        )
        protocol.limits = self.limits
        transport = Transport(peer)
        protocol.connection_made(transport)
        if data:
            protocol.data_received(data)
        transport.protocol = protocol
        return transport


HEAD = b"GET /v1/engines HTTP/1.1\r\nHost: t\r\nX-a: "


def run(coroutine):
    return asyncio.run(coroutine)


def test_a_head_not_complete_in_time_is_408_and_closed():
    async def scenario():
        server = Server(HEAD_TIMEOUT_SECONDS=0.05)
        begun = server.connect(data=HEAD)
        silent = server.connect()
        await asyncio.sleep(0.15)
        return begun, silent

    begun, silent = run(scenario())
    assert begun.closing and begun.status() == 408 and begun.code() == "head-too-slow"
    assert silent.closing and silent.data == b"", "a connection that sent nothing is just closed"


def test_a_head_deadline_stops_once_the_head_is_in():
    async def scenario():
        server = Server(HEAD_TIMEOUT_SECONDS=0.05)
        transport = server.connect(data=HEAD)
        transport.protocol.data_received(b"b\r\nContent-Length: 10\r\n\r\n")
        await asyncio.sleep(0.15)
        return transport

    transport = run(scenario())
    assert transport.status() == 401 and not transport.closing


def test_an_address_past_its_cap_closes_its_oldest_unfinished_connection():
    """The newcomer is served, the oldest gives way (429 if its request had begun);
    other addresses are not touched."""

    async def scenario():
        server = Server(CLIENT_MAX_PENDING=2)
        other = server.connect("192.0.2.9", HEAD)
        first, second = server.connect(data=HEAD), server.connect(data=HEAD)
        third = server.connect(data=HEAD)
        idle = server.connect()  # a fresh connection: it evicts the second
        return other, first, second, third, idle

    other, first, second, third, idle = run(scenario())
    assert first.closing and first.status() == 429 and first.code() == "too-many-connections"
    assert b"retry-after: 1" in first.data.lower()
    assert second.closing and second.status() == 429
    assert not third.closing and not idle.closing and not other.closing


def test_a_burst_of_new_connections_is_cut_only_once_it_lingers():
    """Connections younger than SLOW_AFTER_SECONDS do not give way, however many;
    once they have waited that long, the oldest over the cap do."""

    async def scenario():
        server = Server(CLIENT_MAX_PENDING=2, SLOW_AFTER_SECONDS=0.05)
        burst = [server.connect() for _ in range(5)]
        at_once = [c.closing for c in burst]
        await asyncio.sleep(0.02)
        newcomer = server.connect()
        soon = [c.closing for c in burst]
        await asyncio.sleep(0.1)
        return at_once, soon, [c.closing for c in burst], newcomer.closing

    at_once, soon, later, newcomer = run(scenario())
    assert at_once == soon == [False] * 5
    assert later == [True, True, True, True, False] and not newcomer


def test_an_idle_connection_gives_way_silently():
    async def scenario():
        server = Server(CLIENT_MAX_PENDING=1)
        idle = server.connect()
        server.connect(data=HEAD)
        return idle

    idle = run(scenario())
    assert idle.closing and idle.data == b""


def test_the_process_cap_closes_the_oldest_of_any_address():
    async def scenario():
        server = Server(WEB_MAX_PENDING=3)
        return [server.connect(f"192.0.2.{i}", HEAD) for i in range(5)]

    conns = run(scenario())
    assert [c.closing for c in conns] == [True, True, False, False, False]


def test_answered_connections_do_not_count():
    """A connection whose request is in (being answered: a stream, Flask) is not
    unfinished, so it never gives way."""

    async def scenario():
        async def streaming(scope, receive, send):
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await asyncio.sleep(1)

        server = Server(asgi=streaming, CLIENT_MAX_PENDING=1)
        stream = server.connect(data=b"GET /v1/me/stream HTTP/1.1\r\nHost: t\r\n\r\n")
        await asyncio.sleep(0.01)
        others = [server.connect(data=HEAD) for _ in range(3)]
        return stream.closing, [c.closing for c in others]

    stream_closed, others_closed = run(scenario())
    assert not stream_closed
    assert others_closed == [True, True, False]


def test_a_trusted_proxy_is_not_counted():
    async def scenario():
        server = Server("10.0.0.0/8", CLIENT_MAX_PENDING=1)
        return [server.connect("10.1.2.3", HEAD) for _ in range(3)]

    assert not any(c.closing for c in run(scenario()))


def test_a_closed_connection_is_forgotten():
    async def scenario():
        server = Server()
        conns = [server.connect(data=HEAD), server.connect()]
        counted = len(server.state.arbiter_pending.all)
        for conn in conns:
            conn.protocol.connection_lost(None)
        return counted, server.state.arbiter_pending

    counted, pending = run(scenario())
    assert counted == 2 and not pending.all and not pending.clients


def test_ipv6_addresses_count_per_64():
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::2")
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"


def test_the_rest_of_a_body_answered_early_is_not_read_as_a_head():
    """Issue 22 item 6: a 401 before the body was read; the body's 60 KB that follow
    were once measured as the next request line (414 ``uri-too-long``)."""

    async def scenario():
        server = Server()
        body = b"x" * 60_000
        transport = server.connect(
            data=b"POST /v1/x HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body)
        )
        await asyncio.sleep(0.01)  # the app answers 401
        transport.protocol.data_received(body + b"GET /v1/engines HTTP/1.1\r\nHost: t\r\n\r\n")
        await asyncio.sleep(0.01)
        return transport

    transport = run(scenario())
    assert transport.data.count(b"HTTP/1.1 401") == 2, transport.data[:300]
    assert not transport.closing


@pytest.mark.parametrize("line", [b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n"])
def test_a_long_line_on_a_kept_alive_connection_is_still_414(line):
    async def scenario():
        server = Server()
        transport = server.connect(data=b"GET /v1/engines HTTP/1.1\r\nHost: t\r\n\r\n")
        await asyncio.sleep(0.01)
        transport.data = b""
        transport.protocol.data_received(line)
        return transport

    transport = run(scenario())
    assert transport.status() == 414 and transport.closing


def test_a_head_over_its_limit_is_431_however_its_bytes_arrive():
    """The parser (llhttp) has no head limit of its own: a head trickled a few bytes at
    a time, or begun after another request in the same bytes, is measured too."""

    async def scenario():
        server = Server(MAX_REQUEST_HEAD=1024)
        trickled = server.connect(data=HEAD)
        pipelined = server.connect(data=b"GET /v1/engines HTTP/1.1\r\nHost: t\r\n\r\n" + HEAD)
        await asyncio.sleep(0.01)  # the first request is answered
        for transport in (trickled, pipelined):
            for _ in range(200):
                if transport.closing:
                    break
                transport.protocol.data_received(b"y" * 20)
        return trickled, pipelined

    for transport in run(scenario()):
        assert transport.closing
        assert transport.data.rpartition(b"HTTP/1.1 ")[2].startswith(b"431")
        assert json.loads(transport.data.rpartition(b"\r\n\r\n")[2])["code"] == "headers-too-large"


def test_a_request_the_parser_cannot_read_is_a_400_problem():
    async def scenario():
        return Server().connect(data=b"NOT A REQUEST\r\n\r\n")

    transport = run(scenario())
    assert transport.closing and transport.status() == 400 and transport.code() == "bad-request"


def test_a_finished_connection_is_not_held_by_the_loop():
    """No timer keeps a connection once it is answered and closed (a timer per
    connection held each for SLOW_AFTER_SECONDS: hundreds of dead protocols a second,
    each costing the garbage collector)."""

    async def scenario():
        server = Server(SLOW_AFTER_SECONDS=60.0)
        request = b"GET /v1/engines HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
        transport = server.connect(data=request)
        await asyncio.sleep(0.01)
        protocol = weakref.ref(transport.protocol)
        transport.protocol.connection_lost(None)
        del transport.protocol
        gc.collect()
        return transport.status(), protocol()

    status, protocol = run(scenario())
    assert status == 401 and protocol is None


class HandedOver(asyncio.Protocol):
    """A WebSocket protocol that keeps what it is given (no WebSocket library is
    installed: uvicorn hands an upgraded connection to ``ws_protocol_class``)."""

    def __init__(self, config, server_state, app_state) -> None:
        self.got = b""

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.got += data


UPGRADE = (
    b"GET /ws HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


@pytest.mark.parametrize("before", [b"", b"GET /a HTTP/1.1\r\nHost: t\r\n\r\n"])
def test_a_websocket_upgrade_is_no_longer_counted_nor_timed(before):
    """A connection handed over to a WebSocket protocol (on a new connection or a
    kept-alive one) is not this protocol's any more: neither counted as unfinished
    nor closed by the head deadline."""

    async def scenario():
        server = Server(HEAD_TIMEOUT_SECONDS=0.05)
        server.config.load()
        server.config.ws_protocol_class = HandedOver
        transport = server.connect(data=before)
        transport.set_protocol = lambda protocol: None
        await asyncio.sleep(0.02)
        transport.protocol.data_received(UPGRADE)
        await asyncio.sleep(0.15)
        return transport, server.state.arbiter_pending.all

    transport, pending = run(scenario())
    assert not transport.closing and not transport.protocol.counted and not pending


def test_a_body_pipelined_behind_an_answer_in_flight_is_not_counted():
    """A request pipelined behind one still being answered waits for that answer:
    its body is not an unfinished connection's, and no cap closes the connection in
    the middle of the first answer (the client's other unfinished connections are)."""

    async def slow(scope, receive, send):
        if scope["method"] == "GET":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"part", "more_body": True})
            await asyncio.sleep(0.2)
            await send({"type": "http.response.body", "body": b"end", "more_body": False})
        else:
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})

    async def scenario():
        server = Server(asgi=slow, CLIENT_MAX_PENDING=1)
        first = server.connect(
            data=b"GET /a HTTP/1.1\r\nHost: t\r\n\r\nPOST /b HTTP/1.1\r\nHost: t\r\n"
            b"Content-Length: 100\r\n\r\nabc"
        )
        await asyncio.sleep(0.05)
        counted = first.protocol.counted
        server.connect(data=HEAD)  # the same client's, unfinished
        await asyncio.sleep(0.3)
        return counted, first

    counted, first = run(scenario())
    assert not counted
    assert b"429" not in first.data and first.data.count(b"HTTP/1.1 200") == 1


def test_a_cap_of_zero_closes_each_new_connection():
    """With no room at all (a cap of 0), a new connection is closed at once, without
    an error in the protocol."""

    async def scenario():
        return Server(CLIENT_MAX_PENDING=0).connect()

    assert run(scenario()).closing
