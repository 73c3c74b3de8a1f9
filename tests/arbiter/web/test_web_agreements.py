"""Agreed undo and abort on the game page (issue 24, item 3): links to confirmation
pages, plain forms (no JavaScript), CSRF, and the same answers as REST. Flask's test
client as two browsers, each holding its seat."""

from __future__ import annotations

import re

import engines
from arbiter.extensions import db
from arbiter.models import Event
from tests.arbiter.games.test_agreed_undo import game_row, play
from tests.arbiter.web.test_web_pages import CSRF, open_seat, page
from tests.helpers import event_count, new_game, until_decision

KEY = re.compile(r'name="key" value="([^"]+)"')


def _logged_move(app, game_id: str, seq: int) -> dict:
    with app.app_context():
        return db.session.get(Event, (game_id, seq)).payload["move"]


def confirm_and_post(browser, url: str):
    """Open a confirmation page, then send its form as a browser does."""
    shown = browser.get(url)
    assert shown.status_code == 200
    text = shown.get_data(as_text=True)
    data = {"csrf_token": CSRF.search(text).group(1), "key": KEY.search(text).group(1)}
    return text, browser.post(url, data=data, follow_redirects=True)


def test_a_player_asks_on_the_page_and_the_other_accepts_on_theirs(app):
    ann_browser, bob_browser = app.test_client(), app.test_client()
    game_id, tokens = new_game(ann_browser, players=2)
    ann = until_decision(ann_browser, app, game_id)["to_act"][0]
    bob = 1 - ann
    open_seat(ann_browser, app, game_id, ann)
    open_seat(bob_browser, app, game_id, bob)
    before = game_row(app, game_id)["state"]
    played = play(ann_browser, game_id, tokens[ann]).json

    shown = page(ann_browser, game_id)
    assert "Ask to take back my last move" in shown
    text, done = confirm_and_post(ann_browser, f"/games/{game_id}/undo/ask")
    assert "cannot be reversed" in text
    assert "Your request is recorded" in done.get_data(as_text=True)

    bobs = page(bob_browser, game_id)
    assert f"P{ann} asked to take back their last move" in bobs
    # issue 23: the move in words (the engine's move_words), not its notation
    words = engines.get("space-worm").move_words(_logged_move(app, game_id, played["seq"]))
    assert f"their last move ({words})." in bobs and f"({played['text']})" not in bobs
    number = re.search(rf"/games/{game_id}/undo/(\d+)/accept", bobs).group(1)
    text, done = confirm_and_post(bob_browser, f"/games/{game_id}/undo/{number}/accept")
    assert f"P{ann} asks to take back their last move" in text
    assert "Everyone agreed: the move is taken back." in done.get_data(as_text=True)
    assert game_row(app, game_id)["state"] == before


def test_refusing_on_the_page_and_forms_without_csrf_record_nothing(app):
    ann_browser, bob_browser = app.test_client(), app.test_client()
    game_id, tokens = new_game(ann_browser, players=2)
    ann = until_decision(ann_browser, app, game_id)["to_act"][0]
    open_seat(ann_browser, app, game_id, ann)
    open_seat(bob_browser, app, game_id, 1 - ann)
    play(ann_browser, game_id, tokens[ann])
    count = event_count(app, game_id)
    forged = ann_browser.post(f"/games/{game_id}/undo/ask", data={"key": "k" * 20})
    assert forged.status_code == 400 and event_count(app, game_id) == count
    spectator = app.test_client().post(f"/games/{game_id}/abort/ask", data={"key": "k" * 20})
    assert spectator.status_code == 303 and event_count(app, game_id) == count
    confirm_and_post(ann_browser, f"/games/{game_id}/abort/ask")
    bobs = page(bob_browser, game_id)
    assert "proposed to abort the game" in bobs
    form = bobs[bobs.index("/abort/") :]
    number = re.search(r"/abort/(\d+)/refuse", form).group(1)
    data = {"csrf_token": CSRF.search(form).group(1), "key": KEY.search(form).group(1)}
    refused = bob_browser.post(
        f"/games/{game_id}/abort/{number}/refuse", data=data, follow_redirects=True
    )
    assert "You refused" in refused.get_data(as_text=True)
    assert "proposed to abort" not in page(bob_browser, game_id)


def test_a_refused_undo_says_why_on_the_page(app):
    browser = app.test_client()
    game_id, _ = new_game(browser, players=2)
    seat = until_decision(browser, app, game_id)["to_act"][0]
    open_seat(browser, app, game_id, seat)
    _, done = confirm_and_post(browser, f"/games/{game_id}/undo/ask")
    assert "Nothing was changed: You have made no move" in done.get_data(as_text=True)


def test_a_page_address_naming_nothing_answers_a_page(app):
    """Issue 24: /games/<id>/undo/abc/accept (no request "abc") answers the HTML error
    page with 404, not the API's problem+json; the API keeps its problem."""
    browser = app.test_client()
    game_id, _ = new_game(browser, players=2)
    answer = browser.get(f"/games/{game_id}/undo/abc/accept")
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    assert "There is no page at this address" in answer.get_data(as_text=True)
    wrong = browser.put(f"/games/{game_id}")
    assert wrong.status_code == 405 and wrong.mimetype == "text/html"
    api = browser.get(f"/v1/games/{game_id}/undo-requests/abc")
    assert api.status_code == 404 and api.mimetype == "application/problem+json"
