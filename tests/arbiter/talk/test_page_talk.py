"""The game page's talk panel: every reader's page shows exactly what it may read
(each seat, a signed-in spectator, an anonymous one, before and after the end); its
forms post without JavaScript, and a refusal is a message on the page that writes
nothing. Flask's test client is the browser (no JavaScript)."""

from __future__ import annotations

import re

import sqlalchemy as sa

from arbiter.extensions import db
from arbiter.models import TalkEvent
from tests.arbiter.talk.support import may_see, table, talk_everywhere
from tests.arbiter.web.test_web_accounts import browser_sign_in
from tests.arbiter.web.test_web_pages import open_seat
from tests.helpers import play_out, summary

PANEL = re.compile(r'<section aria-labelledby="talk-h".*?</section>', re.S)


def browsers(app, t) -> dict:
    """A test client per reader: each seat by its signed link, the spectator signed in,
    an anonymous one."""
    out = {}
    for seat in range(3):
        out[f"seat{seat}"] = app.test_client()
        assert open_seat(out[f"seat{seat}"], app, t.game_id, seat).status_code == 303
    out["watcher"] = app.test_client()
    browser_sign_in(out["watcher"], app, "watcher@example.org", "Wendy")
    out["anonymous"] = app.test_client()
    return out


def page_of(browser, game_id: str) -> str:
    answer = browser.get(f"/games/{game_id}")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def seen_on_page(browser, t) -> set[str]:
    text = page_of(browser, t.game_id)
    return {key for key, said in t.said.items() if said.replace("'", "&#39;") in text}


def panel_form(text: str, action: str) -> dict:
    """Return the CSRF token and key of the panel's form posting to ``action``."""
    form = text[text.index(f'action="{action}"') :]
    return {
        "csrf_token": re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1),
        "key": re.search(r'name="key" value="([^"]+)"', form).group(1),
    }


def talk_count(app, game_id: str) -> int:
    with app.app_context():
        return db.session.scalar(
            sa.select(sa.func.count()).select_from(TalkEvent).where(TalkEvent.game_id == game_id)
        )


def test_every_page_shows_what_its_reader_may_read_before_and_after_the_end(any_app):
    client = any_app.test_client()
    t = table(client, any_app)
    talk_everywhere(client, t)
    readers = browsers(any_app, t)
    for name, browser in readers.items():
        assert seen_on_page(browser, t) == may_see(t, name), name
    play_out(client, any_app, t.game_id, t.seats)
    for name, browser in readers.items():
        assert seen_on_page(browser, t) == may_see(t, name, over=True), name


def test_the_panel_posts_without_javascript_and_refuses_with_a_message(app, client):
    t = table(client, app)
    readers = browsers(app, t)
    version = summary(client, t.game_id)["version"]
    bob = readers["seat1"]
    action = f"/games/{t.game_id}/messages"
    fields = panel_form(page_of(bob, t.game_id), action)
    sent = bob.post(action, data={**fields, "channel": "table", "text": "Hello from Bob's page"})
    assert sent.status_code == 303 and sent.location.endswith("#talk-h")
    assert "Message sent." in page_of(bob, t.game_id)
    assert "Hello from Bob" in page_of(readers["seat0"], t.game_id)
    assert "Hello from Bob" not in page_of(readers["anonymous"], t.game_id)
    assert summary(client, t.game_id)["version"] == version
    # the same form sent again (a double click) posts once
    bob.post(action, data={**fields, "channel": "table", "text": "Hello from Bob's page"})
    assert talk_count(app, t.game_id) == 1
    # refusals: too long, private to nobody, a spectator on the table; nothing written
    for who, data in [
        ("seat1", {"channel": "table", "text": "x" * 1001}),
        ("seat1", {"channel": "private", "to": "9", "text": "psst"}),
        ("watcher", {"channel": "table", "text": "let me in"}),
    ]:
        fields = panel_form(page_of(readers[who], t.game_id), action)
        answer = readers[who].post(action, data={**fields, **data}, follow_redirects=True)
        assert answer.status_code == 200 and "Not sent:" in answer.get_data(as_text=True)
    assert talk_count(app, t.game_id) == 1
    # a spectator signed in posts on the spectators' channel; players do not read it
    fields = panel_form(page_of(readers["watcher"], t.game_id), action)
    readers["watcher"].post(action, data={**fields, "channel": "spectators", "text": "Go Cat!"})
    assert "Go Cat!" in page_of(readers["anonymous"], t.game_id)
    assert "Go Cat!" not in page_of(readers["seat2"], t.game_id)


def test_notes_on_the_page_are_their_author_s_only(app, client):
    t = table(client, app)
    readers = browsers(app, t)
    action = f"/games/{t.game_id}/notes"
    fields = panel_form(page_of(readers["seat2"], t.game_id), action)
    kept = readers["seat2"].post(action, data={**fields, "text": "Cat's secret plan"})
    assert kept.status_code == 303
    assert "Cat&#39;s secret plan" in page_of(readers["seat2"], t.game_id)
    for name in ("seat0", "seat1", "watcher", "anonymous"):
        assert "secret plan" not in page_of(readers[name], t.game_id), name
    assert 'action="/games/' + t.game_id + '/notes"' not in page_of(readers["watcher"], t.game_id)


def test_the_live_check_answers_only_for_what_the_browser_may_read(app, client):
    t = table(client, app)
    readers = browsers(app, t)
    talk_everywhere(client, t)  # table 1, private 2, spectators 3, note 4
    seen = {name: b.get(f"/games/{t.game_id}/talk?after=0").json for name, b in readers.items()}
    assert {name: body["messages"] for name, body in seen.items()} == {
        "seat0": [1, 2],
        "seat1": [1, 2],
        "seat2": [1],
        "watcher": [3],
        "anonymous": [3],
    }
    assert seen["seat2"]["last"] == 1
    for bad in ("after=x", "after=1&wait=26", "after=1&wait=-1"):
        assert readers["seat2"].get(f"/games/{t.game_id}/talk?{bad}").status_code == 400
