"""The account page's notification form (issue 24, item 5): a signed-in browser
chooses the daily digest at an hour of its zone, without JavaScript; the account's
REST view says the same."""

from __future__ import annotations

from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.helpers import auth, sign_in


def test_the_notifications_form_sets_the_digest_and_its_hour(client, app) -> None:
    """Given a signed-in browser, the form saves "one daily digest" at 07:00; the page
    shows the choice and GET /v1/me reads it."""
    browser_sign_in(client, app, "ann@example.org")
    page = client.get("/me/notifications").get_data(as_text=True)
    assert "Tell me of my turns" in page
    saved = client.post(
        "/me/notifications",
        data={"csrf_token": csrf(page), "notify": "digest", "hour": "7"},
        follow_redirects=True,
    )
    text = saved.get_data(as_text=True)
    assert saved.status_code == 200 and "Saved: your turns in one daily digest" in text
    assert '<option selected value="digest">' in text or 'value="digest" selected' in text
    token = sign_in(client, app, "ann@example.org")
    me = client.get("/v1/me", headers=auth(token)).json
    assert (me["notify"], me["digest_hour"], me["digest"]) == ("digest", 7, True)


def test_the_notifications_page_needs_a_signed_in_browser(client) -> None:
    """A browser that is not signed in is sent to the sign-in page."""
    answer = client.get("/me/notifications")
    assert answer.status_code == 303 and "/sign-in" in answer.headers["Location"]
