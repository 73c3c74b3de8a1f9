"""A cut to the database fails fast (issue 30, item 1): a database that accepts the
connection and never answers, or a link that stops carrying packets under a pooled
connection, makes ``/readyz`` answer 503 ``not-ready`` within seconds, and requests
503 with ``Retry-After``, never a hang. The silent server and the cutting proxy are
the test's own sockets on their own ports (the shared PostgreSQL is never touched)."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from arbiter import create_app
from arbiter.extensions import db
from tests.conftest import make_app


class Silent:
    """A TCP server that accepts connections and never says a word."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)

    def close(self) -> None:
        self.sock.close()
        for conn in self.conns:
            conn.close()


class CuttingProxy:
    """A TCP proxy to the test PostgreSQL whose link can be cut: once cut, it keeps
    every connection open and drops what either side sends (packets lost, nothing
    refused), as a dropped route does."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.cut = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            self.conns += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        while True:
            try:
                data = src.recv(65536)
                if not data:
                    break
                if not self.cut.is_set():
                    dst.sendall(data)
            except OSError:
                break
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass

    def heal(self) -> None:
        """End every connection that went through the cut, and carry new ones again."""
        conns, self.conns = self.conns, []
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()
        self.cut.clear()

    def close(self) -> None:
        self.sock.close()
        self.heal()


def timed_get(client, path: str, within: float):
    """GET ``path`` in a thread; return ``(answer or None if it hung past within,
    seconds taken)``."""
    out = {}

    def call():
        out["answer"] = client.get(path)

    started = time.monotonic()
    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(within)
    return out.get("answer"), time.monotonic() - started


def assert_unavailable(answer, code: str) -> None:
    assert answer is not None, "the request hung"
    assert answer.status_code == 503, answer.get_data()[:300]
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == code
    assert int(answer.headers["Retry-After"]) > 0


@pytest.mark.slow  # make check leaves it out (many seconds)
def test_a_database_that_accepts_and_never_answers_is_not_ready_within_seconds(tmp_path):
    """Given ``DATABASE_URL`` pointing at a server that accepts and stays silent,
    ``/readyz`` answers 503 ``not-ready`` within ``READY_TIMEOUT_SECONDS`` (2 s here,
    though connecting may take ``DB_CONNECT_TIMEOUT_SECONDS``, 5 s), again on the next
    call while the first check still hangs, and a request that needs the database 503
    ``database-unavailable`` with Retry-After once the connect timeout ends."""
    silent = Silent()
    try:
        app = create_app(
            {
                "TESTING": True,
                "SQLALCHEMY_DATABASE_URI": (
                    f"postgresql+psycopg://postgres@127.0.0.1:{silent.port}/test"
                ),
                "READY_TIMEOUT_SECONDS": 2.0,
                "RATELIMIT_ENABLED": False,
            }
        )
        client = app.test_client()
        for _ in range(2):
            answer, took = timed_get(client, "/readyz", 10)
            assert_unavailable(answer, "not-ready")
            assert took < 3.5, took
            assert "no answer" in answer.json["checks"]["database"]
        answer, took = timed_get(client, "/v1/games", 15)
        assert_unavailable(answer, "database-unavailable")
        assert took < 8, took
        with app.app_context():
            db.engine.dispose()
    finally:
        silent.close()


@pytest.fixture
def proxied(own_postgres_url):
    """An app whose database connections go through a :class:`CuttingProxy`."""
    proxy = CuttingProxy(("127.0.0.1", 5432))
    assert "@127.0.0.1:5432/" in own_postgres_url
    url = own_postgres_url.replace("@127.0.0.1:5432/", f"@127.0.0.1:{proxy.port}/")
    app = make_app(url, READY_TIMEOUT_SECONDS=2.0)
    yield app, proxy
    proxy.close()
    with app.app_context():
        db.engine.dispose()


def test_a_link_cut_under_a_pooled_connection_is_not_ready_within_seconds(proxied):
    """Given a ready web process whose link to the database then drops every packet,
    ``/readyz`` answers 503 within seconds (twice), where its check on the pooled
    connection would otherwise hang; once the link is back, it is ready again."""
    app, proxy = proxied
    client = app.test_client()
    answer, _ = timed_get(client, "/readyz", 10)
    assert answer is not None and answer.status_code == 200, answer and answer.json
    proxy.cut.set()
    for _ in range(2):
        answer, took = timed_get(client, "/readyz", 10)
        assert_unavailable(answer, "not-ready")
        assert took < 3.5, took
    proxy.heal()  # the stuck connections end; new ones go through
    answers = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (answers and answers[-1] == 200):
        answer, _ = timed_get(client, "/readyz", 10)
        answers.append(answer.status_code if answer is not None else None)
        time.sleep(0.2)
    assert answers[-1] == 200, answers
