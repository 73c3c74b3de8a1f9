"""Talk by mail, end to end over real SMTP (aiosmtpd both ways): a reply with ``say``,
a ``message`` ... ``end`` block and ``note`` is received by the mailin listener,
processed as the worker does and answered; what one player said reaches the other in
their next turn mail (one section, not a mail per line), and a note reaches nobody."""

from __future__ import annotations

import random
import smtplib

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.mail.mail import send
from arbiter.mailin import smtp as mailin_smtp
from arbiter.mailin.process import pending, process
from arbiter.models import OutboxMail, TalkEvent
from tests.arbiter.mailin.support import ADDRESS, reply
from tests.conftest import free_port, make_app
from tests.helpers import agreed, auth, random_move, until_decision


def send_outbox(app) -> None:
    """Send every unsent outbox mail as the mailer does."""
    with app.app_context():
        ids = db.session.scalars(sa.select(OutboxMail.id).where(OutboxMail.sent_at.is_(None)))
        for mail_id in list(ids):
            send(mail_id)


def mail_in(app, port: int, to: str, seat: int, body: str) -> None:
    """Send a reply from ``seat``'s address to the mailin listener, and process what
    arrived as the worker does."""
    with smtplib.SMTP("127.0.0.1", port) as conn:
        conn.send_message(reply(to, body, ADDRESS.format(seat)), ADDRESS.format(seat), [to])
    with app.app_context():
        for inbound_id in pending(older_than_seconds=-1):
            process(inbound_id)


def talk_rows(app, game_id: str) -> list[tuple[str, str | None, dict]]:
    with app.app_context():
        rows = db.session.scalars(
            sa.select(TalkEvent).where(TalkEvent.game_id == game_id).order_by(TalkEvent.n)
        )
        return [(r.kind, r.channel, r.payload) for r in rows]


def test_say_a_message_block_and_a_note_by_mail_reach_who_may_read_them(db_url, smtp, tmp_path):
    url, inbox = smtp
    app = make_app(db_url, SMTP_URL=url)
    client = app.test_client()
    agreed(app, ADDRESS.format(0), ADDRESS.format(1))
    created = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": f"P{i}", "email": ADDRESS.format(i)} for i in range(2)],
            "talk": {"press": True},
        },
    ).json
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    until_decision(client, app, game_id)
    send_outbox(app)
    first = [m for m in inbox.messages if m["Reply-To"] and game_id in m["Reply-To"]]
    talker = int(first[0]["Reply-To"].split("-")[1])  # <game>-<seat>-...
    listener_port = free_port()
    listener = mailin_smtp.controller(app, f"smtp://127.0.0.1:{listener_port}")
    listener.start()
    try:
        mail_in(
            app,
            listener_port,
            first[0]["Reply-To"],
            talker,
            "say Good luck, everyone!\n"
            f"message to P{1 - talker}\nOur secret plan:\nrace for the fruit\nend\n"
            "note P1 always takes the sixes\n"
            "say " + "x" * 1500 + "\n",
        )
    finally:
        listener.stop()
    rows = talk_rows(app, game_id)
    assert [(k, c) for k, c, _ in rows] == [
        ("message", "table"),
        ("message", "private"),
        ("note", None),
    ]
    assert rows[1][2]["text"] == "Our secret plan:\nrace for the fruit"
    assert all(p["via"] == "mail" for _, _, p in rows)
    send_outbox(app)
    answer = [m for m in inbox.messages if m["In-Reply-To"]][-1]
    text = answer.get_content()
    assert "Said at the table" in text and f"Said privately to P{1 - talker}" in text
    assert "Noted" in text and "Refused (message-too-long)" in text
    # the other player's next turn mail quotes the messages once, never the note
    other, rng, seen = 1 - talker, random.Random(3), len(inbox.messages)
    for _ in range(40):
        random_move(client, app, game_id, tokens, rng)
        until_decision(client, app, game_id)
        send_outbox(app)
        mails = [m for m in inbox.messages[seen:] if m["To"] == ADDRESS.format(other)]
        if any("Your turn" in m["Subject"] for m in mails):
            break
    turn = next(m for m in mails if "Your turn" in m["Subject"])
    body = turn.get_body(("plain",)).get_content()
    assert "Messages since your last mail:" in body
    assert "Good luck, everyone!" in body and "race for the fruit" in body
    assert "sixes" not in body
    assert not any(
        "Good luck" in (m.get_body(("plain",)) or m).get_content()
        for m in inbox.messages[seen:]
        if m["To"] == ADDRESS.format(talker)
    )
    assert client.get(f"/v1/games/{game_id}/notes", headers=auth(tokens[other])).json == {
        "notes": []
    }


def test_a_message_said_after_a_turn_mail_reaches_the_next_one_after_the_move(
    db_url, smtp, tmp_path
):
    """Issue 24 ("What the others said reaches each player in their next turn
    mail"): Bob speaks after Ann's turn mail was sent and before Ann moves (from that
    mail, which did not hold it); Ann's next turn mail quotes it. It was left out: the
    section began at Ann's last move, so a message between a mail and the move it
    prompted was mailed to nobody."""
    url, inbox = smtp
    app = make_app(db_url, SMTP_URL=url)
    client = app.test_client()
    agreed(app, ADDRESS.format(0), ADDRESS.format(1))
    created = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": f"P{i}", "email": ADDRESS.format(i)} for i in range(2)],
        },
    ).json
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    ann = until_decision(client, app, game_id)["to_act"][0]
    bob = 1 - ann
    send_outbox(app)  # Ann's turn mail, before anyone spoke
    said = client.post(
        f"/v1/games/{game_id}/messages",
        json={"channel": "table", "text": "Between your mail and your move"},
        headers={**auth(tokens[bob]), "Idempotency-Key": "key-between-mail-and-move"},
    )
    assert said.status_code == 201, said.json
    seen, rng = len(inbox.messages), random.Random(5)
    for _ in range(40):  # Ann moves; play on until Ann's next turn mail is sent
        random_move(client, app, game_id, tokens, rng)
        until_decision(client, app, game_id)
        send_outbox(app)
        mails = [m for m in inbox.messages[seen:] if m["To"] == ADDRESS.format(ann)]
        if any("Your turn" in m["Subject"] for m in mails):
            break
    turn = next(m for m in mails if "Your turn" in m["Subject"])
    body = turn.get_body(("plain",)).get_content()
    assert "Between your mail and your move" in body, body
