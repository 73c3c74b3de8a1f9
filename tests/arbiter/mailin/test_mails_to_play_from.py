"""Mails a player can play well from (issue 24, item 4): the turn mail tells what
happened since the player's last turn with names and only what that seat may see, the
board, the legal moves once, how to win and the rules page; the game-over mail tells
how the scores were made and what is revealed, and takes a reply; replies with a
greeting and a signature around the move; List-Unsubscribe as raw bytes."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

import engines
from arbiter.extensions import db
from arbiter.games.games import load
from arbiter.mail.mail import final_body, message
from arbiter.models import OutboxMail
from arbiter.play_mail import listed_moves
from tests.arbiter.mailin.support import (
    ADDRESS,
    answer_to,
    answers,
    deliver,
    game_row,
    moves_logged,
    reply,
    started,
    turn_mail,
)
from tests.conftest import make_app
from tests.helpers import until_decision


@pytest.fixture
def app(empty_db_url):
    """An app on each database (SQLite, and a PostgreSQL schema of the test's own)."""
    made = make_app(empty_db_url)
    yield made
    with made.app_context():
        db.engine.dispose()


POLITE = "Hi Arbiter,\n\n{move}\n\nThanks, Ann\n-- \nAnn Example\nSent from my phone\n"


def sent_text(app, row: OutboxMail) -> str:
    """Return the text outbox ``row`` is sent with (completed when it is sent)."""
    with app.app_context():
        return final_body(row)


def play(client, app, game_id: str, seat: int, body: str = "{move}") -> str:
    """Reply to seat's turn mail with its first listed move inside ``body``; return it."""
    move = listed_moves(turn_mail(app, game_id, seat).body)[0][0]
    outcome, code = answer_to(app, game_id, seat, body.format(move=move))
    assert code == "answered"
    until_decision(client, app, game_id)
    return move


def test_a_move_between_a_greeting_and_a_signature_is_played_and_the_rest_named(app, client):
    """Given "Hi Arbiter," then the move then "Thanks, Ann" and a signature, the move
    is recorded and the answer says which lines were ignored."""
    game_id = started(client, app, "dark-horse", 3)
    seat = game_row(app, game_id)["to_act"][0]
    move = play(client, app, game_id, seat, POLITE)
    assert moves_logged(app, game_id)[-1]["text"] == move
    last = answers(app, game_id)[-1]
    assert "Recorded:" in last.body and "Refused" not in last.body
    assert '"Hi Arbiter,"' in last.body and "ignored" in last.body


def test_a_mail_with_no_move_at_all_is_refused_with_what_to_write(app, client):
    """Given only prose, nothing is played and the answer lists the moves and help."""
    game_id = started(client, app, "dark-horse", 3)
    seat = game_row(app, game_id)["to_act"][0]
    before = len(moves_logged(app, game_id))
    answer_to(app, game_id, seat, "Hi Arbiter,\n\nI am not sure what to do.\n\nAnn\n")
    assert len(moves_logged(app, game_id)) == before
    body = answers(app, game_id)[-1].body
    assert "Refused" in body and "Commands (one per line" in body


def test_the_turn_mail_tells_the_history_with_names_and_lists_the_moves_once(app, client):
    """Given three Dark Horse players, after the others moved, the third's turn mail
    tells their moves by name, the board, how to win, the rules link; no "seat N";
    the legal moves are listed once; no other seat's secret is in it."""
    game_id = started(client, app, "dark-horse", 3)
    first = game_row(app, game_id)["to_act"][0]
    play(client, app, game_id, first)
    second = game_row(app, game_id)["to_act"][0]
    play(client, app, game_id, second)
    third = game_row(app, game_id)["to_act"][0]
    body = sent_text(app, turn_mail(app, game_id, third))
    names = {s: f"P{s}" for s in range(3)}
    assert "So far:" in body or "Since your last turn:" in body
    told = body.split("The board:")[0]
    assert f"  {names[first]} placed the " in told and f"  {names[second]} placed the " in told
    assert "The board:" in body
    assert f"How to win: {engines.get('dark-horse').how_to_win}" in body
    assert "/rules/dark-horse" in body and f"/games/{game_id}" in body
    assert not re.search(r"\bseat \d\b", body, re.I)
    moves, _ = listed_moves(body)
    for move in moves:
        assert len(re.findall(rf"^\s*{re.escape(move)}\s*$", body, re.M)) == 1, move
    with app.app_context():
        _, engine, state = load(game_id)
        for other in range(3):
            if other != third:
                for secret in engine.secrets(state, other):
                    assert not re.search(rf"\b{re.escape(secret)}\b", body), secret


def test_the_game_over_mail_tells_how_the_scores_were_made_and_takes_a_reply(app, client):
    """Given a Dark Horse game played out by mail, the game-over mail names the
    revealed Goal cards with their points, the scores, the final board, the game page,
    and has a Reply-To whose reply is answered, not bounced."""
    game_id = started(client, app, "dark-horse", 2)
    for _ in range(200):
        row = game_row(app, game_id)
        if row["status"] != "active":
            break
        play(client, app, game_id, row["to_act"][0], POLITE)
    assert game_row(app, game_id)["status"] == "over"
    with app.app_context():
        over = db.session.scalars(
            sa.select(OutboxMail).where(OutboxMail.dedupe_key == f"over:{game_id}:0")
        ).one()
        db.session.expunge(over)
    body = sent_text(app, over)
    assert "all-cards-played" not in body and "{{" not in body
    assert "How the scores were made:" in body and "Goal cards:" in body
    assert "points" in body and "Scores:" in body
    assert "The final board:" in body and f"/games/{game_id}" in body
    assert not re.search(r"\bseat \d\b", body, re.I)
    to = over.headers["Reply-To"]
    _, code = deliver(app, reply(to, "Hi!\n\nstatus\n\nGood game, Ann", ADDRESS.format(0)), to)
    assert code == "answered"
    assert "is over" in answers(app, game_id)[-1].body or "over" in answers(app, game_id)[-1].body


def test_every_outgoing_mail_kind_writes_list_unsubscribe_raw(app, client):
    """The raw bytes of every mail's List-Unsubscribe hold ``<http`` (RFC 8058),
    never an RFC 2047 encoded word, with List-Unsubscribe-Post one-click."""
    game_id = started(client, app, "dark-horse", 2)
    seat = game_row(app, game_id)["to_act"][0]
    play(client, app, game_id, seat, POLITE)
    with app.app_context():
        rows = db.session.scalars(sa.select(OutboxMail)).all()
        kinds = set()
        for row in rows:
            raw = message(row, body=row.body).as_bytes()  # as written: some turns are over
            header = re.search(rb"^List-Unsubscribe: (.*)$", raw, re.M).group(1)
            assert header.startswith(b"<http"), header
            assert b"=?utf-8?" not in header
            assert b"List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw
            kinds.add(row.dedupe_key.split(":")[0])
    assert {"turn", "answer"} <= kinds


def test_a_long_subject_reads_back_without_a_leading_space(app):
    """A subject longer than a line is written on the Subject line itself, never
    folded before its first word (``Subject:\n [Arbiter] ...`` reads back as
    " [Arbiter] ..."); a subject with a name in accents is still RFC 2047-encoded by
    the policy (whose folding may double a space between encoded words)."""
    from email import message_from_bytes, policy  # noqa: PLC0415

    long = "[Arbiter] Your turn in Worms: The Board Game with Player 1 and Player 2"
    for subject in (long, long.replace("Player 2", "Zoë")):
        row = OutboxMail(
            id=1,
            dedupe_key="x",
            to_addr="a@example.org",
            subject=subject,
            body="Hello",
            created_at=datetime.now(UTC),
        )
        with app.app_context():
            raw = message(row, body="Hello").as_bytes()
        read = str(message_from_bytes(raw, policy=policy.default)["Subject"])
        assert read == subject or (not subject.isascii() and " ".join(read.split()) == subject)
        assert not re.search(rb"^Subject:\s*\n", raw, re.M), raw[:200]


def test_a_polite_reply_that_only_talks_is_not_refused(app, client):
    """Issue 24, "Check": "Hi Arbiter," above ``say ...`` and ``note ...`` and a
    signature below: the message and the note are taken and nothing is refused (the
    greeting was read as a move and refused)."""
    game_id = started(client, app, "dark-horse", 3)
    seat = game_row(app, game_id)["to_act"][0]
    before = len(moves_logged(app, game_id))
    body = POLITE.format(move="say Good luck, everyone!\nnote Bob keeps the sixes")
    assert answer_to(app, game_id, seat, body)[1] == "answered"
    last = answers(app, game_id)[-1].body
    assert "Said at the table" in last and "Noted" in last, last
    assert "Refused" not in last, last
    assert len(moves_logged(app, game_id)) == before
