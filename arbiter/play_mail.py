"""A random player by email only: every move is a reply to the turn mail.

``arbiter play ENGINE --players N --by-email`` creates a game on a running server
(over HTTP: creation is not a mail command), then plays it by mail: it listens as the
players' mail server (a local SMTP sink, where the server's ``SMTP_URL`` points),
accepts each seat's invitation by replying ``accept`` to it (the players' addresses
are not accounts: the game waits until they have agreed; without ``--token`` the
game's creator, who invites them, is an account it signs up first through a sign-in
link mailed to the sink, since only a signed-in account may invite), answers each
"your turn" mail with a random legal move read from the mail itself (or from the
answer to ``moves`` when the mail lists only examples), sends it over SMTP
to the server's ``mailin`` listener, and at the end fetches and verifies the record
and checks the mail: every move came by mail, each seat got one turn mail per prompt
and one answer per command, no Message-ID twice.
"""

from __future__ import annotations

import random
import re
import secrets
import smtplib
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from email.utils import make_msgid
from pathlib import Path
from urllib.parse import unquote, urlparse

from arbiter_client import Client

from arbiter.play import Played, PlayError, _report, refused, save_and_verify


class Sink:
    """A local SMTP server (aiosmtpd) that keeps every message it receives."""

    def __init__(self, url: str) -> None:
        from aiosmtpd.controller import Controller  # noqa: PLC0415 - only a mail server needs it

        parts = urlparse(url)
        self.messages: list[EmailMessage] = []
        self.raw: list[bytes] = []  # each message's bytes as they came over SMTP
        self.arrived: list[float] = []  # time.monotonic() of each message's arrival
        self.lock = threading.Lock()
        self.controller = Controller(
            self, hostname=parts.hostname or "127.0.0.1", port=parts.port or 2525
        )

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd API
        """Keep the message."""
        raw = envelope.original_content or envelope.content
        msg = message_from_bytes(raw, policy=default)
        with self.lock:
            self.messages.append(msg)
            self.raw.append(raw)
            self.arrived.append(time.monotonic())
        return "250 Message accepted for delivery"

    def __enter__(self) -> Sink:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()

    def to(self, address: str) -> list[EmailMessage]:
        """Return the messages received for ``address``, in order."""
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    def snapshot(self) -> list[EmailMessage]:
        """Return every message received so far."""
        with self.lock:
            return list(self.messages)


@dataclass
class MailCheck:
    """What the mail of a game looked like: the seats' addresses (in seat order),
    counts per address and problems found."""

    addresses: list[str] = field(default_factory=list)
    turn_mails: Counter = field(default_factory=Counter)
    answers: Counter = field(default_factory=Counter)
    commands: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def body_of(msg: EmailMessage) -> str:
    """Return the plain-text body of a mail."""
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


def is_turn_mail(msg: EmailMessage) -> bool:
    """True for a "your turn" mail (not an answer in its thread)."""
    return str(msg["Subject"]).lstrip().startswith("[Arbiter] Your turn")


def is_invitation(msg: EmailMessage) -> bool:
    """True for an invitation mail (its one mail to an address that has not agreed)."""
    return str(msg["Subject"]).lstrip().startswith("[Arbiter] An invitation to play")


def listed_moves(text: str) -> tuple[list[str], bool]:
    """Return the legal moves a turn mail (or an answer to ``moves``) lists, and
    whether the list is complete."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Your legal moves ("):
            return _indented(lines[i + 1 :]), True
        if line.startswith("You have ") and "legal moves; for example" in line:
            return _indented(lines[i + 1 :]), False
    return [], False


def _indented(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        if not line.startswith("  "):
            break
        out.append(line.strip())
    return out


class MailPlayer:
    """Plays every seat of one game by replying to its mail."""

    def __init__(
        self,
        sink: Sink,
        mailin_url: str,
        addresses: list[str],
        rng: random.Random,
        echo: Callable[[str], None],
    ) -> None:
        self.sink, self.addresses, self.rng, self.echo = sink, addresses, rng, echo
        parts = urlparse(mailin_url)
        self.mailin = (parts.hostname or "127.0.0.1", parts.port or 25)
        self.handled: set[str] = set()
        self.sent: dict[str, str] = {}  # our Message-ID -> the seat's address
        self.moves = 0

    def send(self, address: str, to_mail: EmailMessage, body: str) -> str:
        """Reply to ``to_mail`` from ``address`` with ``body`` as people write it: a
        greeting before it, thanks and a signature after it (the arbiter reads the
        command on its own line and ignores the rest); return the Message-ID."""
        name = address.split("@", 1)[0].split(".", 1)[0].capitalize()
        body = f"Hi Arbiter,\n\n{body}\n\nThanks,\n{name}\n-- \n{name}\nSent from my phone"
        msg = self.reply(address, to_mail, body)
        with smtplib.SMTP(*self.mailin, timeout=30) as smtp:
            smtp.send_message(msg, from_addr=address, to_addrs=[str(to_mail["Reply-To"])])
        return msg["Message-ID"]

    def reply(self, address: str, to_mail: EmailMessage, body: str) -> EmailMessage:
        """Return a reply to ``to_mail`` from ``address`` with ``body`` above the quoted
        mail, as a mail client writes it; it is counted as sent."""
        msg = EmailMessage()
        msg["From"] = address
        msg["To"] = to_mail["Reply-To"]
        msg["Subject"] = "Re: " + str(to_mail["Subject"])
        msg["Message-ID"] = make_msgid(domain=address.rpartition("@")[2])
        msg["In-Reply-To"] = to_mail["Message-ID"]
        msg["References"] = " ".join(
            filter(None, [str(to_mail["References"] or ""), str(to_mail["Message-ID"])])
        )
        msg.set_content(
            f"{body}\n\nOn {to_mail['Date']}, Arbiter wrote:\n> "
            + body_of(to_mail).replace("\n", "\n> ")[:2000]
            + "\n"
        )
        self.sent[msg["Message-ID"]] = address
        return msg

    def answer_of(self, message_id: str, timeout: float) -> EmailMessage:
        """Wait for the arbiter's answer to our mail ``message_id``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for msg in self.sink.snapshot():
                if msg["In-Reply-To"] == message_id:
                    return msg
            time.sleep(0.05)
        raise PlayError(f"no answer to {message_id} within {timeout:.0f} s")

    def step(self, timeout: float) -> bool:
        """Accept every invitation and answer every turn mail not yet answered; return
        True if any was."""
        acted = False
        for msg in self.sink.snapshot():
            if (
                not (is_turn_mail(msg) or is_invitation(msg))
                or msg["Message-ID"] in self.handled
                or str(msg["To"]) not in self.addresses
            ):
                continue
            self.handled.add(msg["Message-ID"])
            address = str(msg["To"])
            if is_invitation(msg):
                self.send(address, msg, "Yes, count me in!")
                self.echo(f"  accepted the invitation of {address} by mail")
                acted = True
                continue
            moves, complete = listed_moves(body_of(msg))
            if not complete:
                answer = self.answer_of(self.send(address, msg, "moves"), timeout)
                moves, complete = listed_moves(body_of(answer))
            if not moves:
                continue
            move = self.rng.choice(moves)
            self.send(address, msg, move)
            self.moves += 1
            self.echo(f"  mail {self.moves:4d}  {address}: {move}")
            acted = True
        return acted

    def check(self) -> MailCheck:
        """Return the counts of turn mails, answers and commands per address."""
        out = MailCheck(addresses=list(self.addresses))
        ids = Counter(str(m["Message-ID"]) for m in self.sink.snapshot())
        out.problems += [f"Message-ID {i} received {n} times" for i, n in ids.items() if n > 1]
        for msg in self.sink.snapshot():
            if str(msg["To"]) not in self.addresses:
                continue  # another game's (several games may share one sink)
            if is_turn_mail(msg):
                out.turn_mails[str(msg["To"])] += 1
            elif msg["In-Reply-To"] in self.sent:
                out.answers[str(msg["To"])] += 1
        for address in self.sent.values():
            out.commands[address] += 1
        return out


def sign_up_by_mail(client: Client, sink: Sink, address: str) -> str:
    """Sign ``address`` (a mailbox of ``sink``) up at the ``client``'s server through
    its mailed link; return the personal token.

    :raises PlayError: the server refused, or no link came within a minute.
    """
    with refused():
        client.account.request_link(address)
    deadline = time.monotonic() + 60
    while not sink.to(address):
        if time.monotonic() > deadline:
            raise PlayError(f"no sign-in mail reached {address} within 60 s")
        time.sleep(0.1)
    found = re.search(r"[?&]token=([^&\s]+)", body_of(sink.to(address)[-1]))
    if found is None:
        raise PlayError(f"the mail to {address} holds no sign-in link")
    with refused():
        return client.account.sign_in(address, unquote(found.group(1)))["token"]["token"]


def play_by_email(
    url: str,
    engine: str,
    players: int,
    sink: Sink,
    mailin_url: str,
    seed: int | None = None,
    out_dir: str | Path = ".",
    echo: Callable[[str], None] = print,
    timeout: float = 600.0,
    token: str | None = None,
) -> tuple[Played, MailCheck]:
    """Create a game at ``url`` and play it out by mail through ``sink`` (where the
    server's ``SMTP_URL`` points) and ``mailin_url`` (the server's listener).

    :param token: a personal API token with ``games:create`` (it invites the
        players); None: an account of the sink's is signed up for it
        (:func:`sign_up_by_mail`).
    :returns: the played game (record saved and verified) and its :class:`MailCheck`.
    :raises PlayError: a refusal the player did not expect, or ``timeout`` seconds.
    """
    base = url.rstrip("/")
    run = secrets.token_hex(3)
    names = [f"Player {i + 1}" for i in range(players)]
    addresses = [f"player{i + 1}.{run}@players.example" for i in range(players)]
    with Client(url, timeout=30) as client:
        token = token or sign_up_by_mail(client, sink, f"host.{run}@players.example")
        with refused():
            created = client.with_token(token).games.create(
                engine, [{"name": n, "email": a} for n, a in zip(names, addresses)]
            )
    game_id = created["id"]
    echo(f"created {engine} game {game_id} for {players} players at {base}; playing by mail")
    player = MailPlayer(sink, mailin_url, addresses, random.Random(seed), echo)
    started = time.monotonic()
    while (
        sum("is over" in str(m["Subject"]) for m in sink.snapshot() if str(m["To"]) in addresses)
        < players
    ):
        if time.monotonic() - started > timeout:
            raise PlayError(f"game {game_id} did not end by mail within {timeout:.0f} s")
        if not player.step(timeout=60):
            time.sleep(0.05)
    time.sleep(1.0)  # a late duplicate or a missing answer would show now
    check = player.check()
    with Client(url, timeout=30) as client, refused():
        record = dict(client.games.record(game_id))
    for event in record["events"]:
        if event["kind"] == "move" and (event["payload"].get("via") or {}).get("channel") != "mail":
            check.problems.append(f"move at seq {event['seq']} did not come by mail")
    played = save_and_verify(record, engine, game_id, out_dir, player.moves)
    _report(echo, record, names, played.path, played.verdict)
    for address in addresses:
        echo(
            f"{address}: {check.turn_mails[address]} turn mails, {check.commands[address]} "
            f"commands, {check.answers[address]} answers"
        )
    for problem in check.problems:
        echo(f"PROBLEM: {problem}")
    return played, check
