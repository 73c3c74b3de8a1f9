"""Helpers for the inbound-mail tests: a game with addresses, its turn mails, and
replies built like a mail client builds them."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.mailin.process import process
from arbiter.mailin.receive import receive
from arbiter.models import Event, Game, InboundMail, OutboxMail
from tests.helpers import new_game, until_decision

ADDRESS = "p{}@example.org"


def started(client, app, engine: str = "space-worm", players: int = 2) -> str:
    """Create a game with an address per seat and roll until a seat must move."""
    game_id, _ = new_game(client, engine, players=players, emails=True)
    until_decision(client, app, game_id)
    return game_id


def turn_mail(app, game_id: str, seat: int) -> OutboxMail:
    """Return the latest "your turn" mail of ``seat``."""
    with app.app_context():
        mail = db.session.scalars(
            sa.select(OutboxMail)
            .where(
                OutboxMail.game_id == game_id,
                OutboxMail.seat == seat,
                OutboxMail.dedupe_key.like("turn:%"),
            )
            .order_by(OutboxMail.id.desc())
        ).first()
        db.session.expunge(mail)
        return mail


def answers(app, game_id: str | None = None) -> list[OutboxMail]:
    """Return the answer mails, oldest first."""
    with app.app_context():
        query = sa.select(OutboxMail).where(OutboxMail.dedupe_key.like("answer:%"))
        if game_id:
            query = query.where(OutboxMail.game_id == game_id)
        rows = list(db.session.scalars(query.order_by(OutboxMail.id)))
        for row in rows:
            db.session.expunge(row)
        return rows


def reply(
    to: str,
    body: str,
    sender: str,
    in_reply_to: str | None = None,
    subject: str = "Re: [Arbiter] Your turn",
    message_id: str | None = "new",
    **headers: str,
) -> EmailMessage:
    """Return a reply as a mail client writes it."""
    msg = EmailMessage()
    msg["From"] = f"Player <{sender}>"
    msg["To"] = to
    msg["Subject"] = subject
    if message_id:
        msg["Message-ID"] = make_msgid(domain="example.org") if message_id == "new" else message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg


def deliver(
    app,
    msg: EmailMessage,
    rcpt: str | None = None,
    sender: str | None = None,
    raw: bytes | None = None,
):
    """Receive ``msg`` as the SMTP listener does and process it as the worker does;
    return ``(outcome of receive, outcome code of processing)``."""
    with app.app_context():
        data = raw if raw is not None else bytes(msg)
        outcome = receive(data, [rcpt] if rcpt else None, sender, "smtp")
        code = process(outcome.inbound_id) if outcome.status == "accepted" else None
        return outcome, code


def answer_to(app, game_id: str, seat: int, body: str, **kwargs):
    """Reply to seat's latest turn mail with ``body`` from its own address; return
    ``(outcome, code)``."""
    mail = turn_mail(app, game_id, seat)
    to = mail.headers["Reply-To"]
    msg = reply(to, body, ADDRESS.format(seat), **kwargs)
    return deliver(app, msg, to, ADDRESS.format(seat))


def game_row(app, game_id: str) -> dict:
    """Return the game's version, status and prompt."""
    with app.app_context():
        g = db.session.get(Game, game_id)
        return {
            "version": g.version,
            "status": g.status,
            "to_act": g.to_act,
            "prompt_since": g.prompt_since,
        }


def moves_logged(app, game_id: str) -> list[dict]:
    """Return the payloads of the game's move events."""
    with app.app_context():
        return [
            e.payload
            for e in db.session.scalars(
                sa.select(Event)
                .where(Event.game_id == game_id, Event.kind == "move")
                .order_by(Event.seq)
            )
        ]


def inbound(app) -> list[InboundMail]:
    """Return the inbound rows, oldest first."""
    with app.app_context():
        rows = list(db.session.scalars(sa.select(InboundMail).order_by(InboundMail.id)))
        for row in rows:
            db.session.expunge(row)
        return rows
