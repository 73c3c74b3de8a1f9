"""Invitations with consent and one-click unsubscribe (issue 10, "Invitations with
consent"): an address that is not an account gets exactly one invitation mail and
nothing else until it accepts; the game starts when every seat has accepted or at its
``start_at``, unfilled seats per its policy; every mail carries RFC 8058 headers."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.games import game_start
from arbiter.mail import mail as outbox
from arbiter.mail.consent import NoConsent
from arbiter.models import Account, ConsentEvent, Event, Game, Invitation, OutboxMail, Seat
from arbiter.models.timestamps import iso, utcnow
from tests.helpers import agreed, auth, inviter, roll, sign_in, until_decision


def _create(client, *emails, **extra):
    """Create a game as a signed-in account (only an account may invite addresses)."""
    body = {
        "engine": "space-worm",
        "players": [{"name": f"P{i}", "email": e} for i, e in enumerate(emails)],
        **extra,
    }
    token = inviter(client, client.application)
    return client.post("/v1/games", json=body, headers=auth(token))


def _mails(app, address):
    with app.app_context():
        return list(
            db.session.scalars(
                sa.select(OutboxMail).where(OutboxMail.to_addr == address).order_by(OutboxMail.id)
            )
        )


def _link(app, address):
    """Return ``(invitation id, nonce)`` from the invitation mail to ``address``."""
    mail = [m for m in _mails(app, address) if m.dedupe_key.startswith("invite:")][-1]
    url = next(w for w in mail.body.split() if "/v1/invitations/" in w)
    parsed = urlparse(url)
    return parsed.path.rsplit("/", 1)[1], parse_qs(parsed.query)["token"][0]


def _events(app, game_id):
    with app.app_context():
        return [
            e.kind
            for e in db.session.scalars(
                sa.select(Event).where(Event.game_id == game_id).order_by(Event.seq)
            )
        ]


def test_an_unknown_address_gets_one_invitation_and_the_game_waits(client, app):
    agreed(app, "ann@example.org")
    made = _create(client, "ann@example.org", "bob@example.org")
    assert made.status_code == 201 and made.json["status"] == "waiting"
    game_id = made.json["id"]
    mails = _mails(app, "bob@example.org")
    assert [m.dedupe_key.split(":")[0] for m in mails] == ["invite"]
    assert _mails(app, "ann@example.org") == []  # not started: no turn mail to anyone
    assert client.get(f"/v1/games/{game_id}").json["to_act"] == []
    assert roll(app, game_id) == 0  # nothing is rolled while it waits
    moved = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(made.json["seats"][0]["token"]),
        json={"move": {"die": 0, "heart": True}},
    )
    assert moved.status_code == 409 and moved.json["code"] == "game-not-started"


def test_accepting_by_link_makes_the_account_and_starts_the_game(client, app):
    made = _create(client, None, "bob@example.org").json
    invitation, nonce = _link(app, "bob@example.org")
    page = client.get(f"/v1/invitations/{invitation}", query_string={"token": nonce})
    assert page.status_code == 200 and b"Accept" in page.data
    accepted = client.post(f"/v1/invitations/{invitation}/accept", json={"token": nonce})
    assert accepted.status_code == 201, accepted.json
    assert accepted.json["account"]["email"] == "bob@example.org"
    summary = until_decision(client, app, made["id"])
    assert summary["status"] == "active"
    assert "game-started" in _events(app, made["id"])
    bob = accepted.json["token"]
    assert client.get(f"/v1/games/{made['id']}/view", headers=auth(bob)).json["seat"] == 1
    again = client.post(f"/v1/invitations/{invitation}/accept", json={"token": nonce})
    assert again.status_code == 409 and again.json["code"] in (
        "invitation-answered",
        "game-started",
    )


@pytest.mark.parametrize("query", [{"token": "bad"}, {}, {"token": ""}])
def test_the_invitation_page_needs_its_links_token(client, app, query):
    """Given an invitation, its page opened with a wrong, empty or no token is a 403
    problem ``bad-invitation-link`` that shows nothing of it (no game, no buttons)."""
    _create(client, None, "bob@example.org")
    invitation, _nonce = _link(app, "bob@example.org")
    page = client.get(f"/v1/invitations/{invitation}", query_string=query)
    assert page.status_code == 403 and page.mimetype == "application/problem+json"
    assert page.json["code"] == "bad-invitation-link"
    assert b"Accept" not in page.data and b"Game" not in page.data


def test_an_answered_invitation_shows_its_answer_without_buttons(client, app):
    """Given invitations accepted and declined, their pages say so and carry no
    Accept, Decline or Block button; a pending one carries all three."""
    _create(client, None, "bob@example.org")
    invitation, nonce = _link(app, "bob@example.org")
    page = client.get(f"/v1/invitations/{invitation}", query_string={"token": nonce})
    assert page.status_code == 200 and page.data.count(b"<button") == 3
    assert (
        client.post(f"/v1/invitations/{invitation}/accept", json={"token": nonce}).status_code
        == 201
    )
    page = client.get(f"/v1/invitations/{invitation}", query_string={"token": nonce})
    assert page.status_code == 200 and b"you accepted this invitation" in page.data
    assert b"<button" not in page.data
    _create(client, None, "cy@example.org")
    invitation, nonce = _link(app, "cy@example.org")
    assert (
        client.post(f"/v1/invitations/{invitation}/decline", json={"token": nonce}).status_code
        == 200
    )
    page = client.get(f"/v1/invitations/{invitation}", query_string={"token": nonce})
    assert page.status_code == 200 and b"<button" not in page.data
    assert b"you declined this invitation" in page.data


def test_turn_mails_flow_only_after_acceptance(client, app):
    made = _create(client, "bob@example.org", None).json
    invitation, nonce = _link(app, "bob@example.org")
    client.post(f"/v1/invitations/{invitation}/accept", json={"token": nonce})
    until_decision(client, app, made["id"])
    kinds = [m.dedupe_key.split(":")[0] for m in _mails(app, "bob@example.org")]
    assert kinds == ["invite", "turn"]


def test_an_invitation_accepted_twice_is_refused(client, app):
    _create(client, None, "bob@example.org", "carl@example.org")
    invitation, nonce = _link(app, "bob@example.org")
    assert (
        client.post(f"/v1/invitations/{invitation}/accept", json={"token": nonce}).status_code
        == 201
    )
    twice = client.post(f"/v1/invitations/{invitation}/accept", json={"token": nonce})
    assert twice.status_code == 409 and twice.json["code"] == "invitation-answered"


def test_a_start_at_in_the_past_is_refused_and_writes_nothing(client, app):
    made = _create(client, None, "bob@example.org", start_at=iso(utcnow() - timedelta(minutes=1)))
    assert made.status_code == 422 and made.json["code"] == "bad-start"
    assert made.mimetype == "application/problem+json"
    assert _mails(app, "bob@example.org") == []
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 0


def test_an_invitation_accepted_after_the_game_started_is_refused(client, app):
    start = utcnow() + timedelta(hours=1)
    made = _create(client, None, "bob@example.org", start_at=iso(start), unfilled="start").json
    invitation, nonce = _link(app, "bob@example.org")
    with time_machine.travel(start + timedelta(seconds=1), tick=False):
        with app.app_context():
            assert game_start.start_due() == 1
    assert client.get(f"/v1/games/{made['id']}").json["status"] == "active"
    late = client.post(f"/v1/invitations/{invitation}/accept", json={"token": nonce})
    assert late.status_code == 409 and late.json["code"] == "game-started"
    with app.app_context():
        assert db.session.scalar(sa.select(Invitation.status)) == "expired"


def test_at_start_at_an_unfilled_seat_cancels_by_default(client, app):
    start = utcnow() + timedelta(hours=1)
    made = _create(client, None, "bob@example.org", start_at=iso(start)).json
    with time_machine.travel(start + timedelta(seconds=1), tick=False):
        with app.app_context():
            game_start.start_due()
    assert client.get(f"/v1/games/{made['id']}").json["status"] == "cancelled"
    assert _events(app, made["id"])[-1] == "game-cancelled"


def test_a_decline_cancels_and_nothing_more_is_mailed(client, app):
    made = _create(client, None, "bob@example.org").json
    invitation, nonce = _link(app, "bob@example.org")
    declined = client.post(f"/v1/invitations/{invitation}/decline", json={"token": nonce})
    assert declined.status_code == 200 and declined.json["status"] == "declined"
    assert client.get(f"/v1/games/{made['id']}").json["status"] == "cancelled"
    _create(client, None, "bob@example.org")  # a later invitation: no second mail
    assert len(_mails(app, "bob@example.org")) == 1
    with app.app_context():
        kinds = [e.kind for e in db.session.scalars(sa.select(ConsentEvent))]
    assert kinds == ["invited", "declined"]


def test_an_unanswered_address_is_not_mailed_a_second_invitation(client, app):
    _create(client, None, "bob@example.org")
    second = _create(client, None, "bob@example.org")
    assert second.status_code == 201 and second.json["status"] == "waiting"
    assert len(_mails(app, "bob@example.org")) == 1
    bob = sign_in(client, app, "bob@example.org")  # he signs up on his own
    pending = client.get("/v1/me/invitations", headers=auth(bob)).json
    assert len(pending) == 2 and sum(i["mailed"] for i in pending) == 1
    unmailed = next(i for i in pending if not i["mailed"])
    accepted = client.post(f"/v1/invitations/{unmailed['id']}/accept", json={}, headers=auth(bob))
    assert accepted.status_code == 201 and accepted.json["token"] is None
    assert client.get(f"/v1/games/{second.json['id']}").json["status"] == "active"


def test_another_account_cannot_answer_an_invitation(client, app):
    _create(client, None, "bob@example.org")
    invitation, _ = _link(app, "bob@example.org")
    eve = sign_in(client, app, "eve@example.org")
    answer = client.post(f"/v1/invitations/{invitation}/accept", json={}, headers=auth(eve))
    assert answer.status_code == 403 and answer.json["code"] == "bad-invitation-link"
    forged = client.post(f"/v1/invitations/{invitation}/accept", json={"token": "forged"})
    assert forged.status_code == 403


def test_one_click_block_refuses_every_later_invitation(client, app):
    _create(client, None, "bob@example.org")
    invitation, nonce = _link(app, "bob@example.org")
    blocked = client.post(f"/v1/invitations/{invitation}/block", json={"token": nonce})
    assert blocked.status_code == 200 and blocked.json["blocked"] is True
    refused = _create(client, None, "bob@example.org")
    assert refused.status_code == 422 and refused.json["code"] == "invitation-refused"
    started = _create(client, None, "bob@example.org", unfilled="start")
    assert started.status_code == 201 and started.json["status"] == "active"
    assert len(_mails(app, "bob@example.org")) == 1


def test_100_invitations_to_one_address_from_one_creator_are_limited(tmp_path):
    from tests.conftest import make_app

    app = make_app(
        f"sqlite:///{tmp_path / 'limits.sqlite3'}",
        RATELIMIT_ENABLED=True,
        RATELIMIT_CREATE="",
        RATELIMIT_INVITE="3 per minute",
    )
    client = app.test_client()
    answers = [_create(client, None, "bob@example.org").status_code for _ in range(100)]
    assert answers[:3] == [201, 201, 201] and set(answers[3:]) == {429}
    assert len(_mails(app, "bob@example.org")) == 1
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 3


def test_the_outbox_refuses_turn_mail_without_consent(client, app):
    made = _create(client, None, "bob@example.org").json
    with app.app_context():
        db.session.get(Seat, (made["id"], 1))
        db.session.add(
            OutboxMail(
                dedupe_key=f"turn:{made['id']}:9:1",
                game_id=made["id"],
                seat=1,
                to_addr="bob@example.org",
                subject="x",
                body="x",
            )
        )
        with pytest.raises(NoConsent):
            db.session.flush()
        db.session.rollback()


def _turn_mail(app, address):
    return [m for m in _mails(app, address) if m.dedupe_key.startswith("turn:")]


def test_every_mail_carries_one_click_unsubscribe(client, app):
    agreed(app, "ann@example.org")
    made = _create(client, "ann@example.org", "bob@example.org").json
    with app.app_context():
        for row in db.session.scalars(sa.select(OutboxMail)):
            message = outbox.message(row)
            assert message["List-Unsubscribe"].startswith("<http://arbiter.test/v1/unsubscribe?t=")
            assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert made["status"] == "waiting"


def test_one_click_unsubscribe_stops_mail_for_that_game(client, app):
    agreed(app, "ann@example.org")
    first = _create(client, "ann@example.org").json
    until_decision(client, app, first["id"])
    mail = _turn_mail(app, "ann@example.org")[0]
    with app.app_context():
        header = outbox.message(mail)["List-Unsubscribe"].strip("<>")
    path = header.removeprefix("http://arbiter.test")
    page = client.get(path)
    assert page.status_code == 200 and b"Unsubscribe" in page.data
    done = client.post(
        path, data="List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200 and done.json == {"scope": "game", "game_id": first["id"]}
    with app.app_context():
        assert db.session.get(Seat, (first["id"], 0)).mail_off
        kinds = [e.kind for e in db.session.scalars(sa.select(ConsentEvent))]
    assert kinds == ["unsubscribed"]
    other = _create(client, "ann@example.org").json  # another game still mails
    until_decision(client, app, other["id"])
    assert {m.game_id for m in _turn_mail(app, "ann@example.org")} == {first["id"], other["id"]}


def test_an_unsubscribe_link_with_a_forged_signature_is_refused(client, app):
    agreed(app, "ann@example.org")
    made = _create(client, "ann@example.org").json
    until_decision(client, app, made["id"])
    with app.app_context():
        header = outbox.message(_turn_mail(app, "ann@example.org")[0])["List-Unsubscribe"]
    token = header.strip("<>").split("t=", 1)[1]
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    answer = client.post(
        f"/v1/unsubscribe?t={forged}",
        data="List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 400 and answer.json["code"] == "bad-unsubscribe-link"
    with app.app_context():
        assert not db.session.get(Seat, (made["id"], 0)).mail_off
        assert db.session.scalar(sa.select(sa.func.count()).select_from(ConsentEvent)) == 0


def test_unsubscribing_from_everything_stops_all_mail_and_invitations(client, app):
    from arbiter.mail import consent

    agreed(app, "ann@example.org")
    with app.app_context():
        path = consent.unsubscribe_url("ann@example.org", None).removeprefix("http://arbiter.test")
    assert client.post(path, json={}).json["scope"] == "all"
    made = _create(client, "ann@example.org").json
    until_decision(client, app, made["id"])
    assert _turn_mail(app, "ann@example.org") == []
    with app.app_context():
        assert db.session.scalar(
            sa.select(Account.mail_off).where(Account.email == "ann@example.org")
        )
