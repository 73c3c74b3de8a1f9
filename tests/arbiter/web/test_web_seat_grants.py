"""A seat a browser holds ends with what granted it (issue 22, item 4): a seat opened
by pasting a personal token stops playing when the token is revoked or its account
deleted (it played on for 30 days: a 303 and version 6 -> 7 for "(deleted player)");
signing out forgets every seat the browser opened; a turn mail's seat link holds the
seat no longer than the link itself is good."""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

import pytest
import time_machine

from arbiter.accounts.links import seat_key
from arbiter.models.timestamps import utcnow
from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.arbiter.web.test_web_pages import CSRF, form_fields, open_seat, page
from tests.helpers import auth, event_count, new_game, random_move, sign_in, until_decision


@pytest.fixture
def web(any_app):
    """A browser (test client) of the app on each database."""
    return any_app.test_client()


def account_seat_to_move(client, app) -> tuple[str, str, str]:
    """Return ``(game id, personal token, address)``: a game whose seat 0 is held by a
    new account and owes a move."""
    email = f"ann-{uuid.uuid4().hex[:8]}@example.org"
    token = sign_in(client, app, email, "Ann")
    made = client.post(
        "/v1/games",
        headers=auth(token),
        json={"engine": "space-worm", "players": [{"name": "Ann", "email": email}, {"name": "B"}]},
    )
    assert made.status_code == 201, made.json
    game_id, tokens = made.json["id"], [s["token"] for s in made.json["seats"]]
    rng = random.Random(1)
    while 0 not in until_decision(client, app, game_id)["to_act"]:
        _, _, answer = random_move(client, app, game_id, [tokens[0], tokens[1]], rng)
        assert answer.status_code == 201, answer.json
    return game_id, token, email


def paste(client, game_id: str, token: str) -> str:
    """Open a seat by typing ``token`` into the game page; return the page after."""
    form = CSRF.search(page(client, game_id)).group(1)
    done = client.post(
        f"/games/{game_id}/token", data={"csrf_token": form, "token": token}, follow_redirects=True
    )
    return done.get_data(as_text=True)


def tried_move(client, app, game_id: str, fields: dict) -> tuple[int, str]:
    """Post a move form drawn earlier; return the events added and the page after."""
    before = event_count(app, game_id)
    after = client.post(f"/games/{game_id}/move", data=fields, follow_redirects=True)
    return event_count(app, game_id) - before, after.get_data(as_text=True)


def test_a_seat_opened_by_a_revoked_token_plays_no_more(web, any_app):
    api = any_app.test_client()
    game_id, token, _ = account_seat_to_move(api, any_app)
    bot = api.post(
        "/v1/me/tokens", headers=auth(token), json={"name": "paste", "scopes": ["games:play"]}
    ).json
    assert "You are playing as Ann" in paste(web, game_id, bot["token"])
    fields = form_fields(page(web, game_id))
    assert api.delete(f"/v1/me/tokens/{bot['id']}", headers=auth(token)).status_code == 204
    added, text = tried_move(web, any_app, game_id, fields)
    assert added == 0
    assert "The personal token that opened your seat in this browser was revoked" in text
    assert "You are watching" in page(web, game_id)


def test_a_seat_opened_by_a_deleted_accounts_token_plays_no_more(web, any_app):
    api = any_app.test_client()
    game_id, token, _ = account_seat_to_move(api, any_app)
    paste(web, game_id, token)
    fields = form_fields(page(web, game_id))
    assert api.delete("/v1/me", headers=auth(token)).status_code == 204
    added, text = tried_move(web, any_app, game_id, fields)
    assert added == 0
    assert "has been deleted" in text and "You are watching" in text


def test_a_seat_link_of_a_deleted_account_opens_nothing(web, any_app):
    api = any_app.test_client()
    game_id, token, _ = account_seat_to_move(api, any_app)
    assert open_seat(web, any_app, game_id, 0).status_code == 303
    fields = form_fields(page(web, game_id))
    assert api.delete("/v1/me", headers=auth(token)).status_code == 204
    added, text = tried_move(web, any_app, game_id, fields)
    assert added == 0 and "has been deleted" in text
    again = open_seat(web, any_app, game_id, 0)
    assert again.status_code == 403 and "has been deleted" in again.get_data(as_text=True)


def test_signing_out_forgets_every_seat_the_browser_opened(client, app):
    game_id, tokens = new_game(client, "space-worm", 2)
    other, other_tokens = new_game(client, "space-worm", 2)
    text = browser_sign_in(client, app, "ann@example.org")
    assert open_seat(client, app, game_id, 1).status_code == 303
    paste(client, other, other_tokens[0])
    assert 'data-seat="1"' in page(client, game_id)
    assert 'data-seat="0"' in page(client, other)
    client.post("/sign-out", data={"csrf_token": csrf(text)})
    assert "You are watching" in page(client, game_id)
    assert "You are watching" in page(client, other)


def test_a_seat_link_holds_the_seat_no_longer_than_the_link_is_good(client, app):
    """The link of a mail written 29 days ago opens the seat today (WEB_LINK_SECONDS:
    30 days); two days later the browser no longer holds it, as the link would no
    longer open it (the cookie once held it 30 days from opening)."""
    game_id, _ = new_game(client, "space-worm", 2)
    with time_machine.travel(utcnow() - timedelta(days=29), tick=False), app.app_context():
        key = seat_key(game_id, 1)
    assert client.get(f"/games/{game_id}/open?key={key}").status_code == 303
    assert 'data-seat="1"' in page(client, game_id)
    with time_machine.travel(utcnow() + timedelta(days=2)):
        text = page(client, game_id)
    assert "You are watching" in text
    assert "The link that opened your seat in this browser has expired" in text


def test_a_seat_token_and_a_fresh_link_keep_holding_the_seat(client, app):
    """What still holds keeps the seat: a pasted seat token, a link within its time."""
    game_id, tokens = new_game(client, "space-worm", 2)
    paste(client, game_id, tokens[0])
    assert 'data-seat="0"' in page(client, game_id)
    with time_machine.travel(utcnow() + timedelta(days=25)):
        assert 'data-seat="0"' in page(client, game_id)
    assert open_seat(client, app, game_id, 1).status_code == 303
    with time_machine.travel(utcnow() + timedelta(days=20)):
        assert 'data-seat="1"' in page(client, game_id)
