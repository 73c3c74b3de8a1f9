"""Nobody makes the service mail strangers with their own words (issue 22, item 3),
and an address that opted out of everything gets no mail at all, sign-in links
included (issue 22, item 8): only a signed-in account invites an address that has not
agreed, within ``INVITES_PER_DAY`` different mailboxes a day (single and bulk
creation together); "one invitation, ever" counts mailboxes (case and plus-tags
folded); an invitation mail holds no text the inviter typed, only the inviter's
account name and address, the game's title and who else plays (item 14)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa
import time_machine

from arbiter.extensions import db
from arbiter.mail import consent
from arbiter.models import Game, Invitation, OutboxMail, SignInLink
from arbiter.models.timestamps import utcnow
from tests.arbiter.web.test_web_accounts import csrf
from tests.conftest import make_app
from tests.helpers import agreed, auth, inviter, mailed_link, sign_in

PHISH = "URGENT: account locked, verify at http://evil.example/login"
"""An 58-character player name an attacker types (the issue's was 80 with "Hello")."""


def _game(*players, engine="space-worm"):
    return {"engine": engine, "players": [{"name": n, "email": e} for n, e in players]}


def _mails(app, kind: str = "") -> list[OutboxMail]:
    with app.app_context():
        rows = db.session.scalars(sa.select(OutboxMail).order_by(OutboxMail.id)).all()
        return [m for m in rows if m.dedupe_key.startswith(kind)]


def _count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(model))


@pytest.fixture
def budget_app(db_url):
    """An app whose accounts may invite 4 different mailboxes a day, on SQLite and on
    PostgreSQL (whose schema the session's tests share: each test invites as an
    account of its own)."""
    return make_app(db_url, INVITES_PER_DAY=4)


def _own(name: str) -> str:
    """An address no other test uses."""
    return f"{name}-{uuid.uuid4().hex[:8]}@example.org"


def test_mailbox_folds_case_and_plus_tags():
    from arbiter.mail.mailboxes import mailbox

    assert mailbox(" Victim+1@Example.ORG ") == "victim@example.org"
    assert mailbox("victim+a+b@example.org") == "victim@example.org"
    assert mailbox("first.last@example.org") == "first.last@example.org"
    assert mailbox("+tag@example.org") == "+tag@example.org"


def test_an_anonymous_caller_cannot_make_the_service_mail_a_stranger(client, app):
    """Given open creation and no token, a game, a batch or a campaign naming an
    address that is no account's is a 401 ``sign-in-to-invite`` that says to sign in,
    and nothing is written or mailed; an account's address may still be named."""
    stranger = [("Bob", "bob@example.org")]
    single = client.post("/v1/games", json=_game(("Ann", None), *stranger))
    batch = client.post(
        "/v1/bulk-games",
        json={"games": [_game((PHISH, f"victim{i}@example.org"), ("X", None)) for i in range(5)]},
    )
    campaign = client.post(
        "/v1/campaigns",
        json={"engine": "star-maps", "players": [{"name": "B", "email": "b@x.org"}]},
    )
    for answer in (single, batch, campaign):
        assert answer.status_code == 401, answer.json
        assert answer.mimetype == "application/problem+json"
        assert answer.json["code"] == "sign-in-to-invite"
        assert "sign in" in answer.json["detail"]
    assert _count(app, Game) == 0 and _count(app, Invitation) == 0 and _mails(app) == []
    agreed(app, "ann@example.org")
    known = client.post("/v1/games", json=_game(("Ann", "ann@example.org"), ("Bo", None)))
    assert known.status_code == 201 and known.json["status"] == "active"


def test_an_accounts_budget_of_new_addresses_holds_across_single_and_bulk(client, budget_app):
    """Given INVITES_PER_DAY=4: 2 addresses in a single game, then a batch naming one of
    them again and 2 new ones (4 mailboxes), then any new address is a 429
    ``invitation-budget`` with Retry-After, nothing made; addresses of accounts and
    plus-tags of an invited mailbox do not count; a day later there is room again."""
    app, client = budget_app, budget_app.test_client()
    token = inviter(client, app, _own("host"))
    agreed(app, "ann@example.org")
    first = client.post(
        "/v1/games",
        json=_game(("A", "a@example.org"), ("B", "b@example.org"), ("Ann", "ann@example.org")),
        headers=auth(token),
    )
    assert first.status_code == 201, first.json
    batch = {
        "games": [
            _game(("A", "A+again@example.org"), ("C", "c@example.org")),
            _game(("D", "d@example.org"), ("Ann", "ann@example.org")),
        ]
    }
    assert client.post("/v1/bulk-games", json=batch, headers=auth(token)).status_code == 201
    games_before = _count(app, Game)
    for over in (
        client.post("/v1/games", json=_game(("E", "e@example.org")), headers=auth(token)),
        client.post(
            "/v1/bulk-games",
            json={"games": [_game(("C", "c+2@example.org")), _game(("F", "f@example.org"))]},
            headers=auth(token),
        ),
    ):
        assert over.status_code == 429, over.json
        assert over.json["code"] == "invitation-budget"
        assert 0 < int(over.headers["Retry-After"]) <= 86400
    assert _count(app, Game) == games_before
    again = client.post(
        "/v1/games",
        json=_game(("B", "b+x@example.org"), ("Ann", "ann@example.org")),
        headers=auth(token),
    )
    assert again.status_code == 201  # an invited mailbox again: not a new address
    with time_machine.travel(utcnow() + timedelta(days=1, minutes=1)):
        later = client.post("/v1/games", json=_game(("E", "e@example.org")), headers=auth(token))
        assert later.status_code == 201, later.json


def test_plus_tagged_sign_ups_of_one_mailbox_share_one_budget(budget_app):
    """Given INVITES_PER_DAY=4, ``host+1@`` and ``host+2@`` are two accounts of one
    mailbox: together they invite 4 addresses a day, not 8."""
    app, client = budget_app, budget_app.test_client()
    host = _own("host")
    one = inviter(client, app, host.replace("@", "+1@"))
    two = inviter(client, app, host.replace("@", "+2@"))
    for token, names in ((one, "abc"), (two, "d")):
        for n in names:
            made = client.post(
                "/v1/games", json=_game((n, f"{n}@example.org")), headers=auth(token)
            )
            assert made.status_code == 201, made.json
    over = client.post("/v1/games", json=_game(("E", "e@example.org")), headers=auth(two))
    assert over.status_code == 429 and over.json["code"] == "invitation-budget"


def test_plus_tag_variants_of_one_mailbox_get_one_invitation_ever(client, app):
    """Given invitations to ``victim+1@``, ``Victim+2@``, ``victim@`` ... only the first
    is mailed; blocking from it blocks every spelling of the mailbox."""
    token = inviter(client, app)
    spellings = ["victim+1@example.org", "Victim+2@Example.org", "victim@example.org"]
    spellings += [f"victim+{i}@example.org" for i in range(3, 20)]
    for address in spellings:
        made = client.post("/v1/games", json=_game(("V", address)), headers=auth(token))
        assert made.status_code == 201, made.json
    invites = _mails(app, "invite:")
    assert [m.to_addr for m in invites] == ["victim+1@example.org"]
    with app.app_context():
        invitation = db.session.scalars(
            sa.select(Invitation).order_by(Invitation.created_at)
        ).first()
        consent.block(invitation.email)
        db.session.commit()
    refused = client.post(
        "/v1/games", json=_game(("V", "VICTIM+99@example.org")), headers=auth(token)
    )
    assert refused.status_code == 422 and refused.json["code"] == "invitation-refused"


def test_the_invitation_mail_says_who_invites_and_who_plays_in_no_typed_words(client, app):
    """Given an inviter whose account is "Ann" and a game whose players were typed as
    phishing text, the invitation mail names the inviter by her account's name and
    address, the game by its title, the players with an account by their accounts'
    names and counts the others; none of the typed names is in it."""
    ann = sign_in(client, app, "ann@example.org", "Ann")
    agreed(app, "carl@example.org")
    typed = [PHISH, f"Hello {PHISH}"[:80], "Dear customer, pay at evil.example", "Z" * 80]
    made = client.post(
        "/v1/games",
        json=_game(
            (typed[0], "ann@example.org"),
            (typed[1], "bob@example.org"),
            (typed[2], "carl@example.org"),
            (typed[3], "dora@example.org"),
            ("Eve (no address)", None),
        ),
        headers=auth(ann),
    )
    assert made.status_code == 201, made.json
    invites = {m.to_addr: m for m in _mails(app, "invite:")}
    assert set(invites) == {"bob@example.org", "dora@example.org"}
    body = invites["bob@example.org"].body
    subject = invites["bob@example.org"].subject
    for text in (*typed, "Eve", "evil.example", "URGENT"):
        assert text not in body and text not in subject, text
    assert "Ann <ann@example.org>" in body and "invites you to play Space Worm" in body
    carl = "carl"  # an account named by its own display name (made from the address)
    assert f"The players: you, Ann, {carl}, one other invited player and one more player" in body
    assert made.json["id"] not in body  # a code is no words for a person (issue 23)


def test_an_invitation_names_a_built_in_bot_as_one(client, app):
    """Given a game of an invited address and a built-in bot, the invitation counts
    the bot as a built-in bot (not as a player without an address), by no typed
    name."""
    ann = sign_in(client, app, "ann@example.org", "Ann")
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "players": [
                {"name": "Ann", "email": "ann@example.org"},
                {"name": "Zoe", "email": "zoe@example.org"},
                {"name": "Robo", "bot": {"kind": "random"}},
            ],
        },
        headers=auth(ann),
    )
    assert made.status_code == 201, made.json
    [invite] = [m for m in _mails(app, "invite:") if m.to_addr == "zoe@example.org"]
    assert "The players: you, Ann and one built-in bot." in invite.body
    assert "Robo" not in invite.body


def test_an_address_that_opted_out_of_everything_gets_no_sign_in_mail(client, app):
    """Given ann@ unsubscribed from every mail, a sign-in link asked for ann@ or
    Ann+x@ is answered exactly as for any address (202, same words) but nothing is
    mailed; "Mail me again" on her unsubscribe page lets links through again."""
    sent = client.post("/v1/auth/links", json={"email": "ann@example.org"})
    assert sent.status_code == 202 and len(_mails(app, "sign-in:")) == 1
    with app.app_context():
        token = consent.unsubscribe_url("ann@example.org", None).split("t=", 1)[1]
    done = client.post(
        f"/v1/unsubscribe?t={token}",
        data="List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert done.status_code == 200 and done.json["scope"] == "all"
    for address in ("ann@example.org", "Ann+x@example.org"):
        quiet = client.post("/v1/auth/links", json={"email": address})
        assert (quiet.status_code, quiet.json) == (sent.status_code, sent.json)
    assert len(_mails(app, "sign-in:")) == 1
    form = client.get("/sign-in").get_data(as_text=True)
    web = client.post("/sign-in", data={"csrf_token": csrf(form), "email": "ann@example.org"})
    assert web.status_code == 200 and b"Check your mail" in web.data
    assert len(_mails(app, "sign-in:")) == 1
    assert _count(app, SignInLink) == 4  # recorded and counted all the same
    page = client.get(f"/v1/unsubscribe?t={token}")
    assert b"Mail me again" in page.data and b"not even sign-in links" in page.data
    again = client.post(f"/v1/resubscribe?t={token}", json={})
    assert again.status_code == 200 and again.json["scope"] == "all"
    sign_in(client, app, "ann@example.org")
    assert len(_mails(app, "sign-in:")) == 2
    assert mailed_link(app, "ann@example.org")["email"] == "ann@example.org"


def test_the_sign_in_limit_counts_a_mailbox_not_an_address(db_url):
    """Given RATELIMIT_SIGN_IN of 3 per 10 minutes, links for ``ann@``, ``Ann+1@``,
    ``ann+2@`` use it up and the fourth spelling is a 429, nothing recorded (SQLite and
    PostgreSQL). The per-client limit is off: on PostgreSQL the session's tests share one
    schema, whose links from the test client's address other tests have used up."""
    app = make_app(
        db_url,
        RATELIMIT_ENABLED=True,
        RATELIMIT_SIGN_IN="3 per 10 minutes",
        RATELIMIT_SIGN_IN_CLIENT="",
    )
    client = app.test_client()
    ann = _own("ann")
    local, domain = ann.split("@")
    spellings = [ann, f"{local.upper()}+1@{domain}", f"{local}+2@{domain}", f"{local}+3@{domain}"]
    answers = [client.post("/v1/auth/links", json={"email": a}) for a in spellings]
    assert [a.status_code for a in answers] == [202, 202, 202, 429]
    assert answers[3].json["code"] == "rate-limited"
    assert 0 < int(answers[3].headers["Retry-After"]) <= 600
    with app.app_context():
        links = sa.select(sa.func.count()).where(SignInLink.mailbox == ann)
        assert db.session.scalar(links) == 3
