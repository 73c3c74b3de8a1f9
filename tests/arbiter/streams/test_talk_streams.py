"""A game's talk in its event streams (issue 24, item 1: messages reach readers "in
the event streams as their own events, filtered per reader as views are"), on the real
web process, on the embedded default (SQLite, in-process notices) and on PostgreSQL +
Redis pub/sub (the ``server`` fixture of :mod:`tests.arbiter.streams.test_streams`).

Each reader (each seat, a spectator account, nobody, the creator) gets exactly the
messages ``GET /messages`` gives it, as ``kind: "message"`` events apart from the
game's (SSE ``event: talk``, no ``seq``); a hidden message comes again, hidden; notes
never come; a reader that reconnects with its ``Last-Event-ID`` (``seq-talk``) or its
account stream's ``cursor`` gets each missed message (and game event) exactly once.
"""

from __future__ import annotations

import json
import uuid

import pytest
import requests

from arbiter.streams import wire
from tests.arbiter.streams.test_streams import SSE, TIMEOUT, roll, server  # noqa: F401
from tests.helpers import sign_in

pytestmark = pytest.mark.xdist_group("talk-streams")

TABLE_END = "the last word at the table"
SPECTATORS_END = "the last word among spectators"


def bearer(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def post(url: str, game_id: str, token: str, text: str, channel="table", to=None) -> dict:
    """Post a message through the API; return the answer."""
    body = {"channel": channel, "text": text, **({"to": to} if to is not None else {})}
    answer = requests.post(
        f"{url}/v1/games/{game_id}/messages", json=body, headers=bearer(token), timeout=TIMEOUT
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def new_table(url: str, app, engine="space-worm", seats=("Ann", "Bob", "Cat"), email=None):
    """A game with press on, and a spectator account; return (game, watcher token)."""
    players = [{"name": n} for n in seats]
    if email:
        players[0]["email"] = email
    answer = requests.post(
        f"{url}/v1/games",
        json={"engine": engine, "players": players, "talk": {"press": True}},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 201, answer.text
    watcher = sign_in(app.test_client(), app, f"w-{uuid.uuid4().hex[:8]}@example.org", "Wendy")
    return answer.json(), watcher


def talk_until(stream: SSE, last: str) -> tuple[list[dict], list[dict]]:
    """Read ``stream`` until the message ``last``; return (its game events, its message
    events, with their SSE ``id``)."""
    games, said = [], []
    while True:
        message = stream.next()
        if message["event"] != wire.TALK_EVENT:
            assert message["data"]["kind"] != "message" and "seq" in message["data"]
            games.append(message)
            continue
        data = message["data"]
        assert data["kind"] == "message" and "seq" not in data
        said.append({**data, "id": message["id"]})
        if data["text"] == last:
            return games, said


def test_every_reader_of_a_game_stream_hears_exactly_what_it_may(server):  # noqa: F811
    """Streams opened before the talk: each seat hears the table, the two seats of a
    private message hear it and the third does not, the spectators (an account, nobody)
    hear their channel and not the table (the creator did not open it to
    them), a note reaches nobody; the hidden table message reaches the seats again,
    hidden. As ``/messages`` gives each the same."""
    url, app = server
    game, watcher = new_table(url, app)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    readers = {
        "seat0": tokens[0],
        "seat1": tokens[1],
        "seat2": tokens[2],
        "watcher": watcher,
        "anonymous": None,
    }  # a creator token opens no game stream (it is no seat's): it reads as nobody
    version = requests.get(f"{url}/v1/games/{gid}", timeout=TIMEOUT).json()["version"]
    streams = {
        name: SSE(f"{url}/v1/games/{gid}/stream?after={version}", bearer(token))
        for name, token in readers.items()
    }
    table = post(url, gid, tokens[0], "table words from Ann")
    post(url, gid, tokens[0], "private words from Ann to Bob", "private", 1)
    post(url, gid, watcher, "spectator words from Wendy", "spectators")
    note = requests.post(
        f"{url}/v1/games/{gid}/notes",
        json={"text": "Ann's note: Bob bluffs"},
        headers=bearer(tokens[0]),
        timeout=TIMEOUT,
    )
    assert note.status_code == 201, note.text
    hidden = requests.post(
        f"{url}/v1/games/{gid}/messages/{table['n']}/hide",
        headers=bearer(game["creator_token"]),
        timeout=TIMEOUT,
    )
    assert hidden.status_code in (200, 201), hidden.text
    post(url, gid, tokens[2], TABLE_END)
    post(url, gid, watcher, SPECTATORS_END, "spectators")
    expected = {
        "seat0": ["table words from Ann", "private words from Ann to Bob", None, TABLE_END],
        "seat1": ["table words from Ann", "private words from Ann to Bob", None, TABLE_END],
        "seat2": ["table words from Ann", None, TABLE_END],
        **{s: ["spectator words from Wendy", SPECTATORS_END] for s in ("watcher", "anonymous")},
    }
    for name, stream in streams.items():
        last = TABLE_END if name.startswith("seat") else SPECTATORS_END
        assert stream.response.status_code == 200, (name, stream.response.text)
        games, said = talk_until(stream, last)
        stream.close()
        assert games == [], name
        assert [m["text"] for m in said] == expected[name], name
        assert all(m["id"] == f"{version}-{m['talk']}" for m in said), name
        if name.startswith("seat"):
            again = next(m for m in said if m["text"] is None)
            assert again["hidden"] and again["n"] == table["n"] and again["talk"] > table["n"]
        # once each message's latest event is taken, exactly what /messages gives it
        final: dict[int, dict] = {}
        for m in said:
            final[m["n"]] = {k: v for k, v in m.items() if k not in ("kind", "talk", "id")}
        listed = requests.get(
            f"{url}/v1/games/{gid}/messages", headers=bearer(readers[name]), timeout=TIMEOUT
        ).json()["messages"]
        assert list(final.values()) == listed, name


def test_a_game_stream_resumes_with_each_missed_message_and_event_once(server):  # noqa: F811
    """A seat that reconnects with the ``Last-Event-ID`` of its last message
    (``seq-talk``) gets the game events and the messages written while it was away
    (and none it may not read), each once; a game event's id carries the talk position
    too; a plain seq resumes the whole talk."""
    url, app = server
    game, _ = new_table(url, app, "dark-horse", ("Ann", "Bob"))
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    first = SSE(f"{url}/v1/games/{gid}/stream", bearer(tokens[0]))
    assert [m["id"] for m in first.events(3)] == ["1", "2", "3"]
    said = post(url, gid, tokens[1], "hello Ann")
    games, heard = talk_until(first, "hello Ann")
    first.close()
    assert games == [] and heard[0]["id"] == f"3-{said['n']}"
    post(url, gid, tokens[1], "a secret for Ann", "private", 0)
    roll(app, game, 3)  # game events while away
    post(url, gid, tokens[1], TABLE_END)
    version = requests.get(f"{url}/v1/games/{gid}", timeout=TIMEOUT).json()["version"]
    again = SSE(
        f"{url}/v1/games/{gid}/stream", {**bearer(tokens[0]), "Last-Event-ID": heard[0]["id"]}
    )
    games, heard = talk_until(again, TABLE_END)
    again.close()
    assert [m["data"]["seq"] for m in games] == list(range(4, version + 1))
    assert all(m["id"] == f"{m['data']['seq']}-{said['n']}" for m in games)
    assert [m["text"] for m in heard] == ["a secret for Ann", TABLE_END]
    assert all(m["id"] == f"{version}-{m['talk']}" for m in heard)
    plain = SSE(
        f"{url}/v1/games/{gid}/stream", {**bearer(tokens[0]), "Last-Event-ID": str(version)}
    )
    assert [m["text"] for m in talk_until(plain, TABLE_END)[1]] == [
        "hello Ann",
        "a secret for Ann",
        TABLE_END,
    ]
    plain.close()


def read_lines(lines, until: str) -> list[dict]:
    """Read an account stream's ``lines`` (its ``iter_lines``) until the message
    ``until``; return its non-empty lines."""
    out = []
    while True:
        line = next(lines)
        if not line:
            continue
        out.append(json.loads(line))
        if out[-1].get("kind") == "message" and out[-1]["text"] == until:
            return out


def test_the_account_stream_hears_its_seats_talk_and_resumes_it_once(server):  # noqa: F811
    """``/v1/me/stream`` carries the talk of each game where the account is seated, as
    its seat may read it (the table, the private message to it, not one between two
    others, not the spectators', not its own note), as ``{"game", "kind": "message",
    "talk", ..., "cursor"}`` lines; reconnecting with the cursor of the first gives the
    others once."""
    url, app = server
    email = f"ann-{uuid.uuid4().hex[:8]}@example.org"  # the PostgreSQL schema is shared
    token = sign_in(app.test_client(), app, email, "Ann")
    game, watcher = new_table(url, app, email=email)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    headers = bearer(token)
    stream = requests.get(f"{url}/v1/me/stream", headers=headers, stream=True, timeout=(5, TIMEOUT))
    assert stream.status_code == 200
    post(url, gid, tokens[1], "table words from Bob")
    post(url, gid, tokens[1], "between Bob and Cat", "private", 2)
    post(url, gid, tokens[1], "for Ann only", "private", 0)
    post(url, gid, watcher, "spectator words", "spectators")
    requests.post(
        f"{url}/v1/games/{gid}/notes",
        json={"text": "Ann's note"},
        headers=bearer(tokens[0]),
        timeout=TIMEOUT,
    )
    post(url, gid, tokens[2], TABLE_END)
    raw = stream.iter_lines(chunk_size=None)
    lines = read_lines(raw, TABLE_END)
    resigned = requests.post(
        f"{url}/v1/games/{gid}/resign", headers=bearer(tokens[2]), timeout=TIMEOUT
    )
    assert resigned.status_code == 201, resigned.text
    event = next(json.loads(line) for line in raw if line)
    stream.close()
    assert event["kind"] == "resigned" and event["seq"] == resigned.json()["seq"]
    assert wire.read_cursor(event["cursor"])[f"talk:{gid}"] == lines[-1]["talk"]
    said = [line for line in lines if line.get("kind") == "message"]
    assert [m["text"] for m in said] == ["table words from Bob", "for Ann only", TABLE_END]
    assert all(m["game"] == gid and "seq" not in m for m in said)
    for m in said:
        assert wire.read_cursor(m["cursor"])[f"talk:{gid}"] == m["talk"]
    again = requests.get(
        f"{url}/v1/me/stream",
        headers={**headers, "Last-Event-ID": said[0]["cursor"]},
        stream=True,
        timeout=(5, TIMEOUT),
    )
    resumed = [
        m
        for m in read_lines(again.iter_lines(chunk_size=None), TABLE_END)
        if m.get("kind") == "message"
    ]
    again.close()
    assert [m["text"] for m in resumed] == ["for Ann only", TABLE_END]


def test_the_flask_game_stream_alone_sends_the_talk_backlog_and_refuses_bad_ids(any_app):
    """Without the ASGI front, ``/stream`` answers the backlog with the messages the
    reader may read (``event: talk``, ids ``seq-talk``) and ends; resuming after the
    last id sends nothing twice; an id that is no ``seq`` or ``seq-talk`` is 400
    ``bad-last-event-id``."""
    client = any_app.test_client()
    made = client.post(
        "/v1/games",
        json={"engine": "space-worm", "players": [{"name": "Ann"}, {"name": "Bob"}]},
    ).get_json()
    gid, ann = made["id"], made["seats"][0]["token"]
    said = client.post(
        f"/v1/games/{gid}/messages", json={"text": "hi Bob"}, headers=bearer(ann)
    ).get_json()
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    seat = client.get(f"/v1/games/{gid}/stream", headers=bearer(ann)).get_data(as_text=True)
    assert f"id: {version}-{said['n']}\nevent: talk\n" in seat and "hi Bob" in seat
    nobody = client.get(f"/v1/games/{gid}/stream").get_data(as_text=True)
    assert "event: talk" not in nobody  # the table is the players'
    again = client.get(
        f"/v1/games/{gid}/stream",
        headers={**bearer(ann), "Last-Event-ID": f"{version}-{said['n']}"},
    ).get_data(as_text=True)
    assert "event:" not in again
    refused = client.get(f"/v1/games/{gid}/stream", headers={"Last-Event-ID": "3-x"})
    assert refused.status_code == 400 and refused.get_json()["code"] == "bad-last-event-id"
