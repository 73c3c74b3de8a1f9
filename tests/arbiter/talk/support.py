"""A three-seat game with every kind of reader of its talk, and one message on each
channel, for the talk tests (REST, page, mail)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.helpers import auth, sign_in


@dataclass
class Table:
    """A game and its readers: ``seats`` (seat tokens), ``creator`` (creator token),
    ``watcher`` (a spectator account's personal token), ``said`` the texts posted,
    by channel."""

    game_id: str
    seats: list[str]
    creator: str
    watcher: str
    said: dict[str, str] = field(default_factory=dict)


def table(client, app, press: bool = True, spectators_read_table: bool = False) -> Table:
    """Create a 3-seat Space Worm game with these talk options and a spectator account."""
    body = {
        "engine": "space-worm",
        "players": [{"name": n} for n in ("Ann", "Bob", "Cat")],
        "talk": {"press": press, "spectators_read_table": spectators_read_table},
    }
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.json
    watcher = sign_in(client, app, "watcher@example.org", "Wendy")
    return Table(
        answer.json["id"],
        [s["token"] for s in answer.json["seats"]],
        answer.json["creator_token"],
        watcher,
    )


def post(client, t: Table, token: str | None, text: str, channel: str = "table", to=None):
    """Post a message; return the answer."""
    body = {"channel": channel, "text": text}
    if to is not None:
        body["to"] = to
    headers = auth(token) if token else {}
    return client.post(f"/v1/games/{t.game_id}/messages", json=body, headers=headers)


def talk_everywhere(client, t: Table) -> None:
    """Post one message on each channel, and one note of seat 0, recording the texts in
    ``t.said`` (``table``, ``private`` (0 to 1), ``spectators``, ``note``)."""
    t.said = {
        "table": "table words from Ann",
        "private": "private words from Ann to Bob",
        "spectators": "spectator words from Wendy",
        "note": "Ann's own note: Bob bluffs",
    }
    assert post(client, t, t.seats[0], t.said["table"]).status_code == 201
    assert post(client, t, t.seats[0], t.said["private"], "private", 1).status_code == 201
    assert post(client, t, t.watcher, t.said["spectators"], "spectators").status_code == 201
    note = client.post(
        f"/v1/games/{t.game_id}/notes", json={"text": t.said["note"]}, headers=auth(t.seats[0])
    )
    assert note.status_code == 201, note.json


def may_see(t: Table, reader: str, over: bool = False, spectators_read_table=False) -> set[str]:
    """Return which of ``t.said`` a reader may see: ``seat0``, ``seat1``, ``seat2``,
    ``watcher``, ``anonymous``, ``creator``."""
    if reader.startswith("seat"):
        seen = {"table"} | ({"spectators"} if over else set())
        if reader in ("seat0", "seat1"):
            seen.add("private")
        if reader == "seat0":
            seen.add("note")
        return seen
    return {"spectators"} | ({"table"} if spectators_read_table else set())


def readers(t: Table) -> dict[str, str | None]:
    """Every reader's token (None: anonymous)."""
    return {
        "seat0": t.seats[0],
        "seat1": t.seats[1],
        "seat2": t.seats[2],
        "watcher": t.watcher,
        "anonymous": None,
        "creator": t.creator,
    }
