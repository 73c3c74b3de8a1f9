"""What a reader of a game may not see, and the checks of everything a reader got
(issue 24, "Check": every mail, page and stream line is checked for another seat's
secrets and for messages the reader must not see; the raw bytes of every outgoing
mail's ``List-Unsubscribe`` contain ``<http``).

A reader is a seat number, or ``None`` for a spectator. A :class:`Watch` keeps, per
reader, the secrets that reader has held itself at any checkpoint (its own Goal cards
stay its own to know after a Bad encounter! swaps one away), and the text markers of
the messages and notes it must not read (docs/guides/messages.md, "Who reads what").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import requests

UNSUBSCRIBE = re.compile(rb"^List-Unsubscribe:(.*(?:\r?\n[ \t].*)*)", re.MULTILINE | re.IGNORECASE)


def check_list_unsubscribe(raws: Iterable[bytes]) -> int:
    """Assert that every raw mail has a ``List-Unsubscribe`` header whose raw bytes
    (folded lines included, as they went over SMTP) hold ``<http``; return how many
    mails were checked."""
    checked = 0
    for raw in raws:
        head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        found = UNSUBSCRIBE.search(head)
        assert found is not None, head[:2000]
        assert b"<http" in found.group(1), found.group(0)
        checked += 1
    return checked


@dataclass
class Watch:
    """The forbidden markers per reader and the secrets each reader held."""

    forbidden_text: dict = field(default_factory=dict)  # reader -> {marker: what}
    own_ever: dict = field(default_factory=dict)  # reader -> set of its secrets so far
    checked: int = 0
    message_lines: int = 0
    hidden_at: dict = field(default_factory=dict)  # (reader, version) -> secrets then

    def check_line(self, reader, game_id: str, line: str) -> None:
        """Check one ndjson line of an account's stream (``/v1/me/stream``): a line of
        this game against the secrets at the first checkpoint at or after its version,
        any line against the forbidden markers."""
        data = json.loads(line) if line.startswith("{") else {}
        hidden: set[str] = set()
        if data.get("game") == game_id and "version" in data:
            later = sorted(v for r, v in self.hidden_at if r == reader and v >= data["version"])
            if later:
                hidden = self.hidden_at[(reader, later[0])]
        self.check(reader, "account stream", line, hidden)

    def forbid(self, marker: str, what: str, readers: Iterable) -> None:
        """Say that ``readers`` must never see ``marker`` (a message's or note's text)."""
        for reader in readers:
            self.forbidden_text.setdefault(reader, {})[marker] = what

    def secrets_hidden_from(self, engine, state: dict, players: int, reader) -> set[str]:
        """The secrets of the other seats (and of nobody: the Goal deck, the cards set
        aside) at ``state`` that ``reader`` never held itself."""
        own = self.own_ever.setdefault(reader, set())
        if reader is not None:
            own.update(engine.secrets(state, reader))
        hidden = set(engine.secrets(state, None))
        for seat in range(players):
            if seat != reader:
                hidden.update(engine.secrets(state, seat))
        return hidden - own

    def check(self, reader, where: str, text: str, secrets: set[str]) -> None:
        """Assert that ``text`` (one mail, page, response or stream line that
        ``reader`` got) holds no secret of ``secrets`` and no forbidden marker."""
        leaked = sorted(s for s in secrets if s in text)
        assert not leaked, (reader, where, leaked, text[:3000])
        for marker, what in self.forbidden_text.get(reader, {}).items():
            assert marker not in text, (reader, where, what, text[:3000])
        self.checked += 1


def stream_lines(url: str, game_id: str, token: str | None, until: int) -> list[str]:
    """Return the SSE lines of the game's stream as ``token`` (None: a spectator) reads
    it from the start, up to the event whose id is ``until`` (the game's version)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    lines: list[str] = []
    with requests.get(
        f"{url}/v1/games/{game_id}/stream", headers=headers, stream=True, timeout=60
    ) as answer:
        assert answer.status_code == 200, answer.text
        seen_last = False
        for raw in answer.iter_lines(decode_unicode=True):
            lines.append(raw)
            if raw.startswith("id: ") and int(raw[4:]) >= until:
                seen_last = True
            elif seen_last and raw.startswith("data: "):
                break
    return lines


def message_events(lines: list[str]) -> list[dict]:
    """Return the ``kind: "message"`` events among SSE ``data:`` lines (or ndjson
    lines).

    STREAM MESSAGES (issue 24): table talk is being added to the game streams as events
    of ``kind: "message"``. Until it lands this finds none; once it does,
    :func:`check_stream_messages` checks each one against what its reader may read.
    """
    found = []
    for line in lines:
        body = line[len("data: ") :] if line.startswith("data: ") else line
        if not body.startswith("{"):
            continue
        try:
            data = json.loads(body)
        except ValueError:
            continue
        if isinstance(data, dict) and data.get("kind") == "message":
            found.append(data)
    return found


def check_stream_messages(watch: Watch, reader, lines: list[str], readable: set[str]) -> None:
    """STREAM MESSAGES (issue 24): every ``kind: "message"`` line a reader's stream
    carries is one it may read (its text among ``readable`` markers or not a marker of
    this test at all) and never one of its forbidden ones; once message events exist,
    every readable marker reaches the stream too."""
    events = message_events(lines)
    forbidden = watch.forbidden_text.get(reader, {})
    texts = [json.dumps(e) for e in events]
    for text in texts:
        for marker in forbidden:
            assert marker not in text, (reader, "stream message", text)
    watch.message_lines += len(events)
    if events:  # the streams carry messages: each readable one arrives
        for marker in readable:
            assert any(marker in t for t in texts), (reader, marker, "not in the stream")


class AccountStreams:
    """Read ``GET /v1/me/stream`` (ndjson) for each reader's personal token in a thread
    of its own, from entry to exit; ``lines`` holds each reader's non-empty lines."""

    def __init__(self, url: str, tokens: dict) -> None:
        self.url, self.tokens = url, tokens
        self.lines: dict = {reader: [] for reader in tokens}
        self.answers: list = []
        self.threads: list = []
        self.stopping = False

    def _read(self, reader, token: str) -> None:
        try:
            with requests.get(
                f"{self.url}/v1/me/stream",
                headers={"Authorization": f"Bearer {token}"},
                stream=True,
                timeout=(30, 60),
            ) as answer:
                self.answers.append(answer)
                for line in answer.iter_lines():
                    if line:
                        self.lines[reader].append(line.decode())
        except (requests.RequestException, AttributeError, ValueError, OSError):
            if not self.stopping:
                raise

    def __enter__(self) -> AccountStreams:
        import threading

        for reader, token in self.tokens.items():
            thread = threading.Thread(target=self._read, args=(reader, token), daemon=True)
            thread.start()
            self.threads.append(thread)
        return self

    def __exit__(self, *exc) -> None:
        import time

        time.sleep(1)  # the last events reach the streams
        self.stopping = True
        for answer in self.answers:
            answer.close()
        for thread in self.threads:
            thread.join(timeout=10)
