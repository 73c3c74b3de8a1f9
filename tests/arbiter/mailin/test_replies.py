"""Playing by replying to the turn mail: a move recorded through the same service call
as POST /moves, answered in the thread (issue 9, "Commands in the body", "Replies from
the arbiter")."""

from __future__ import annotations

import re

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.mail.mail import message
from arbiter.models import OutboxMail
from arbiter.play_mail import listed_moves
from tests.arbiter.mailin.support import (
    ADDRESS,
    answer_to,
    answers,
    game_row,
    moves_logged,
    started,
    turn_mail,
)
from tests.helpers import agreed, auth, new_game, until_decision


def first_legal(app, game_id: str, seat: int) -> str:
    """Return the first legal move listed in seat's turn mail."""
    return listed_moves(turn_mail(app, game_id, seat).body)[0][0]


def test_a_turn_mail_is_enough_to_play(app, client):
    """Given a game with addresses, the turn mail carries a capability Reply-To, the
    legal moves in notation and the invitation to reply, and says it is automatic."""
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    mail = turn_mail(app, game_id, seat)
    assert mail.headers["Reply-To"].startswith(f"{game_id}-{seat}-")
    assert "Reply to this mail with your move" in mail.body
    assert "Your legal moves (" in mail.body or "legal moves; for example" in mail.body
    with app.app_context():
        msg = message(db.session.get(OutboxMail, mail.id))
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["Reply-To"] == mail.headers["Reply-To"]


def test_a_move_by_reply_is_recorded_with_its_message_id_and_answered_in_thread(app, client):
    """Given a reply with a legal move from the seat's address, the move is logged with
    the mail's Message-ID, and one answer threads under the reply."""
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    before = game_row(app, game_id)["version"]
    move = first_legal(app, game_id, seat)
    outcome, code = answer_to(
        app, game_id, seat, f"{move}\n\nThanks!\n", message_id="<m1@example.org>"
    )
    assert (outcome.status, code) == ("accepted", "answered")
    logged = moves_logged(app, game_id)[-1]
    assert logged["text"] == move
    assert logged["via"] == {"channel": "mail", "message_id": "<m1@example.org>"}
    assert game_row(app, game_id)["version"] > before
    [reply] = answers(app, game_id)
    assert reply.to_addr == ADDRESS.format(seat)
    assert reply.headers["In-Reply-To"] == "<m1@example.org>"
    assert "<m1@example.org>" in reply.headers["References"]
    assert reply.headers["Auto-Submitted"] == "auto-replied"
    assert f"Recorded: {move}" in reply.body
    with app.app_context():
        msg = message(db.session.get(OutboxMail, reply.id))
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["In-Reply-To"] == "<m1@example.org>"


def test_several_commands_run_in_order_and_stop_at_the_first_refusal(app, client):
    """Given "status", a legal move, then a move that is no longer the seat's to make,
    the first two run and the third is refused; nothing after it runs."""
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    move = first_legal(app, game_id, seat)
    answer_to(app, game_id, seat, f"status\n{move}\n{move}\nhelp\n")
    [reply] = answers(app, game_id)
    assert reply.body.count("Refused (") == 1
    assert f"Recorded: {move}" in reply.body
    assert "> help" not in reply.body
    assert len(moves_logged(app, game_id)) == 1


def test_help_moves_board_and_status_answer_without_changing_the_game(app, client):
    """Given informational commands, each is answered and the log does not grow."""
    game_id = started(client, app, "worms")
    seat = game_row(app, game_id)["to_act"][0]
    before = game_row(app, game_id)["version"]
    answer_to(app, game_id, seat, "help\nmoves\nboard\nstatus")
    [reply] = answers(app, game_id)
    assert game_row(app, game_id)["version"] == before
    assert "Commands (one per line" in reply.body
    assert "Your legal moves (" in reply.body or "legal moves; for example" in reply.body
    assert "It is your turn" in reply.body
    assert reply.board_svg and reply.board_svg.lstrip().startswith("<")
    with app.app_context():
        msg = message(db.session.get(OutboxMail, reply.id))
    [png] = [p for p in msg.iter_attachments()]
    assert png.get_content_type() == "image/png"
    assert png.get_content().startswith(b"\x89PNG")


def test_the_subject_carries_a_command_when_the_body_has_none(app, client):
    """Given an empty body and the subject "status", the status is answered."""
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    answer_to(app, game_id, seat, "\n", subject="status")
    [reply] = answers(app, game_id)
    assert "> status" in reply.body and "It is your turn" in reply.body


def test_resign_by_mail_ends_a_two_player_game(app, client):
    """Given "resign" from one of two seats, the resignation is logged and the game ends."""
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    answer_to(app, game_id, seat, "resign")
    assert game_row(app, game_id)["status"] == "over"
    [reply] = answers(app, game_id)
    assert "Your resignation is recorded" in reply.body


def test_vacation_by_mail_on_a_game_without_clock_is_refused_with_its_code(app, client):
    """Given "vacation 3 days" in a game without a time control: refused, no-clock."""
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    before = game_row(app, game_id)["version"]
    answer_to(app, game_id, seat, "vacation 3 days")
    [reply] = answers(app, game_id)
    assert "Refused (no-clock)" in reply.body
    assert game_row(app, game_id)["version"] == before


def test_vacation_by_mail_stops_the_clock(app, client):
    """Given a clocked game with an allowance, "vacation 2 days" is recorded."""
    agreed(app, ADDRESS.format(0), ADDRESS.format(1))  # accounts: they agreed to mail
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "clock": {"type": "per-move", "seconds": 86400, "vacation_days": 5},
            "players": [
                {"name": "A", "email": ADDRESS.format(0)},
                {"name": "B", "email": ADDRESS.format(1)},
            ],
        },
    )
    game_id = answer.json["id"]
    from tests.helpers import until_decision

    until_decision(client, app, game_id)
    seat = game_row(app, game_id)["to_act"][0]
    answer_to(app, game_id, seat, "vacation 2 days")
    [reply] = answers(app, game_id)
    assert "Vacation recorded" in reply.body
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(OutboxMail.id))) >= 1


def clocked(client, app) -> str:
    """A started Space Worm game with a per-move clock; both players in Europe/Paris,
    accounts (so they agreed to game mail)."""
    from tests.helpers import until_decision

    agreed(app, ADDRESS.format(0), ADDRESS.format(1))
    answer = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "clock": {"type": "per-move", "seconds": 86400},
            "players": [
                {"name": f"P{i}", "email": ADDRESS.format(i), "tz": "Europe/Paris"}
                for i in range(2)
            ],
        },
    )
    assert answer.status_code == 201, answer.json
    until_decision(client, app, answer.json["id"])
    return answer.json["id"]


def mail_from(app, game_id: str, seat: int, body: str):
    """Send ``body`` from seat's address to its capability for the current prompt."""
    from arbiter.mail.capability import reply_address
    from tests.arbiter.mailin.support import deliver, reply

    with app.app_context():
        to = reply_address(game_id, seat, game_row(app, game_id)["prompt_since"])
    return deliver(app, reply(to, body, ADDRESS.format(seat)), to, ADDRESS.format(seat))


def test_pause_and_resume_by_mail_from_the_creating_accounts_address(app, client):
    """Given a clocked game created by the account whose address is seat 0's, "pause"
    then "resume" from that address stop and restart every clock; "pause" from seat 1
    is refused not-creator and records nothing."""
    from arbiter.models import Account, Event, Game

    game_id = clocked(client, app)
    with app.app_context():
        account = db.session.scalar(sa.select(Account).where(Account.email == ADDRESS.format(0)))
        db.session.get(Game, game_id).creator_account_id = account.id
        db.session.commit()
    version = game_row(app, game_id)["version"]
    mail_from(app, game_id, 1, "pause")
    assert "Refused (not-creator)" in answers(app, game_id)[-1].body
    assert game_row(app, game_id)["version"] == version
    mail_from(app, game_id, 0, "pause\nresume")
    last = answers(app, game_id)[-1]
    assert "The game is paused" in last.body and "The game is resumed" in last.body
    with app.app_context():
        kinds = [
            e.kind
            for e in db.session.scalars(
                sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq)
            )
        ]
    assert kinds.count("clock-paused") == 1 and kinds.count("clock-resumed") == 1


def test_status_gives_the_deadline_in_the_players_zone(app, client):
    """Given a clocked game of players in Europe/Paris, the seat to act gets its
    deadline in Paris time (CET) in the answer to "status"."""
    game_id = clocked(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    mail_from(app, game_id, seat, "status")
    body = answers(app, game_id)[-1].body
    assert "Your deadline:" in body and " CET" in body


def test_status_after_the_game_ended_says_the_result_once(app, client):
    """Issue 22, item 14: a ``status`` reply after the game ended was answered with
    the result twice (the command's answer, then "Now:" saying it again)."""
    game_id, tokens = new_game(client, players=2, emails=True)
    until_decision(client, app, game_id)
    seat = game_row(app, game_id)["to_act"][0]
    other = 1 - seat
    resigned = client.post(f"/v1/games/{game_id}/resign", headers=auth(tokens[other]))
    assert resigned.status_code in (200, 201), resigned.json
    assert game_row(app, game_id)["status"] == "over"
    outcome, code = answer_to(app, game_id, seat, "status\n")
    assert (outcome.status, code) == ("accepted", "answered")
    body = answers(app, game_id)[-1].body
    assert body.count("Ranking, best first:") == 1, body
    assert body.count(": over.") == 1, body


def test_replies_say_no_version_and_the_move_in_words(app, client):
    """Issue 23 ("no version numbers or codes in mails; moves in words"): the answer
    to "status" and a move carries no version number, and a recorded move is
    said in words besides the notation the player wrote."""
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    move = first_legal(app, game_id, seat)
    answer_to(app, game_id, seat, f"status\n{move}\n")
    [reply] = answers(app, game_id)
    assert "version" not in reply.body.lower(), reply.body
    assert re.search(rf"Recorded: {re.escape(move)} \(you [a-z]", reply.body), reply.body
