"""A personal token makes only tokens whose scopes it holds itself (issue 22, item 5:
a token with only ``account:write`` made a token with every scope)."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.helpers import auth, scoped_token, sign_in


@pytest.fixture
def any_client(any_app):
    """A test client of the app on each database."""
    return any_app.test_client()


def address() -> str:
    """An address of its own (the PostgreSQL schema is shared by the session's tests)."""
    return f"ann-{uuid.uuid4().hex[:8]}@example.org"


def test_a_token_may_not_make_a_token_with_scopes_it_lacks(any_client, any_app):
    master = sign_in(any_client, any_app, address())
    writer = scoped_token(any_client, master, "account:write")
    wider = any_client.post(
        "/v1/me/tokens",
        headers=auth(writer),
        json={"name": "escalated", "scopes": ["account:write", "games:play", "games:create"]},
    )
    assert wider.status_code == 403
    assert wider.json["code"] == "scope-not-held"
    assert wider.headers["Content-Type"] == "application/problem+json"
    assert "games:create" in wider.json["detail"] and "games:play" in wider.json["detail"]
    names = [t["name"] for t in any_client.get("/v1/me/tokens", headers=auth(master)).json]
    assert "escalated" not in names  # nothing was made


def test_a_token_may_make_a_narrower_token_and_an_implied_scope(any_client, any_app):
    master = sign_in(any_client, any_app, address())
    keeper = scoped_token(any_client, master, "account:write", "games:play")
    same = any_client.post(
        "/v1/me/tokens", headers=auth(keeper), json={"name": "same", "scopes": ["account:write"]}
    )
    assert same.status_code == 201
    implied = any_client.post(  # games:play implies games:read
        "/v1/me/tokens", headers=auth(keeper), json={"name": "reader", "scopes": ["games:read"]}
    )
    assert implied.status_code == 201 and implied.json["scopes"] == ["games:read"]


def test_the_signed_in_page_makes_tokens_with_any_scope(client, app):
    """The tokens page acts as the browser's sign-in, whose token holds every scope."""
    browser_sign_in(client, app, "ann@example.org")
    page = client.get("/me/tokens").get_data(as_text=True)
    made = client.post(
        "/me/tokens",
        data={"csrf_token": csrf(page), "name": "bot", "scopes": ["games:create", "account:write"]},
    )
    assert made.status_code == 200
    assert re.search(r'<code class="token">arb_', made.get_data(as_text=True))
