"""The client's retries, idempotency keys, typed errors and stream reconnections, on
answers the running service gives only under faults (a 503 while its database is
down, a stream dropped mid-way), played by a scripted server on loopback. The same
behaviour against the running service: ``tests/clients/test_service.py``."""

from __future__ import annotations

import json
import uuid

import pytest
from arbiter_client import (
    NO_RETRY,
    ApiError,
    Client,
    Conflict,
    RateLimited,
    Retry,
    StreamReplaced,
    TransportError,
    Unavailable,
)

from tests.clients.scripted_server import Answer, ScriptedServer, problem
from tests.conftest import free_port


def client_for(server: ScriptedServer, waits: list[float], **retry) -> Client:
    """A client of ``server`` whose waits are recorded in ``waits`` instead of slept."""
    return Client(server.url, retry=Retry(sleep=waits.append, **retry), timeout=10)


def test_a_write_refused_with_503_is_sent_again_after_retry_after_with_the_same_key():
    waits: list[float] = []
    script = [problem(503, "unavailable", retry_after=2), Answer(201, {"id": "g1", "seats": []})]
    with ScriptedServer(script) as server, client_for(server, waits) as client:
        created = client.games.create("space-worm", ["Ann", "Bob"])
    assert created["id"] == "g1"
    assert waits == [2.0]
    keys = [seen.headers.get("Idempotency-Key") for seen in server.seen]
    assert len(keys) == 2 and keys[0] == keys[1]
    assert uuid.UUID(keys[0]).version == 4
    assert json.loads(server.seen[1].body) == {
        "engine": "space-worm",
        "players": [{"name": "Ann"}, {"name": "Bob"}],
    }


def test_each_write_gets_a_key_of_its_own_and_a_given_key_is_sent_as_given():
    script = [Answer(201, {"seq": 5, "version": 5})] * 3
    with ScriptedServer(script) as server, Client(server.url, "seat-token") as client:
        client.moves.play("g1", {"die": 3}, expected_version=4)
        client.moves.play("g1", {"die": 3}, expected_version=4)
        client.moves.play("g1", text="die 3", idempotency_key="mine-0123456789abcdef")
    keys = [seen.headers["Idempotency-Key"] for seen in server.seen]
    assert keys[0] != keys[1] and keys[2] == "mine-0123456789abcdef"
    assert server.seen[0].headers["Authorization"] == "Bearer seat-token"
    assert json.loads(server.seen[0].body) == {"move": {"die": 3}, "expected_version": 4}
    assert json.loads(server.seen[2].body) == {"text": "die 3"}


def test_a_post_whose_contract_takes_no_key_gets_none_and_a_503_on_it_is_not_retried():
    waits: list[float] = []
    with ScriptedServer([problem(503, "unavailable", retry_after=1)]) as server:
        with client_for(server, waits) as client, pytest.raises(Unavailable) as caught:
            client.account.create_token("bot", ["games:play"])
    assert len(server.seen) == 1 and waits == []
    assert "Idempotency-Key" not in server.seen[0].headers
    assert caught.value.retry_after == 1.0 and caught.value.code == "unavailable"


def test_a_429_is_retried_on_any_request_since_the_service_did_nothing():
    waits: list[float] = []
    script = [problem(429, "rate-limited", retry_after=1), Answer(201, {"id": "t1"})]
    with ScriptedServer(script) as server, client_for(server, waits) as client:
        assert client.account.create_token("bot", ["games:play"])["id"] == "t1"
    assert waits == [1.0] and len(server.seen) == 2


def test_a_retry_after_beyond_the_longest_wait_is_raised_at_once_with_its_code():
    waits: list[float] = []
    with ScriptedServer([problem(429, "rate-limited", retry_after=120)]) as server:
        with client_for(server, waits, max_wait=30) as client:
            with pytest.raises(RateLimited) as caught:
                client.games.create("space-worm", ["Ann"])
    err = caught.value
    assert (err.status, err.code, err.retry_after) == (429, "rate-limited", 120.0)
    assert waits == [] and len(server.seen) == 1


def test_retries_are_bounded_and_back_off_without_retry_after():
    waits: list[float] = []
    with ScriptedServer([problem(503, "unavailable")] * 5) as server:
        with client_for(server, waits, attempts=3, backoff=0.25) as client:
            with pytest.raises(Unavailable):
                client.games.get("g1")
    assert len(server.seen) == 3 and waits == [0.25, 0.5]


def test_without_retries_the_first_refusal_is_raised():
    with ScriptedServer([problem(429, "rate-limited", retry_after=1)]) as server:
        with Client(server.url, retry=NO_RETRY) as client, pytest.raises(RateLimited):
            client.games.get("g1")
    assert len(server.seen) == 1


def test_a_refusal_is_a_typed_error_with_the_problem_members():
    errors = {"move": ["not a move"]}
    with ScriptedServer([problem(409, "stale-version", errors=errors)]) as server:
        with Client(server.url) as client, pytest.raises(Conflict) as caught:
            client.moves.play("g1", {"die": 1}, expected_version=3)
    err = caught.value
    assert (err.status, err.code, err.detail, err.errors) == (
        409,
        "stale-version",
        "stale-version",
        errors,
    )
    assert str(err) == "409 stale-version: stale-version"


def test_an_answer_that_is_not_problem_json_is_an_api_error_named_by_its_status():
    with ScriptedServer([Answer(502, "<html>bad gateway</html>")]) as server:
        with Client(server.url) as client, pytest.raises(ApiError) as caught:
            client.games.get("g1")
    assert caught.value.status == 502 and caught.value.code == "http-502"


def test_a_service_that_cannot_be_reached_is_a_transport_error_after_the_retries():
    waits: list[float] = []
    with Client(
        f"http://127.0.0.1:{free_port()}", retry=Retry(attempts=2, sleep=waits.append)
    ) as c:
        with pytest.raises(TransportError):
            c.games.get("g1")
    assert len(waits) == 1


def test_a_long_poll_may_take_its_wait_longer_than_the_usual_timeout():
    late = Answer(200, {"events": [], "version": 3}, delay=0.8)
    with ScriptedServer([late, late]) as server:
        with Client(server.url, retry=NO_RETRY, timeout=0.5) as client:
            assert client.events.list("g1", after=3, wait=1) == {"events": [], "version": 3}
            with pytest.raises(TransportError):
                client.events.list("g1", after=3)
    assert server.seen[0].path == "/v1/games/g1/events?after=3&wait=1"


def sse(*events: tuple[int, str], end: str = "") -> Answer:
    """An SSE answer with ``events`` (seq, kind), then ``end`` (raw), then the
    connection closes."""
    text = "retry: 10\n\n"
    for seq, kind in events:
        data = json.dumps({"seq": seq, "kind": kind, "version": seq, "payload": {}})
        text += f"id: {seq}\nevent: {kind}\ndata: {data}\n\n"
    return Answer(200, text + end, {"Content-Type": "text/event-stream"})


def test_a_game_stream_reconnects_with_last_event_id_until_the_service_answers_204():
    waits: list[float] = []
    script = [
        sse((1, "game-created"), (2, "move")),  # dropped
        sse((3, "move"), end=': keep-alive\n\nevent: cut\ndata: {"detail": "slow"}\n\n'),
        sse((4, "game-over"), (5, "seed-revealed")),  # the game is over
        Answer(204),
    ]
    with ScriptedServer(script) as server, client_for(server, waits) as client:
        seqs = [event["seq"] for event in client.events.stream("g1")]
    assert seqs == [1, 2, 3, 4, 5]
    assert [s.headers.get("Last-Event-ID") for s in server.seen] == ["0", "2", "3", "5"]
    assert all(s.path == "/v1/games/g1/stream" for s in server.seen) and waits == []


def test_a_game_stream_that_keeps_failing_without_news_gives_up():
    waits: list[float] = []
    with ScriptedServer([sse()] * 10) as server:
        with client_for(server, waits, attempts=3) as client, pytest.raises(TransportError):
            list(client.events.stream("g1"))
    assert len(server.seen) == 3 and len(waits) == 2  # waited between the empty ones


def ndjson(*lines: tuple[int, str]) -> Answer:
    """An ndjson answer of the account stream: each (seq, cursor) as a line."""
    text = "\n" + "".join(
        json.dumps({"game": "g1", "seq": seq, "kind": "move", "cursor": cursor}) + "\n"
        for seq, cursor in lines
    )
    return Answer(200, text, {"Content-Type": "application/x-ndjson"})


def test_the_account_stream_reconnects_with_the_last_cursor():
    waits: list[float] = []
    script = [ndjson((4, "c4"), (5, "c5")), ndjson(), ndjson((6, "c6"))]
    with ScriptedServer(script) as server, client_for(server, waits) as client:
        stream = client.events.mine(cursor="c3")
        seqs = [next(stream)["seq"] for _ in range(3)]
    assert seqs == [4, 5, 6]
    assert [s.headers.get("Last-Event-ID") for s in server.seen] == ["c3", "c5", "c5"]
    assert len(waits) == 1  # a pause only after the connection that brought nothing


def test_an_account_stream_replaced_by_another_of_its_token_raises_and_does_not_reconnect():
    waits: list[float] = []
    replaced = json.dumps({"end": "replaced", "detail": "one account stream per token"})
    first = ndjson((4, "c4"))
    script = [Answer(200, first.body + replaced + "\n", first.headers), ndjson((5, "c5"))]
    with ScriptedServer(script) as server, client_for(server, waits) as client:
        stream = client.events.mine()
        assert next(stream)["seq"] == 4
        with pytest.raises(StreamReplaced) as caught:
            next(stream)
    assert "one account stream per token" in str(caught.value)
    assert len(server.seen) == 1 and waits == []  # no second connection


def talk(seq: int, n: int, text: str) -> str:
    """The raw SSE message of a message event sent after game event ``seq``."""
    data = json.dumps({"kind": "message", "talk": n, "n": n, "channel": "table", "text": text})
    return f"id: {seq}-{n}\nevent: talk\ndata: {data}\n\n"


@pytest.mark.parametrize("hear", [False, True])
def test_streams_skip_the_talk_unless_asked_and_resume_after_it(hear):
    """Issue 24: a game's talk comes in its streams as ``kind: "message"`` events with
    no ``seq``; the client yields them only with ``talk=True`` (so code that follows
    ``seq`` is not confused), and resumes after the last one either way (its SSE id
    ``seq-talk``, the ndjson line's cursor), so none comes twice."""
    waits: list[float] = []
    first = sse((1, "game-created"), end=talk(1, 1, "hi") + talk(1, 2, "hello"))
    script = [first, sse((2, "game-over"), (3, "seed-revealed")), Answer(204)]
    with ScriptedServer(script) as server, client_for(server, waits) as client:
        got = list(client.events.stream("g1", talk=hear))
    texts = [e.get("text") for e in got if e.get("kind") == "message"]
    assert texts == (["hi", "hello"] if hear else [])
    assert [e["seq"] for e in got if "seq" in e] == [1, 2, 3]
    assert [s.headers.get("Last-Event-ID") for s in server.seen] == ["0", "1-2", "3"]
    line = json.dumps({"game": "g1", "kind": "message", "talk": 7, "text": "hi", "cursor": "c7"})
    said = Answer(200, f"\n{line}\n", {"Content-Type": "application/x-ndjson"})
    with ScriptedServer([said, ndjson((5, "c5"))]) as server, client_for(server, []) as client:
        stream = client.events.mine(cursor="c3", talk=hear)
        event = next(stream)
    assert event.get("text") == "hi" if hear else event["seq"] == 5
    if not hear:
        assert [s.headers.get("Last-Event-ID") for s in server.seen] == ["c3", "c7"]
