"""Mails name a game in people's language (issue 23, "no version numbers or codes in
pages and mails"): by its engine's title, the other players and the day it started
("Your turn in Dark Horse with Bob and Cat"), never by its id; the id stays in the
machine places (links, Reply-To, Message-ID)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import digest, naming
from arbiter.mail.mail import Suppressed, final_body, message
from arbiter.models import Account, Game, OutboxMail
from arbiter.models.timestamps import utcnow
from arbiter.play_mail import is_turn_mail, listed_moves
from tests.arbiter.clock_helpers import sweep
from tests.arbiter.mailin.support import ADDRESS, answer_to, deliver, game_row, reply, turn_mail
from tests.arbiter.mailin.test_mail_agreements import answer_mail, request_mail
from tests.conftest import make_app
from tests.helpers import agreed, until_decision

NAMES = ["Ann", "Bob", "Cat"]
URL = re.compile(r"https?://\S+")


@pytest.fixture
def app(empty_db_url):
    """An app on each database (SQLite, and a PostgreSQL schema of the test's own)."""
    made = make_app(empty_db_url)
    yield made
    with made.app_context():
        db.engine.dispose()


def _game(client, app) -> str:
    """A Dark Horse game of Ann, Bob and Cat (Cat in Berlin), with a clock that
    reminds an hour before a two-hour deadline, rolled to its first decision."""
    agreed(app, *(ADDRESS.format(i) for i in range(3)))
    made = client.post(
        "/v1/games",
        json={
            "engine": "dark-horse",
            "clock": {"type": "per-move", "seconds": 7200, "reminders": [3600]},
            "players": [
                {
                    "name": name,
                    "email": ADDRESS.format(i),
                    "tz": "Europe/Berlin" if name == "Cat" else None,
                }
                for i, name in enumerate(NAMES)
            ],
        },
    )
    assert made.status_code == 201, made.json
    until_decision(client, app, made.json["id"])
    return made.json["id"]


def _reply(app, game_id: str, seat: int, body: str) -> str:
    """Reply to ``seat``'s latest turn mail as a mail client does (its subject with
    ``Re:``); return the outcome code."""
    subject = "Re: " + turn_mail(app, game_id, seat).subject
    return answer_to(app, game_id, seat, body, subject=subject)[1]


def _sent(app, row: OutboxMail) -> str:
    with app.app_context():
        return final_body(row)


def _words(app, row: OutboxMail) -> str:
    """The words a person reads of ``row``: its subject and its text as written and,
    when it can still be sent, as sent, without the links."""
    texts = [row.subject, row.body]
    with app.app_context():
        try:
            texts.append(final_body(row))
        except Suppressed:  # a turn that was over before its mail went
            pass
    return URL.sub("<link>", "\n".join(texts))


def test_no_mail_a_person_reads_names_a_game_by_its_id(app, client):
    """Given a game played by mail through a move, a status, an undo asked, a clock
    reminder, a digest, an agreed abort and a rematch, no subject or text of any mail
    (turn, answer, undo, abort, reminder, digest, game over, the rematch's) holds a
    game's id outside a link, while the ids stay in the links and the Reply-To; the
    turn mail names the game by the other players and the day it started."""
    game_id = _game(client, app)
    first = game_row(app, game_id)["to_act"][0]
    others = [NAMES[s] for s in range(3) if s != first]
    mail = turn_mail(app, game_id, first)
    assert mail.subject == f"[Arbiter] Your turn in Dark Horse with {' and '.join(others)}"
    assert is_turn_mail(_headed(mail.subject))  # the tools still find the turn mails
    today = naming.day(utcnow(), "Europe/Berlin" if first == 2 else None)
    named = f"It is your turn in Dark Horse with {' and '.join(others)}, started on {today}."
    assert named in _sent(app, mail)  # the day is put in when it is sent
    assert f"/games/{game_id}" in mail.body and mail.headers["Reply-To"].startswith(game_id)

    move = listed_moves(mail.body)[0][0]
    assert _reply(app, game_id, first, f"Hi,\n\n{move}\n\nAnn") == "answered"
    until_decision(client, app, game_id)
    second = game_row(app, game_id)["to_act"][0]
    assert _reply(app, game_id, second, "status") == "answered"
    assert _reply(app, game_id, first, "undo") == "answered"
    undo = request_mail(app, game_id, second, "undo")
    assert undo.subject.startswith(f"[Arbiter] {NAMES[first]} asks to take back a move in ")
    assert sweep(app, utcnow() + timedelta(seconds=3700))["reminders"] >= 1
    with app.app_context():
        game = db.session.get(Game, game_id)
        account = db.session.scalars(
            sa.select(Account).where(Account.email == ADDRESS.format(second))
        ).one()
        db.session.add(digest.digest_mail(account, [(game, game.seats[second])], utcnow()))
        db.session.commit()
    assert _reply(app, game_id, second, "abort") == "answered"
    for seat in range(3):
        if seat != second:
            abort = request_mail(app, game_id, seat, "abort")
            assert answer_mail(app, game_id, seat, abort, "accept abort")[1] == "answered"
    assert game_row(app, game_id)["status"] == "over"
    with app.app_context():
        over = db.session.scalars(
            sa.select(OutboxMail).where(OutboxMail.dedupe_key == f"over:{game_id}:{first}")
        ).one()
        db.session.expunge(over)
    assert over.subject == f"[Arbiter] Dark Horse with {' and '.join(others)} is over"
    to = over.headers["Reply-To"]
    _, code = deliver(
        app, reply(to, "rematch", ADDRESS.format(first), subject="Re: " + over.subject), to
    )
    assert code == "answered"

    with app.app_context():
        rows = db.session.scalars(sa.select(OutboxMail).order_by(OutboxMail.id)).all()
        ids = set(db.session.scalars(sa.select(Game.id)))
        for row in rows:
            db.session.expunge(row)
    assert len(ids) == 2  # the game and its rematch
    kinds = {row.dedupe_key.split(":")[0] for row in rows}
    assert {"turn", "answer", "undo", "abort", "remind", "digest", "over"} <= kinds, kinds
    for row in rows:
        words = _words(app, row)
        for one in ids:
            assert one not in words, (row.dedupe_key, words)
    rematch_answer = next(r for r in rows if "The rematch:" in r.body)
    assert re.search(r"Its page: \S+/games/[0-9a-f]+$", rematch_answer.body, re.M)


def _headed(subject: str) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = subject
    return msg


def test_many_other_players_are_counted_and_the_day_is_the_readers(app, client):
    """More than three other players: two are named and the rest counted; the day the
    game started is the reader's: 23:30 UTC on 1 December is 2 December for Cat in
    Berlin, and a day of another year says its year."""
    assert naming.joined(["Bob"]) == "Bob"
    assert naming.joined(["Bob", "Cat"]) == "Bob and Cat"
    assert naming.joined(["Bob", "Cat", "Dan"]) == "Bob, Cat and Dan"
    assert naming.joined(["Bob", "Cat", "Dan", "Eve", "Fay"]) == "Bob, Cat and 3 others"
    late = datetime(utcnow().year, 12, 1, 23, 30, tzinfo=UTC)
    assert naming.day(late) == "1 December"
    assert naming.day(late, "Europe/Berlin") == "2 December"
    assert naming.day(late.replace(year=2020)) == "1 December 2020"
    game_id = _game(client, app)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert naming.game_words(game, 2, started=late) == (
            "Dark Horse with Ann and Bob, started on 2 December"
        )
        assert naming.game_words(game, 0, started=late) == (
            "Dark Horse with Bob and Cat, started on 1 December"
        )
        assert naming.game_words(game) == "Dark Horse with Ann, Bob and Cat"
        assert naming.started_at(game) == game.created_at  # it never waited


def test_the_unsubscribe_page_of_a_game_names_it_by_its_title(app, client):
    """The page a turn mail's List-Unsubscribe link opens asks to stop "mail about
    your game of Dark Horse", not about a game id."""
    game_id = _game(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    mail = turn_mail(app, game_id, seat)
    with app.app_context():
        header = str(message(mail, body=mail.body)["List-Unsubscribe"])
    link = re.search(r"<https?://[^/>]+(/v1/unsubscribe\?t=[^>]+)>", header).group(1)
    page = client.get(link).get_data(as_text=True)
    assert f"Stop mail about your game of Dark Horse to {ADDRESS.format(seat)}?" in page
    assert f"game {game_id}" not in page


def test_a_deleted_games_started_clause_goes_with_its_comma():
    """Given a mail written with the day-started mark whose game was deleted before it
    went, the sentence reads without the clause and without a stray comma."""
    text = f"Your game of Dark Horse with Bob{naming.STARTED_MARK}, is over."
    assert naming.fill_started(text, None) == "Your game of Dark Horse with Bob is over."
    assert naming.fill_started(f"In Space Worm{naming.STARTED_MARK}.", None) == "In Space Worm."
