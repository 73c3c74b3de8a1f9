"""Three players of a Dark Horse game on every channel (issue 24, "Check"): Ann plays
and talks over REST, Bob on his game page in a real browser (Debian's Chromium), Cat
by mail (replies sent to the mailin listener over SMTP, the arbiter's mail received by
a real SMTP server on loopback); a spectator with an account talks on the spectators'
channel and reads the page and the API.

The first player to move asks to take that move back (on their own channel); the two
others accept (on theirs), and the move is undone. At every step (the game settled)
everything each reader gets is checked: every mail, their page, every REST answer and
every line of their game stream holds no secret of another seat (Move and Goal cards,
the Goal deck: rules/dark-horse.md, "Setup" 1 and 4) and no message or note they may
not read (docs/guides/messages.md, "Who reads what"); every mail's raw
``List-Unsubscribe`` holds ``<http``. On the embedded default and on PostgreSQL +
Redis.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import time
import uuid

import pytest
import requests
import sqlalchemy as sa
from arbiter_client import Client

import engines
from arbiter.extensions import db
from arbiter.play_mail import (
    MailPlayer,
    Sink,
    body_of,
    is_turn_mail,
    listed_moves,
    sign_up_by_mail,
)
from engines import move_parts
from tests.conftest import REDIS_URL, free_port, make_app, need
from tests.e2e.talk_checks import (
    AccountStreams,
    Watch,
    check_list_unsubscribe,
    check_stream_messages,
    stream_lines,
)
from tests.e2e.test_browser import click_a_move, fresh_page

pytestmark = pytest.mark.slow

SEAT_NUMBER = re.compile(r"\b[Ss]eat \d")
"""People read names, not seat numbers (docs: "names not seat numbers")."""

ANN, BOB, CAT = 0, 1, 2
SPECTATOR = None
CARD_MOVES = 3
"""Moves played after the Bugs are placed (one Move card each): the check needs cards
in play, not a whole game."""


def settled(url: str, game_id: str, seconds: float = 120) -> dict:
    """Wait until the game waits for a seat (the worker rolled what it must)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        s = requests.get(f"{url}/v1/games/{game_id}", timeout=30).json()
        if s["status"] == "over" or s["to_act"]:
            return s
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not settle: {s}")


def bearer(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def key() -> dict:
    return {"Idempotency-Key": str(uuid.uuid4())}


class Table:
    """The game, its three players on their channels and the spectator."""

    def __init__(self, url: str, sink: Sink, mailin_url: str, app, run: str) -> None:
        self.url, self.sink, self.app, self.run = url, sink, app, run
        self.addresses = [f"{n}.{run}@players.example" for n in ("ann", "bob", "cat")]
        self.spectator_address = f"spec.{run}@players.example"
        with Client(url, timeout=30) as client:
            self.personal = [sign_up_by_mail(client, sink, a) for a in self.addresses]
            self.spectator_token = sign_up_by_mail(client, sink, self.spectator_address)
        created = requests.post(
            f"{url}/v1/games",
            headers=bearer(self.personal[ANN]),
            json={
                "engine": "dark-horse",
                "players": [
                    {"name": n, "email": a} for n, a in zip(("Ann", "Bob", "Cat"), self.addresses)
                ],
                "talk": {"press": True},
            },
            timeout=30,
        )
        assert created.status_code == 201, created.text
        self.game = created.json()
        self.id = self.game["id"]
        self.tokens = [s["token"] for s in self.game["seats"]]
        self.mailer = MailPlayer(sink, mailin_url, [self.addresses[CAT]], random.Random(3), print)
        self.engine = engines.get("dark-horse")
        self.rng = random.Random(5)
        self.bob = None
        self.spectator_page = None
        self.mails_seen = 0
        self.said: set[str] = set()

    # -- Ann: REST ---------------------------------------------------------------
    def rest(self, method: str, path: str, token: str | None, **kw) -> requests.Response:
        return requests.request(
            method,
            f"{self.url}/v1/games/{self.id}{path}",
            headers=bearer(token) | key(),
            timeout=30,
            **kw,
        )

    def ann_move(self) -> None:
        legal = self.rest("GET", "/legal-moves", self.tokens[ANN]).json()
        move = move_parts.pick(legal, self.rng)
        answer = self.rest(
            "POST",
            "/moves",
            self.tokens[ANN],
            json={"move": move, "expected_version": legal["version"]},
        )
        assert answer.status_code == 201, answer.text

    def ann_say(self, channel: str, text: str, to: int | None = None) -> None:
        body = {"channel": channel, "text": text, **({"to": to} if to is not None else {})}
        answer = self.rest("POST", "/messages", self.tokens[ANN], json=body)
        assert answer.status_code == 201, answer.text

    # -- Bob: the game page --------------------------------------------------------
    def bob_page(self):
        self.bob.goto(f"{self.url}/games/{self.id}")
        return self.bob

    def bob_move(self) -> None:
        click_a_move(self.bob_page(), self.rng)

    def bob_form(self, field: str, text: str, button: str, channel: str | None = None) -> None:
        page = self.bob_page()
        page.fill(field, text)
        if channel:
            page.check(f'.talk-channels input[value="{channel}"]')
        with page.expect_navigation():
            page.locator(f'button:text-is("{button}")').click()
        assert text in page.content(), page.content()[:3000]

    def bob_agreement(self, link_text: str, button: str) -> None:
        page = self.bob_page()
        with page.expect_navigation():
            page.get_by_text(link_text).click()
        with page.expect_navigation():
            page.locator(f'form button:text-is("{button}")').click()

    # -- Cat: mail ---------------------------------------------------------------------
    def cat_mails(self) -> list:
        return self.sink.to(self.addresses[CAT])

    def cat_reply(self, body: str, to_mail=None) -> str:
        """Reply to ``to_mail`` (default: Cat's latest mail of this game) and return the
        arbiter's answer's text."""
        if to_mail is None:
            to_mail = next(m for m in reversed(self.cat_mails()) if m["Reply-To"])
        sent = self.mailer.send(self.addresses[CAT], to_mail, body)
        return body_of(self.mailer.answer_of(sent, 120))

    def cat_move(self) -> None:
        deadline = time.monotonic() + 120
        while True:
            turns = [m for m in self.cat_mails() if is_turn_mail(m)]
            fresh = [m for m in turns if m["Message-ID"] not in self.mailer.handled]
            if fresh:
                break
            if time.monotonic() > deadline:  # everything that tells why, untruncated
                pytest.fail(
                    json.dumps(
                        {
                            "no turn mail for Cat": requests.get(
                                f"{self.url}/v1/games/{self.id}", timeout=30
                            ).json(),
                            "events": self.rest("GET", "/events?after=0", None).json()["events"][
                                -8:
                            ],
                            "Cat's mails": [
                                [str(m["Subject"]), str(m["Reply-To"])] for m in self.cat_mails()
                            ],
                        },
                        indent=1,
                    )
                )
            time.sleep(0.1)
        mail = fresh[-1]
        self.mailer.handled.update(m["Message-ID"] for m in turns)
        moves, complete = listed_moves(body_of(mail))
        if not complete:
            moves, _ = listed_moves(self.cat_reply("moves", mail))
        answer = self.cat_reply(self.rng.choice(moves), mail)
        assert "Recorded: " in answer, answer

    def move(self, seat: int) -> None:
        (self.ann_move, self.bob_move, self.cat_move)[seat]()

    # -- undo, on each channel ----------------------------------------------------------
    def ask_undo(self, seat: int) -> None:
        if seat == ANN:
            answer = self.rest("POST", "/undo-requests", self.tokens[ANN])
            assert answer.status_code == 201, answer.text
        elif seat == BOB:
            self.bob_agreement("Ask to take back my last move", "Ask the others")
        else:
            answer = self.cat_reply("undo")
            assert "You asked to take back your last move" in answer, answer

    def accept_undo(self, seat: int, request: int) -> None:
        if seat == ANN:
            answer = self.rest("POST", f"/undo-requests/{request}/accept", self.tokens[ANN])
            assert answer.status_code in (200, 201), answer.text
        elif seat == BOB:
            self.bob_agreement("Accept…", "Accept")
        else:
            deadline = time.monotonic() + 120
            while not any("take back" in body_of(m).lower() for m in self.cat_mails()[-3:]):
                assert time.monotonic() < deadline, "Cat was not told of the undo request"
                time.sleep(0.1)
            self.cat_reply("accept undo")

    # -- what everyone reads --------------------------------------------------------------
    def check_everything(self, watch: Watch) -> None:
        """At a settled point, check every reader's page, API answers, stream and new
        mail against the state of the game now."""
        s = settled(self.url, self.id)
        version = s["version"]
        self.mail_settled()
        from arbiter.games.games import load

        with self.app.app_context():
            _, _, state = load(self.id)
        readers = {ANN: self.tokens[ANN], BOB: self.tokens[BOB], CAT: self.tokens[CAT]}
        for reader, token in [
            *readers.items(),
            (SPECTATOR, None),
            (SPECTATOR, self.spectator_token),
        ]:
            hidden = watch.secrets_hidden_from(self.engine, state, 3, reader)
            for path in ("", "/view", "/events?after=0", "/messages?after=0"):
                got = self.rest("GET", path, token)
                assert got.status_code == 200, (path, got.text)
                watch.check(reader, f"GET {path}", got.text, hidden)
            if reader is not None:
                for path in ("/legal-moves", "/notes"):
                    got = self.rest("GET", path, token)
                    watch.check(reader, f"GET {path}", got.text, hidden)
            lines = stream_lines(self.url, self.id, token, version)
            for line in lines:
                watch.check(reader, "stream", line, hidden)
            check_stream_messages(watch, reader, lines, readable(self, reader))
        for reader, page in ((BOB, self.bob_page()), (SPECTATOR, self.spectator_page)):
            if reader is SPECTATOR:
                page.goto(f"{self.url}/games/{self.id}")
            hidden = watch.secrets_hidden_from(self.engine, state, 3, reader)
            watch.check(reader, "page", page.content(), hidden)
            words = page.locator("main").inner_text()
            assert not SEAT_NUMBER.search(words), SEAT_NUMBER.search(words).group(0)
            talk = page.request.get(f"{self.url}/games/{self.id}/talk?after=0")  # talk.js's
            assert talk.ok, talk.text()
            watch.check(reader, "page talk", talk.text(), hidden)
        for reader in (ANN, BOB, CAT, SPECTATOR):
            watch.hidden_at[(reader, version)] = watch.secrets_hidden_from(
                self.engine, state, 3, reader
            )
        mails = self.sink.snapshot()
        for mail in mails[self.mails_seen :]:
            to = str(mail["To"])
            reader = self.addresses.index(to) if to in self.addresses else SPECTATOR
            hidden = watch.secrets_hidden_from(self.engine, state, 3, reader)
            watch.check(reader, f"mail {mail['Subject']}", str(mail), hidden)
            assert "{{" not in body_of(mail), body_of(mail)  # a mark left unfilled
            assert not SEAT_NUMBER.search(body_of(mail)), body_of(mail)  # names, not seats
        self.mails_seen = len(mails)

    def mail_settled(self, seconds: float = 120) -> None:
        """Wait until no mail of the game waits in the outbox: reading a seat's stream
        marks it present, which passes over its turn mail if that is still on its way
        (docs/guides/notifications.md)."""
        from arbiter.models import OutboxMail

        waiting = (
            sa.select(sa.func.count())
            .select_from(OutboxMail)
            .where(
                OutboxMail.game_id == self.id,
                OutboxMail.sent_at.is_(None),
                OutboxMail.given_up_at.is_(None),
            )
        )
        deadline = time.monotonic() + seconds
        while True:
            with self.app.app_context():
                left = db.session.scalar(waiting)
                db.session.remove()
            if not left:
                return
            assert time.monotonic() < deadline, f"{left} mails of the game still unsent"
            time.sleep(0.1)

    marks: dict = {}


MARKS = ("tann", "tbob", "tcat", "pann2cat", "pcat2ann", "nann", "nbob", "ncat", "sspec")
"""The messages and notes of the test, each with a marker of its own in its text."""

READS = {
    ANN: ("tann", "tbob", "tcat", "pann2cat", "pcat2ann"),
    BOB: ("tann", "tbob", "tcat"),
    CAT: ("tann", "tbob", "tcat", "pann2cat", "pcat2ann"),
    SPECTATOR: ("sspec",),
}
"""The messages each reader reads (docs/guides/messages.md, "Who reads what": press on,
spectators not allowed to read the table; notes only their own seat's)."""


def forbid_all(table: Table, watch: Watch) -> dict:
    """Make the markers; tell the watch who must never read which
    (docs/guides/messages.md, "Who reads what")."""
    m = {name: f"zq{table.run}{name}" for name in MARKS}
    players = (ANN, BOB, CAT)
    for name in ("tann", "tbob", "tcat"):
        watch.forbid(m[name], "a table message (spectators may not read the table)", [SPECTATOR])
    for name in ("pann2cat", "pcat2ann"):
        watch.forbid(m[name], "a private message between Ann and Cat", [BOB, SPECTATOR])
    for name, seat in (("nann", ANN), ("nbob", BOB), ("ncat", CAT)):
        others = [s for s in (*players, SPECTATOR) if s != seat]
        watch.forbid(m[name], "another seat's note", others)
    watch.forbid(m["sspec"], "the spectators' channel while the game runs", players)
    table.marks = m
    return m


def readable(table: Table, reader) -> set[str]:
    """The markers said so far that ``reader`` may read."""
    return {table.marks[n] for n in READS[reader] if n in table.said}


def talk_on_the_web(table: Table) -> None:
    """Ann (REST), Bob (his page) and the spectator (REST, a personal token) talk."""
    m = table.marks
    table.ann_say("table", f"Good luck, everyone! {m['tann']}")
    table.ann_say("private", f"Shall we block Bob? {m['pann2cat']}", to=CAT)
    answer = table.rest(
        "POST", "/notes", table.tokens[ANN], json={"text": f"Bob bluffs {m['nann']}"}
    )
    assert answer.status_code in (200, 201), answer.text
    table.bob_form("#talk-text", f"Have fun {m['tbob']}", "Send", channel="table")
    table.bob_form("#note-text", f"Cat likes the snail {m['nbob']}", "Keep it")
    spoken = requests.post(
        f"{table.url}/v1/games/{table.id}/messages",
        headers=bearer(table.spectator_token) | key(),
        json={"channel": "spectators", "text": f"Who wins? {m['sspec']}"},
        timeout=30,
    )
    assert spoken.status_code == 201, spoken.text
    table.said.update(("tann", "pann2cat", "nann", "tbob", "nbob", "sspec"))


def talk_by_mail(table: Table) -> None:
    """Cat talks in a reply to her latest mail of the game: at the table, privately to
    Ann, and a note."""
    m = table.marks
    answer = table.cat_reply(
        f"say Hello from Cat {m['tcat']}\nsay to Ann: yes, {m['pcat2ann']}\n"
        f"note Ann wants the fly {m['ncat']}"
    )
    assert answer.count("Said at the table") == 1, answer
    assert answer.count("Said privately to Ann") == 1, answer
    assert "Noted (only you read your notes)" in answer, answer
    table.said.update(("tcat", "pcat2ann", "ncat"))


def play_and_check(url: str, sink: Sink, mailin_url: str, app, new_context) -> None:
    """The scenario of the module docstring, on a started stack."""
    watch = Watch()
    table = Table(url, sink, mailin_url, app, secrets.token_hex(3))
    accounts = {
        ANN: table.personal[ANN],
        BOB: table.personal[BOB],
        CAT: table.personal[CAT],
        SPECTATOR: table.spectator_token,
    }
    with AccountStreams(url, accounts) as streams:
        play_on(table, watch, url, sink, app, new_context)
    for reader, lines in streams.lines.items():
        for line in lines:
            watch.check_line(reader, table.id, line)
        check_stream_messages(watch, reader, lines, set())
    assert sum(len(lines) for lines in streams.lines.values()) > 10, streams.lines


def play_on(table: Table, watch: Watch, url: str, sink: Sink, app, new_context) -> None:
    """Play and check (see the module docstring)."""
    table.bob = fresh_page(new_context)
    table.bob.goto(table.game["seats"][BOB]["link"])
    assert 'data-seat="1"' in table.bob.content()
    table.spectator_page = fresh_page(new_context)
    s = settled(url, table.id)
    markers = forbid_all(table, watch)
    talk_on_the_web(table)
    table.check_everything(watch)

    # the first mover asks to take the move back; the two others accept
    first = s["to_act"][0]
    table.move(first)
    settled(url, table.id)
    table.ask_undo(first)
    asked = table.rest("GET", "/events?after=0", None).json()["events"]
    request = next(e["seq"] for e in reversed(asked) if e["kind"] == "undo-requested")
    table.check_everything(watch)
    for seat in (ANN, BOB, CAT):
        if seat != first:
            table.accept_undo(seat, request)
    s = settled(url, table.id)
    kinds = [e["kind"] for e in table.rest("GET", "/events?after=0", None).json()["events"]]
    assert "moves-undone" in kinds, kinds
    assert s["to_act"] == [first], s
    if first != CAT:  # a turn mail Cat had since the undone move is of a prompt that ended
        table.mailer.handled.update(m["Message-ID"] for m in table.cat_mails() if is_turn_mail(m))
    talk_by_mail(table)  # Cat has had a mail of the game by now (a turn, or the request)
    table.check_everything(watch)

    # the Bugs are placed and a few Move cards played, each by its seat's channel
    cards = 0
    while cards < CARD_MOVES:
        s = settled(url, table.id)
        assert s["status"] == "active", s
        with app.app_context():
            from arbiter.games.games import load

            _, _, state = load(table.id)
        placing = state.get("hands") is None or not any(state["hands"])
        table.move(s["to_act"][0])
        cards += not placing
        table.check_everything(watch)

    # what each reader reads of the talk, positively
    for reader, token in ((ANN, table.tokens[ANN]), (BOB, table.tokens[BOB]), (SPECTATOR, None)):
        texts = table.rest("GET", "/messages?after=0", token).text
        for marker in readable(table, reader):
            assert marker in texts, (reader, marker)
    assert markers["tann"] in table.bob_page().content()
    assert markers["sspec"] in table.spectator_page.content()
    assert any(markers["tann"] in body_of(m) for m in table.cat_mails()), "no talk in Cat's mail"
    assert watch.checked > 100, watch.checked
    assert check_list_unsubscribe(sink.raw) == len(sink.snapshot()) > 10


def run_stack(start_stack, tmp_path, new_context, database_url, broker_url) -> None:
    sink_url = f"smtp://127.0.0.1:{free_port()}"
    mailin_url = f"smtp://127.0.0.1:{free_port()}"
    with Sink(sink_url) as sink:
        url = start_stack(database_url, broker_url, sink_url, mailin_url)
        app = make_app(database_url or f"sqlite:///{tmp_path / 'instance' / 'arbiter.sqlite3'}")
        play_and_check(url, sink, mailin_url, app, new_context)


def test_three_channels_on_the_embedded_default(start_stack, tmp_path, new_context):
    """Given SQLite and the filesystem broker, the module's scenario holds."""
    run_stack(start_stack, tmp_path, new_context, None, None)


@pytest.mark.soak  # make test runs the embedded default; make soak both
def test_three_channels_on_postgres_and_redis(start_stack, tmp_path, new_context, postgres_url):
    """Given PostgreSQL and Redis, the module's scenario holds."""
    import redis

    broker = need(REDIS_URL, "Redis", "ARBITER_TEST_REDIS_URL")
    redis.Redis.from_url(broker).flushdb()
    run_stack(start_stack, tmp_path, new_context, postgres_url, broker)
