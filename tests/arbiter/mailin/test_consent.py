"""Mail in and consent (issue 9 built on issue 10): an address acts and is answered
by mail only once it has agreed to game mail; a reply ``accept`` to the invitation
mail accepts it, once; ``decline`` and mail from an address that has not accepted
get no answer."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.mailin.process import process
from arbiter.models import ConsentEvent, Game, InboundMail, Invitation, OutboxMail
from tests.arbiter.mailin.support import (
    answers,
    deliver,
    game_row,
    inbound,
    reply,
    started,
    turn_mail,
)
from tests.helpers import auth, inviter, sampled, until_decision

ANN, BOB = "ann@example.org", "bob@example.org"


def _invited(client, app) -> tuple[str, OutboxMail]:
    """Create a game of Ann (a signed-in account, who invites) and Bob (invited);
    return its id and Bob's invitation mail."""
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}],
        },
        headers=auth(inviter(client, app, ANN, "Ann")),
    )
    assert made.status_code == 201 and made.json["status"] == "waiting", made.json
    with app.app_context():
        [mail] = db.session.scalars(sa.select(OutboxMail).where(OutboxMail.to_addr == BOB))
        db.session.expunge(mail)
    return made.json["id"], mail


def _to_bob(app) -> list[OutboxMail]:
    with app.app_context():
        rows = list(
            db.session.scalars(
                sa.select(OutboxMail).where(OutboxMail.to_addr == BOB).order_by(OutboxMail.id)
            )
        )
        for row in rows:
            db.session.expunge(row)
        return rows


def _invitation(app, game_id: str) -> Invitation:
    with app.app_context():
        row = db.session.scalar(sa.select(Invitation).where(Invitation.game_id == game_id))
        db.session.expunge(row)
        return row


def test_the_invitation_mail_takes_a_reply(app, client):
    """Given an invitation, its mail has a capability Reply-To (version 0) and says
    that a reply "accept" works."""
    game_id, mail = _invited(client, app)
    assert mail.headers["Reply-To"].startswith(f"{game_id}-1-0-")
    assert 'reply to this mail with the single word "accept"' in mail.body


def test_a_reply_accept_accepts_once_and_starts_the_game(app, client):
    """Given Bob's reply "accept" from his address, the invitation is accepted, the game
    starts and Bob (now agreeing) gets one answer; a second "accept" is refused (the
    game has started on the first) and nothing changes."""
    game_id, mail = _invited(client, app)
    to = mail.headers["Reply-To"]
    _, code = deliver(app, reply(to, "accept", BOB), to, BOB)
    assert code == "answered"
    assert _invitation(app, game_id).status == "accepted"
    assert until_decision(client, app, game_id)["status"] == "active"
    [first] = answers(app, game_id)
    assert first.to_addr == BOB and "Invitation accepted" in first.body
    _, code = deliver(app, reply(to, "accept", BOB), to, BOB)
    assert code == "answered"
    second = answers(app, game_id)[-1]
    assert "Refused (game-started)" in second.body  # answered, and the game is on
    with app.app_context():
        kinds = list(
            db.session.scalars(sa.select(ConsentEvent.kind).where(ConsentEvent.email == BOB))
        )
    assert kinds.count("accepted") == 1


def test_a_reply_accept_processed_again_is_its_own_first_answer(app, client):
    """Given Bob's reply "accept" whose processing is run again (a worker that died
    after the commit, before recording the outcome), the second run finds the answer
    kept under the mail's Message-ID: "ok", not refused by its own first answer, and
    the invitation is accepted once."""
    game_id, mail = _invited(client, app)
    to = mail.headers["Reply-To"]
    outcome, code = deliver(app, reply(to, "accept", BOB), to, BOB)
    assert code == "answered"
    with app.app_context():
        row = db.session.get(InboundMail, outcome.inbound_id)
        row.status, row.claimed_at = "pending", None
        db.session.commit()
        assert process(outcome.inbound_id) == "answered"
        assert db.session.get(InboundMail, outcome.inbound_id).detail == "'accept': ok"
        kinds = list(
            db.session.scalars(sa.select(ConsentEvent.kind).where(ConsentEvent.email == BOB))
        )
    assert kinds.count("accepted") == 1
    assert _invitation(app, game_id).status == "accepted"


def test_a_reply_decline_declines_and_gets_no_answer(app, client):
    """Given Bob's reply "decline", the invitation is declined (the default policy
    cancels the game) and nothing is mailed back to Bob."""
    game_id, _mail = _invited(client, app)
    to = _mail.headers["Reply-To"]
    _, code = deliver(app, reply(to, "decline", BOB), to, BOB)
    assert code == "invitation-declined"
    assert _invitation(app, game_id).status == "declined"
    assert game_row(app, game_id)["status"] == "cancelled"
    assert [m.dedupe_key.split(":")[0] for m in _to_bob(app)] == ["invite"]


def test_other_mail_from_an_address_that_has_not_accepted_is_answered_once(app, client):
    """Given Bob's reply with a move, or with "status", before accepting, nothing is
    done; the first gets one answer saying what to write (issue 24, item 4), the next
    is recorded as refused-not-accepted and not answered."""
    game_id, mail = _invited(client, app)
    to = mail.headers["Reply-To"]
    _, code = deliver(app, reply(to, "status", BOB), to, BOB)
    assert code == "answered"
    _, code = deliver(app, reply(to, "die 1 up", BOB), to, BOB)
    assert code == "refused-not-accepted"
    assert _invitation(app, game_id).status == "pending"
    kinds = [m.dedupe_key.split(":")[0] for m in _to_bob(app)]
    assert kinds == ["invite", "invite-help"]
    assert 'reply with "yes"' in _to_bob(app)[-1].body


@pytest.mark.parametrize(
    "body",
    sampled(["Yes, count me in!", "Hi Ann,\n\nSure, I'm in.\n\nBob", "ok", "Okay!", "I accept"]),
)
def test_a_yes_in_words_accepts_the_invitation(app, client, body):
    """Given Bob's reply that says yes in words, around a greeting and a signature,
    the invitation is accepted and Bob is answered."""
    game_id, mail = _invited(client, app)
    to = mail.headers["Reply-To"]
    _, code = deliver(app, reply(to, body, BOB), to, BOB)
    assert code == "answered"
    assert _invitation(app, game_id).status == "accepted"
    assert "Invitation accepted" in answers(app, game_id)[-1].body


@pytest.mark.parametrize(
    "body", sampled(["No thanks", "Hello,\n\nnot this time, sorry.\n", "decline"], every=2)
)
def test_a_no_in_words_declines_the_invitation(app, client, body):
    """Given Bob's reply that says no in words, the invitation is declined and nothing
    is mailed back."""
    game_id, mail = _invited(client, app)
    to = mail.headers["Reply-To"]
    deliver(app, reply(to, body, BOB), to, BOB)
    assert _invitation(app, game_id).status == "declined"
    assert [m.dedupe_key.split(":")[0] for m in _to_bob(app)] == ["invite"]


def test_an_accept_from_another_address_is_dropped(app, client):
    """Given a reply "accept" to Bob's invitation from a stranger (From and envelope),
    or from Bob's From with a stranger's envelope sender, nothing is accepted and
    nothing answered."""
    game_id, mail = _invited(client, app)
    to = mail.headers["Reply-To"]
    _, code = deliver(app, reply(to, "accept", "eve@example.org"), to, "eve@example.org")
    assert code == "refused-sender"
    _, code = deliver(app, reply(to, "accept", BOB), to, "eve@example.org")
    assert code == "refused-sender"
    assert _invitation(app, game_id).status == "pending"
    assert answers(app) == []


def test_a_forged_invitation_capability_is_dropped(app, client):
    """Given a reply to a version-0 address whose MAC was changed, nothing is done."""
    game_id, mail = _invited(client, app)
    to = mail.headers["Reply-To"]
    local, _, domain = to.partition("@")
    forged = local[:-1] + ("a" if local[-1] != "a" else "b") + "@" + domain
    _, code = deliver(app, reply(forged, "accept", BOB), forged, BOB)
    assert code == "refused-capability"
    assert _invitation(app, game_id).status == "pending"


def test_a_seat_that_unsubscribed_is_not_acted_on_or_answered(app, client):
    """Given a seat whose address unsubscribed from the game (mail_off), a reply from
    it to its turn mail is refused-sender: no move, no answer (no mail to an address
    that asked for none)."""
    from arbiter.models import Seat

    game_id = started(client, app)
    seat = game_row(app, game_id)["to_act"][0]
    mail = turn_mail(app, game_id, seat)
    with app.app_context():
        db.session.get(Seat, (game_id, seat)).mail_off = True
        db.session.commit()
    to = mail.headers["Reply-To"]
    sender = mail.to_addr
    version = game_row(app, game_id)["version"]
    _, code = deliver(app, reply(to, "status", sender), to, sender)
    assert code == "refused-sender"
    assert game_row(app, game_id)["version"] == version and answers(app, game_id) == []
    assert inbound(app)[-1].outcome == "refused-sender"


def test_turn_mail_and_answers_never_go_to_an_address_without_an_account(app, client):
    """Given a game whose second seat's address is not an account and the creator's
    unfilled policy "start", after the invitation is declined the game plays on and
    that address never gets a turn, reminder or answer mail."""
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "unfilled": "start",
            "players": [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}],
        },
        headers=auth(inviter(client, app, ANN, "Ann")),
    )
    game_id = made.json["id"]
    [mail] = _to_bob(app)
    to = mail.headers["Reply-To"]
    _, code = deliver(app, reply(to, "decline", BOB), to, BOB)
    assert code == "invitation-declined"
    until_decision(client, app, game_id)
    with app.app_context():
        assert db.session.get(Game, game_id).status == "active"
    assert [m.dedupe_key.split(":")[0] for m in _to_bob(app)] == ["invite"]
