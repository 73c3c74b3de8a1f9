"""Notifications people want (issue 24, item 5): a player with the game open is not
mailed for each turn; per account and per game, a mail each turn, the digest (at an
hour of the account's zone) or none; the mail command ``notify``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.games import digest, presence
from arbiter.games.games import load
from arbiter.mail import mail as outbox
from arbiter.models import Account, OutboxMail
from tests.arbiter.mailin.support import answer_to, game_row, started, turn_mail
from tests.conftest import make_app
from tests.helpers import auth, new_game, sign_in, until_decision


@pytest.fixture
def app(empty_db_url):
    """An app on each database (SQLite, and a PostgreSQL schema of the test's own)."""
    made = make_app(empty_db_url)
    yield made
    with made.app_context():
        db.engine.dispose()


def _send_latest(app, game_id: str, seat: int) -> str:
    """Send seat's latest turn mail as the mailer does (no SMTP_URL: logged); return
    "sent", or the reason it was not."""
    mail_id = turn_mail(app, game_id, seat).id
    with app.app_context():
        assert outbox.send(mail_id)
        row = db.session.get(OutboxMail, mail_id)
        db.session.refresh(row)
        return "sent" if row.sent_at else row.last_error


def _play_first(client, app, game_id: str, seat: int) -> None:
    from arbiter.play_mail import listed_moves  # noqa: PLC0415

    move = listed_moves(turn_mail(app, game_id, seat).body)[0][0]
    assert answer_to(app, game_id, seat, move)[1] == "answered"
    until_decision(client, app, game_id)


def test_a_player_with_the_game_open_gets_no_turn_mail(app, client):
    """Given seat B present (its stream open), when A moves and it is B's turn, B's
    turn mail is not sent (given up: "the player has the game open"); once B's
    stream closed, B's next turn mail is sent."""
    game_id, tokens = new_game(client, "dark-horse", players=2, emails=True)
    until_decision(client, app, game_id)
    a = game_row(app, game_id)["to_act"][0]
    b = 1 - a
    with app.app_context():
        presence.mark(game_id, b)
    _play_first(client, app, game_id, a)
    assert game_row(app, game_id)["to_act"] == [b]
    assert _send_latest(app, game_id, b) == "not sent: the player has the game open"
    with app.app_context():
        presence.clear(game_id, b)  # B closed the page
        _, engine, state = load(game_id)
        move = engine.legal_moves(state, b)[0]
    moved = client.post(
        f"/v1/games/{game_id}/moves",
        json={"move": move, "expected_version": game_row(app, game_id)["version"]},
        headers={"Authorization": f"Bearer {tokens[b]}"},
    )
    assert moved.status_code in (200, 201), moved.json
    until_decision(client, app, game_id)
    _play_first(client, app, game_id, a)
    assert game_row(app, game_id)["to_act"] == [b]
    assert _send_latest(app, game_id, b) == "sent"


def test_a_turn_mail_whose_turn_ended_before_it_went_is_not_sent(app, client):
    """Given B's turn mail still in the outbox, when B moves on the web before it
    goes, the mail is given up (a late "your turn" would earn only a refusal); B's
    next turn mail is sent."""
    game_id, tokens = new_game(client, "dark-horse", players=2, emails=True)
    until_decision(client, app, game_id)
    a = game_row(app, game_id)["to_act"][0]
    b = 1 - a
    _play_first(client, app, game_id, a)
    late = turn_mail(app, game_id, b).id
    with app.app_context():
        _, engine, state = load(game_id)
        move = engine.legal_moves(state, b)[0]
    moved = client.post(
        f"/v1/games/{game_id}/moves",
        json={"move": move, "expected_version": game_row(app, game_id)["version"]},
        headers={"Authorization": f"Bearer {tokens[b]}"},
    )
    assert moved.status_code in (200, 201), moved.json
    with app.app_context():
        assert outbox.send(late)
        row = db.session.get(OutboxMail, late)
        assert row.sent_at is None
        assert row.last_error == "not sent: the turn was over before the mail went"
    until_decision(client, app, game_id)
    _play_first(client, app, game_id, a)
    assert _send_latest(app, game_id, b) == "sent"


def test_the_page_token_names_its_seat_and_nothing_else(app):
    """The presence token of a game page reads back as its seat in that game only."""
    with app.app_context():
        token = presence.page_token("abc", 1)
        assert presence.seat_of(token, "abc") == 1
        assert presence.seat_of(token, "other") is None
        assert presence.seat_of(token + "x", "abc") is None
        assert presence.seat_of(None, "abc") is None


def test_notify_none_per_game_by_rest_stops_turn_mail_and_digest_hour(app, client):
    """Given Ann's account, PATCH /v1/me sets the digest at 07:00 of her zone and PUT
    /v1/me/games/{id}/notify sets one game to none; the digest goes only in that
    hour."""
    ann = sign_in(client, app, "ann@example.org")
    changed = client.patch("/v1/me", headers=auth(ann), json={"notify": "digest", "digest_hour": 7})
    assert changed.status_code == 200, changed.json
    assert changed.json["notify"] == "digest" and changed.json["digest_hour"] == 7
    bad = client.patch("/v1/me", headers=auth(ann), json={"notify": "sometimes"})
    assert bad.status_code == 422
    missing = client.put(
        "/v1/me/games/nosuchgame/notify", headers=auth(ann), json={"notify": "none"}
    )
    assert missing.status_code == 404
    made = client.post(
        "/v1/games",
        headers=auth(ann),
        json={
            "engine": "dark-horse",
            "players": [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob"}],
        },
    )
    assert made.status_code == 201, made.json
    game_id = made.json["id"]
    one = client.put(f"/v1/me/games/{game_id}/notify", headers=auth(ann), json={"notify": "none"})
    assert one.status_code == 200, one.json
    assert one.json == {"game_id": game_id, "notify": "none", "effective": "none"}
    with app.app_context():
        account = db.session.scalar(sa.select(Account).where(Account.email == "ann@example.org"))
        assert digest.due_now(account, datetime(2026, 12, 2, 7, 5, tzinfo=UTC))
        assert not digest.due_now(account, datetime(2026, 12, 2, 8, 5, tzinfo=UTC))


def test_the_notify_mail_command_sets_this_game_or_all(app, client):
    """Given a player's reply "notify digest", this game's turns go to the digest
    (no more turn mails); "notify turn all" sets all games."""
    game_id = started(client, app, "dark-horse", 2)
    seat = game_row(app, game_id)["to_act"][0]
    _, code = answer_to(app, game_id, seat, "Hi,\n\nnotify none\n\nAnn")
    assert code == "answered"
    with app.app_context():
        from arbiter.models import Seat  # noqa: PLC0415

        assert db.session.get(Seat, (game_id, seat)).notify == "none"
    _, code = answer_to(app, game_id, seat, "notify turn all")
    with app.app_context():
        from arbiter.models import Seat  # noqa: PLC0415

        held = db.session.get(Seat, (game_id, seat))
        account = db.session.get(Account, held.account_id)
        assert held.notify == "none" and account.notify == "turn"


def test_a_registered_section_is_quoted_in_the_turn_mail_as_sent(app, client):
    """The hook other parts fill (the table's messages): a registered section's lines
    appear in the turn mail as it is sent, with the seq of the seat's last move."""
    from arbiter.games import mail_sections  # noqa: PLC0415
    from arbiter.mail.mail import final_body  # noqa: PLC0415

    seen = []

    def section(game, seat, since):
        seen.append(since)
        return ["Messages since your last mail:", f"  Bob: good luck, {game.seats[seat].name}!"]

    mail_sections.register(section)
    try:
        game_id = started(client, app, "dark-horse", 2)
        row = turn_mail(app, game_id, game_row(app, game_id)["to_act"][0])
        with app.app_context():
            text = final_body(row)
    finally:
        mail_sections.SECTIONS.remove(section)
    assert "  Bob: good luck, P" in text and seen == [0]
    assert text.index("Messages since") < text.index("The board:")
