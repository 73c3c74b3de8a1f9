"""Every "Bad input" line of issue 9: each answered or dropped as the issue says, and
nothing half-written (no event, no answer where none is due)."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

import pytest

from arbiter.mail.capability import reply_address
from arbiter.play_mail import listed_moves
from tests.arbiter.mailin.support import (
    ADDRESS,
    answer_to,
    answers,
    deliver,
    game_row,
    inbound,
    moves_logged,
    reply,
    started,
    turn_mail,
)
from tests.conftest import make_app


def legal(app, game_id, seat) -> list[str]:
    """Return the legal moves seat's turn mail lists (all, or the examples)."""
    return listed_moves(turn_mail(app, game_id, seat).body)[0]


@pytest.fixture
def game(app, client):
    """A started Space Worm game; returns ``(game_id, seat to act, its reply address)``."""
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    return game_id, seat, turn_mail(app, game_id, seat).headers["Reply-To"]


def unchanged(app, game_id, version):
    assert game_row(app, game_id)["version"] == version
    assert moves_logged(app, game_id) == []


def test_a_forged_from_is_dropped_unanswered(app, game):
    """Given a valid reply address but a stranger's From: refused-sender, no answer."""
    game_id, seat, to = game
    version = game_row(app, game_id)["version"]
    move = legal(app, game_id, seat)[0]
    outcome, code = deliver(
        app, reply(to, move, "mallory@evil.example"), to, "mallory@evil.example"
    )
    assert code == "refused-sender"
    unchanged(app, game_id, version)
    assert answers(app) == []


def test_the_seat_from_with_a_strangers_envelope_sender_is_dropped(app, game):
    """Given the seat's From but another envelope sender: refused-sender."""
    game_id, seat, to = game
    _, code = deliver(app, reply(to, "status", ADDRESS.format(seat)), to, "mallory@evil.example")
    assert code == "refused-sender"
    assert answers(app) == []


@pytest.mark.parametrize("damage", ["tampered", "truncated", "case"])
def test_a_tampered_or_truncated_capability_is_dropped(app, game, damage):
    """Given the reply address with one MAC character changed, or cut short, the mail is
    refused unanswered; upper case is the same address (case-insensitive)."""
    game_id, seat, to = game
    local, _, domain = to.partition("@")
    if damage == "tampered":
        local = local[:-1] + ("a" if local[-1] != "a" else "b")
    elif damage == "truncated":
        local = local[:-3]
    else:
        local = local.upper()
    address = f"{local}@{domain.upper() if damage == 'case' else domain}"
    _, code = deliver(
        app, reply(address, "status", ADDRESS.format(seat)), address, ADDRESS.format(seat)
    )
    if damage == "case":
        assert code == "answered"
        return
    assert code == "refused-capability"
    assert answers(app) == []


def test_a_capability_of_another_seat_or_game_is_dropped(app, client, game):
    """Given seat 0 writing to seat 1's address, or to another game's: refused-sender
    (the From is not that seat's); a MAC moved onto another game id: refused-capability."""
    game_id, seat, to = game
    other = 1 - seat
    theirs = reply_address_in(app, game_id, other, game_row(app, game_id)["prompt_since"])
    _, code = deliver(
        app, reply(theirs, "resign", ADDRESS.format(seat)), theirs, ADDRESS.format(seat)
    )
    assert code == "refused-sender"
    second = started(client, app)
    mac = to.split("@")[0].rsplit("-", 1)[1]
    forged = to.replace(game_id, second).rsplit("-", 1)[0] + f"-{mac}@" + to.split("@")[1]
    _, code = deliver(
        app, reply(forged, "resign", ADDRESS.format(seat)), forged, ADDRESS.format(seat)
    )
    assert code == "refused-capability"
    assert game_row(app, game_id)["status"] == game_row(app, second)["status"] == "active"
    assert answers(app) == []


def reply_address_in(app, game_id, seat, version):
    with app.app_context():
        return reply_address(game_id, seat, version)


def test_a_stale_version_is_answered_like_a_409_with_where_the_game_stands(app, game):
    """Given a move recorded, a second reply to the same (old) turn mail is answered
    "stale-version" with the current state, and records nothing."""
    game_id, seat, to = game
    moves = legal(app, game_id, seat)
    answer_to(app, game_id, seat, moves[0])
    version = game_row(app, game_id)["version"]
    logged = len(moves_logged(app, game_id))
    _, code = deliver(app, reply(to, moves[1], ADDRESS.format(seat)), to, ADDRESS.format(seat))
    assert code == "answered"
    assert game_row(app, game_id)["version"] == version
    assert len(moves_logged(app, game_id)) == logged
    last = answers(app, game_id)[-1]
    assert "Refused (stale-version)" in last.body
    assert "Here is where it stands now" in last.body and "Now:" in last.body


def test_a_move_that_is_illegal_now_is_refused_with_code_and_legal_moves(app, game):
    """Given a well-formed move the rules refuse (a die number that is not rolled):
    the answer gives the engine's code and lists the legal moves; nothing recorded."""
    game_id, seat, _ = game
    version = game_row(app, game_id)["version"]
    answer_to(app, game_id, seat, "die 9 up")
    unchanged(app, game_id, version)
    [last] = answers(app, game_id)
    assert "Refused (" in last.body and "die 9 up" in last.body
    assert "Your legal moves (" in last.body or "legal moves; for example" in last.body


def test_garbage_text_is_refused_with_the_list_of_commands(app, game):
    """Given words that are neither a command nor a move: a refusal with the commands."""
    game_id, seat, _ = game
    version = game_row(app, game_id)["version"]
    answer_to(app, game_id, seat, "xyzzy plugh ✓✓")
    unchanged(app, game_id, version)
    [last] = answers(app, game_id)
    assert "Refused (" in last.body and "Commands (one per line" in last.body


def test_a_quoted_old_move_below_the_new_text_is_not_read(app, game):
    """Given the new move on top and the quoted turn mail (with another move) below,
    only the new move is recorded."""
    game_id, seat, _ = game
    first, second = legal(app, game_id, seat)[:2]
    body = (
        f"{first}\n\nOn Tue, Dec 1, 2026 at 9:00 AM Arbiter <arbiter@localhost> wrote:\n"
        f"> It is your turn\n> {second}\n> {second}\n"
    )
    answer_to(app, game_id, seat, body)
    assert [m["text"] for m in moves_logged(app, game_id)] == [first]
    assert "Refused" not in answers(app, game_id)[0].body


def test_only_a_signature_gets_a_no_command_answer(app, game):
    """Given a mail that is only a signature: answered "no-command", nothing recorded."""
    game_id, seat, _ = game
    version = game_row(app, game_id)["version"]
    answer_to(app, game_id, seat, "--\nAnn Smith\nSent from my phone\n")
    unchanged(app, game_id, version)
    [last] = answers(app, game_id)
    assert "Refused (no-command)" in last.body


def test_an_html_only_mail_is_read_as_text(app, game):
    """Given an HTML-only reply with a move (and a quoted block), the move is recorded."""
    game_id, seat, to = game
    move = legal(app, game_id, seat)[0]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = ADDRESS.format(seat), to, "Re: your turn"
    msg["Message-ID"] = "<html1@example.org>"
    msg.set_content(
        f"<html><body><div>{move}</div><br><blockquote>&gt; die 0 up</blockquote></body></html>",
        subtype="html",
    )
    _, code = deliver(app, msg, to, ADDRESS.format(seat))
    assert code == "answered"
    assert [m["text"] for m in moves_logged(app, game_id)] == [move]


def test_a_10_mb_attachment_is_refused_unread(app, game):
    """Given a reply with a 10 MB attachment: refused as too large, not stored, no
    answer, nothing recorded."""
    game_id, seat, to = game
    version = game_row(app, game_id)["version"]
    msg = reply(to, legal(app, game_id, seat)[0], ADDRESS.format(seat))
    msg.add_attachment(
        b"\0" * (10 * 1024 * 1024),
        maintype="application",
        subtype="octet-stream",
        filename="big.bin",
    )
    outcome, code = deliver(app, msg, to, ADDRESS.format(seat))
    assert outcome.status == "too-large" and code is None
    assert inbound(app) == []
    unchanged(app, game_id, version)
    assert answers(app) == []


def test_a_message_without_message_id_is_processed_once(app, game):
    """Given a reply with no Message-ID, delivered twice: it is taken once (keyed by
    its bytes), the move recorded once, answered once (without In-Reply-To)."""
    game_id, seat, to = game
    msg = reply(to, legal(app, game_id, seat)[0], ADDRESS.format(seat), message_id=None)
    first, code = deliver(app, msg, to, ADDRESS.format(seat))
    again, _ = deliver(app, msg, to, ADDRESS.format(seat))
    assert (first.status, code, again.status) == ("accepted", "answered", "duplicate")
    assert len(moves_logged(app, game_id)) == 1
    [answer] = answers(app, game_id)
    assert "In-Reply-To" not in answer.headers


def test_the_same_message_delivered_three_times_is_acted_on_once(app, game):
    """Given one reply delivered three times (IMAP re-poll, SMTP retry, two MX): one
    stored row, one move, one answer."""
    game_id, seat, to = game
    msg = reply(to, legal(app, game_id, seat)[0], ADDRESS.format(seat))
    statuses = [deliver(app, msg, to, ADDRESS.format(seat))[0].status for _ in range(3)]
    assert statuses == ["accepted", "duplicate", "duplicate"]
    assert len(inbound(app)) == 1
    assert len(moves_logged(app, game_id)) == 1
    assert len(answers(app, game_id)) == 1


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto_Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"X_Autoreply": "yes"},
    ],
)
def test_an_out_of_office_auto_reply_is_never_answered(app, game, headers):
    """Given an auto-reply (Auto-Submitted, Precedence: bulk, X-Autoreply) to the turn
    mail: recorded as ignored, not answered, nothing recorded in the game."""
    game_id, seat, to = game
    version = game_row(app, game_id)["version"]
    msg = reply(
        to,
        "I am out of the office until Monday.\n" + legal(app, game_id, seat)[0],
        ADDRESS.format(seat),
        subject="Out of office",
        **headers,
    )
    _, code = deliver(app, msg, to, ADDRESS.format(seat))
    assert code == "ignored-auto"
    unchanged(app, game_id, version)
    assert answers(app) == []


@pytest.mark.parametrize("kind", ["null-sender", "daemon", "dsn"])
def test_a_bounce_is_never_answered(app, game, kind):
    """Given a bounce (null envelope sender, MAILER-DAEMON, a delivery-status report):
    ignored, no answer."""
    game_id, seat, to = game
    sender = ADDRESS.format(seat)
    msg = reply(to, legal(app, game_id, seat)[0], sender, subject="Undelivered Mail")
    envelope = sender
    if kind == "null-sender":
        envelope = ""
    elif kind == "daemon":
        msg.replace_header("From", "MAILER-DAEMON@mx.example.org")
    else:
        msg = message_from_bytes(DSN.format(sender=sender, to=to).encode(), policy=default)
    _, code = deliver(app, msg, to, envelope)
    assert code == "ignored-auto"
    assert answers(app) == []
    assert moves_logged(app, game_id) == []


DSN = """From: Mail Delivery System <postmaster@example.org>
To: {to}
Subject: Delivery Status Notification (Failure)
Message-ID: <dsn1@example.org>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="b1"

--b1
Content-Type: text/plain

die 0 up
--b1
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org
Final-Recipient: rfc822; {sender}
Action: failed
Status: 5.1.1

--b1--
"""


def test_a_mail_from_a_seat_that_has_resigned_is_not_acted_on(app, client):
    """Given a 3-player game where seat X resigned by mail, X's next mail (a move) is
    answered "already-resigned" and records nothing."""
    game_id = started(client, app, players=3)
    seat = game_row(app, game_id)["to_act"][0]
    to = turn_mail(app, game_id, seat).headers["Reply-To"]
    answer_to(app, game_id, seat, "resign")
    version = game_row(app, game_id)["version"]
    _, code = deliver(app, reply(to, "die 0 up", ADDRESS.format(seat)), to, ADDRESS.format(seat))
    assert code == "answered"
    assert game_row(app, game_id)["version"] == version
    assert "Refused (already-resigned)" in answers(app, game_id)[-1].body


def test_a_command_for_a_game_that_is_over_is_refused_game_over(app, game):
    """Given a game ended by the other seat's resignation, a move by mail is answered
    "game-over" with the result, and records nothing."""
    game_id, seat, to = game
    other = 1 - seat
    other_to = reply_address_in(app, game_id, other, game_row(app, game_id)["prompt_since"])
    deliver(app, reply(other_to, "resign", ADDRESS.format(other)), other_to, ADDRESS.format(other))
    assert game_row(app, game_id)["status"] == "over"
    version = game_row(app, game_id)["version"]
    deliver(
        app, reply(to, legal(app, game_id, seat)[0], ADDRESS.format(seat)), to, ADDRESS.format(seat)
    )
    assert game_row(app, game_id)["version"] == version
    last = answers(app, game_id)[-1]
    assert "Refused (game-over)" in last.body and "Ranking, best first" in last.body


@pytest.mark.slow  # make check leaves it out (many seconds)
def test_200_messages_from_one_address_in_a_minute_get_at_most_the_limit(sqlite_url):
    """Given MAIL_REPLIES_PER_HOUR=5 and 200 "status" mails from one seat in a burst:
    5 are answered, the other 195 are recorded as rate-limited and not acted on."""
    app = make_app(sqlite_url, MAIL_REPLIES_PER_HOUR=5)
    client = app.test_client()
    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    to = turn_mail(app, game_id, seat).headers["Reply-To"]
    codes = [
        deliver(app, reply(to, "status", ADDRESS.format(seat)), to, ADDRESS.format(seat))[1]
        for _ in range(200)
    ]
    assert codes.count("answered") == 5 and codes.count("rate-limited") == 195
    assert len(answers(app, game_id)) == 5


def test_a_failing_dmarc_or_dkim_refuses_the_mail_unanswered(app, game):
    """Given Authentication-Results from the receiving MTA saying DMARC (or DKIM)
    failed for the From domain: refused-authentication, no answer, nothing recorded."""
    game_id, seat, to = game
    for verdict in ("dmarc=fail header.from=example.org", "dkim=fail header.d=example.org"):
        msg = reply(
            to,
            legal(app, game_id, seat)[0],
            ADDRESS.format(seat),
            Authentication_Results=f"mx.arbiter.test; spf=pass; {verdict}",
        )
        _, code = deliver(app, msg, to, ADDRESS.format(seat))
        assert code == "refused-authentication"
    assert answers(app) == [] and moves_logged(app, game_id) == []
    ok = reply(
        to,
        "status",
        ADDRESS.format(seat),
        Authentication_Results="mx.arbiter.test; dkim=pass header.d=example.org; "
        "dmarc=pass header.from=example.org",
    )
    assert deliver(app, ok, to, ADDRESS.format(seat))[1] == "answered"


def test_unreadable_input_is_refused(app):
    """Given bytes that are not a mail (empty, no headers): unreadable, nothing stored."""
    from tests.arbiter.mailin.support import deliver as _deliver

    for raw in (b"", b"   \n", b"just some words without a header line\n"):
        outcome, _ = _deliver(app, None, raw=raw)
        assert outcome.status == "unreadable", raw
    assert inbound(app) == []


def test_a_strangers_return_path_is_refused_when_no_envelope_was_given(app, game):
    """Given a message without envelope sender (as IMAP delivers it) whose Return-Path,
    written by the delivering MTA, is a stranger's: refused-sender, no answer."""
    game_id, seat, to = game
    msg = reply(to, "status", ADDRESS.format(seat), Return_Path="<mallory@evil.example>")
    _, code = deliver(app, msg, to, None)
    assert code == "refused-sender"
    assert answers(app) == []
    ok = reply(to, "status", ADDRESS.format(seat), Return_Path=f"<{ADDRESS.format(seat)}>")
    assert deliver(app, ok, to, None)[1] == "answered"
