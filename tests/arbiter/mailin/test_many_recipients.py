"""A reply address listed after many other recipients is still found (issue 22, item
10: the stored recipients were cut at 1,000 characters before the reply address was
looked for, and such a mail was refused as sent to no reply address)."""

from __future__ import annotations

from arbiter.extensions import db
from arbiter.mailin.process import process
from arbiter.mailin.receive import receive
from arbiter.models import InboundMail
from tests.arbiter.mailin.support import ADDRESS, reply, started, turn_mail


def test_a_reply_address_after_1000_characters_of_recipients_is_answered(any_app):
    app, client = any_app, any_app.test_client()
    game_id = started(client, app)
    to = turn_mail(app, game_id, 0).headers["Reply-To"]
    domain = to.rpartition("@")[2]
    others = [f"list-member-{n:03d}-with-a-long-name@{domain}" for n in range(40)]
    assert len("\n".join(others)) > 1000
    msg = reply(", ".join([*others[:3], to]), "status", ADDRESS.format(0))
    with app.app_context():
        outcome = receive(bytes(msg), [*others, to], ADDRESS.format(0), "smtp")
        assert outcome.status == "accepted"
        code = process(outcome.inbound_id)
        stored = db.session.get(InboundMail, outcome.inbound_id).rcpt
    assert code == "answered"
    assert stored.split("\n")[0] == to and len(stored) <= 1000
