"""Agreed undo and abort by mail (issue 24, item 3): ``undo`` in a reply asks, the
other player gets a mail saying a request waits, and ``accept undo`` in a reply to
that mail takes the move back; ``abort`` / ``accept abort`` likewise; a refused
command is answered with the reason and writes nothing."""

from __future__ import annotations

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import OutboxMail
from tests.arbiter.games.test_agreed_undo import game_row as state_of
from tests.arbiter.mailin.support import (
    ADDRESS,
    answer_to,
    answers,
    deliver,
    game_row,
    reply,
    started,
)
from tests.arbiter.mailin.test_replies import first_legal
from tests.helpers import event_count


def request_mail(app, game_id: str, seat: int, kind: str) -> OutboxMail:
    """Return the mail telling ``seat`` that a request of ``kind`` waits."""
    with app.app_context():
        mail = db.session.scalars(
            sa.select(OutboxMail).where(
                OutboxMail.game_id == game_id,
                OutboxMail.seat == seat,
                OutboxMail.dedupe_key.like(f"{kind}:%"),
            )
        ).one()
        db.session.expunge(mail)
        return mail


def answer_mail(app, game_id: str, seat: int, mail: OutboxMail, body: str):
    """Reply to ``mail`` from ``seat``'s address."""
    to = mail.headers["Reply-To"]
    return deliver(app, reply(to, body, ADDRESS.format(seat)), to, ADDRESS.format(seat))


def test_undo_asked_and_accepted_by_mail(app, client):
    game_id = started(client, app)
    ann = game_row(app, game_id)["to_act"][0]
    bob = 1 - ann
    before = state_of(app, game_id)["state"]
    move = first_legal(app, game_id, ann)
    assert answer_to(app, game_id, ann, move)[1] == "answered"
    assert answer_to(app, game_id, ann, "undo")[1] == "answered"
    assert "You asked to take back your last move" in answers(app, game_id)[-1].body

    mail = request_mail(app, game_id, bob, "undo")
    assert f"P{ann} asks to take back their last move" in mail.body
    assert 'Reply "accept undo" to agree' in mail.body
    assert mail.headers["Reply-To"].startswith(f"{game_id}-{bob}-")
    assert answer_mail(app, game_id, bob, mail, "accept undo\n\n-- \nBob")[1] == "answered"
    assert "Everyone agreed" in answers(app, game_id)[-1].body
    assert state_of(app, game_id)["state"] == before
    assert game_row(app, game_id)["to_act"] == [ann]


def test_abort_by_mail_and_a_refused_command_writes_nothing(app, client):
    game_id = started(client, app)
    ann = game_row(app, game_id)["to_act"][0]
    bob = 1 - ann
    count = event_count(app, game_id)
    answer_to(app, game_id, ann, "undo")
    refusal = answers(app, game_id)[-1].body
    assert "You have made no move that could be taken back." in refusal
    assert event_count(app, game_id) == count

    assert answer_to(app, game_id, ann, "abort")[1] == "answered"
    mail = request_mail(app, game_id, bob, "abort")
    assert "not rated" in mail.body
    answer_mail(app, game_id, bob, mail, "Accept abort.")
    assert "the game is aborted" in answers(app, game_id)[-1].body
    assert game_row(app, game_id)["status"] == "over"


def test_the_help_lists_the_commands(app, client):
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    answer_to(app, game_id, seat, "help")
    text = answers(app, game_id)[-1].body
    assert "accept undo / refuse undo" in text and "abort" in text


def test_undo_asked_and_accepted_in_polite_replies(app, client):
    """Issue 24, "Check": "Hi Arbiter," above ``undo`` and above ``accept undo``, a
    signature below, are read as people write them: the move is taken back (the
    greeting was refused as a move, and nothing was asked or accepted)."""
    game_id = started(client, app)
    ann = game_row(app, game_id)["to_act"][0]
    bob = 1 - ann
    before = state_of(app, game_id)["state"]
    move = first_legal(app, game_id, ann)
    assert answer_to(app, game_id, ann, move)[1] == "answered"
    answer_to(app, game_id, ann, "Hi Arbiter,\n\nundo\n\nSorry!\nAnn\n-- \nAnn Example\n")
    asked = answers(app, game_id)[-1].body
    assert "You asked to take back your last move" in asked and "Refused" not in asked

    mail = request_mail(app, game_id, bob, "undo")
    answer_mail(app, game_id, bob, mail, "Hi Arbiter,\n\naccept undo\n\nThanks,\nBob\n")
    accepted = answers(app, game_id)[-1].body
    assert "Everyone agreed" in accepted and "Refused" not in accepted
    assert state_of(app, game_id)["state"] == before
    assert game_row(app, game_id)["to_act"] == [ann]
