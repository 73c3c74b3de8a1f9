"""The "my web hooks" pages (issue 12, "my webhooks", on issue 11's web hooks): a
signed-in browser registers a hook with a plain form (its secret shown once, the
deliveries then signed with it), reads its delivery log, deletes it; a refused URL, a
form without its CSRF token and another account's hook are refused and say why."""

from __future__ import annotations

import re

import pytest
from standardwebhooks import Webhook as Verifier

from tests.arbiter.hooks.test_webhooks import LOOPBACK, deliver_due
from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.conftest import make_app
from tests.helpers import auth, sign_in, until_decision
from tests.webhook_receiver import ReceiverServer


@pytest.fixture
def app(sqlite_url):
    """An app that may call web hooks on loopback (the tests' receiver)."""
    app = make_app(sqlite_url, **LOOPBACK)
    yield app
    from arbiter.extensions import db

    with app.app_context():
        db.engine.dispose()


def register(browser, url: str, events=("turn", "game_over")):
    """Post the page's registration form; return the answer."""
    page = browser.get("/me/webhooks").get_data(as_text=True)
    return browser.post(
        "/me/webhooks", data={"csrf_token": csrf(page), "url": url, "events": list(events)}
    )


def test_a_hook_made_on_the_page_is_signed_and_logged(client, app) -> None:
    """The page registers a hook and shows its secret once; a turn of the account's
    game reaches the receiver signed with that secret, and the hook's page lists the
    delivery as delivered."""
    browser = app.test_client()
    browser_sign_in(browser, app, "ann@example.org")
    with ReceiverServer() as receiver:
        made = register(browser, receiver.url + "arbiter")
        assert made.status_code == 200
        text = made.get_data(as_text=True)
        secret = re.search(r'<code class="token">(whsec_[^<]+)</code>', text).group(1)
        listing = browser.get("/me/webhooks").get_data(as_text=True)
        assert secret not in listing and receiver.url + "arbiter" in listing
        hook_id = re.search(r'href="/me/webhooks/(wh_[0-9a-f]+)"', listing).group(1)
        token = sign_in(client, app, "ann@example.org")
        game = client.post(
            "/v1/games",
            headers=auth(token),
            json={
                "engine": "space-worm",
                "players": [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob"}],
            },
        ).json["id"]
        until_decision(client, app, game)
        assert deliver_due(app) >= 1
        got = receiver.wait_for(1)
        Verifier(secret).verify(got[0].body, got[0].headers)  # raises when not signed
    log = browser.get(f"/me/webhooks/{hook_id}").get_data(as_text=True)
    assert "delivered" in log and f'href="/games/{game}"' in log


@pytest.mark.parametrize("url", ["https://10.1.2.3/hook", "http://[64:ff9b::a00:1]/"])
def test_a_refused_url_registers_nothing_and_says_why(app, url) -> None:
    """A URL the service refuses (a private address, also one reached through the
    NAT64 prefix) gives the page back with the reason, 422, and no hook; without
    events the form is incomplete."""
    browser = app.test_client()
    browser_sign_in(browser, app, "ann@example.org")
    refused = register(browser, url)
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "Not registered:" in text
    assert "No web hooks yet." in text
    page = browser.get("/me/webhooks").get_data(as_text=True)
    empty = browser.post(
        "/me/webhooks", data={"csrf_token": csrf(page), "url": "https://example.org/h"}
    )
    assert empty.status_code == 422 and "nothing was recorded" in empty.get_data(as_text=True)
    assert "No web hooks yet." in browser.get("/me/webhooks").get_data(as_text=True)


def test_forms_without_csrf_and_other_accounts_hooks_are_refused(app) -> None:
    """Registering or deleting without the CSRF token is refused (400) and changes
    nothing; another account can neither read nor delete the hook (404)."""
    ann = app.test_client()
    browser_sign_in(ann, app, "ann@example.org")
    with ReceiverServer() as receiver:
        assert (
            ann.post("/me/webhooks", data={"url": receiver.url, "events": ["turn"]}).status_code
            == 400
        )
        assert register(ann, receiver.url).status_code == 200
    listing = ann.get("/me/webhooks").get_data(as_text=True)
    hook_id = re.search(r'href="/me/webhooks/(wh_[0-9a-f]+)"', listing).group(1)
    assert ann.post(f"/me/webhooks/{hook_id}/delete").status_code == 400
    bob = app.test_client()
    text = browser_sign_in(bob, app, "bob@example.org", "Bob")
    assert bob.get(f"/me/webhooks/{hook_id}").status_code == 404
    assert (
        bob.post(f"/me/webhooks/{hook_id}/delete", data={"csrf_token": csrf(text)}).status_code
        == 404
    )
    assert hook_id in ann.get("/me/webhooks").get_data(as_text=True)
    gone = ann.post(
        f"/me/webhooks/{hook_id}/delete", data={"csrf_token": csrf(listing)}, follow_redirects=True
    ).get_data(as_text=True)
    assert "Web hook deleted" in gone and hook_id not in gone


def test_the_hook_pages_need_a_session(client) -> None:
    """Without signing in, the web hook pages send the browser to the sign-in page."""
    for url in ("/me/webhooks", "/me/webhooks/wh_0123456789abcdef"):
        answer = client.get(url)
        assert answer.status_code == 303 and answer.headers["Location"].endswith("/sign-in")


def test_a_hook_is_disabled_enabled_and_its_events_changed(app) -> None:
    """On the hook's page: disabling it says so and it gets no delivery; enabling it
    again clears that; its events are changed with the checkboxes."""
    browser = app.test_client()
    browser_sign_in(browser, app, "ann@example.org")
    with ReceiverServer() as receiver:
        assert register(browser, receiver.url, events=("turn",)).status_code == 200
    listing = browser.get("/me/webhooks").get_data(as_text=True)
    hook_id = re.search(r'href="/me/webhooks/(wh_[0-9a-f]+)"', listing).group(1)
    page = browser.get(f"/me/webhooks/{hook_id}").get_data(as_text=True)
    off = browser.post(
        f"/me/webhooks/{hook_id}/disable", data={"csrf_token": csrf(page)}, follow_redirects=True
    ).get_data(as_text=True)
    assert "Disabled" in off and "Disabled by its owner." in off and "Enable it again" in off
    assert "disabled: Disabled by its owner." in browser.get("/me/webhooks").get_data(as_text=True)
    on = browser.post(
        f"/me/webhooks/{hook_id}/enable", data={"csrf_token": csrf(off)}, follow_redirects=True
    ).get_data(as_text=True)
    assert "enabled again" in on and "Disable it" in on
    changed = browser.post(
        f"/me/webhooks/{hook_id}/events",
        follow_redirects=True,
        data={"csrf_token": csrf(on), "events": ["game_over", "tournament_over"]},
    )
    text = changed.get_data(as_text=True)
    assert "Events changed." in text and "for game_over, tournament_over," in text
    assert (
        browser.post(f"/me/webhooks/{hook_id}/events", data={"csrf_token": csrf(text)}).status_code
        == 422
    )  # no event: nothing changed
