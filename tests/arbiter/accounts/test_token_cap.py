"""An account holds at most ``TOKENS_PER_ACCOUNT`` live personal tokens, and its token
list is paginated as the other lists are (issue 22, item 10: 997 of 1,000 tokens were
made and listed in one 144 KB answer)."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
import time_machine

from arbiter import settings as arbiter_settings
from arbiter.models.timestamps import utcnow
from tests.arbiter.web.test_web_accounts import browser_sign_in, csrf
from tests.helpers import auth, sign_in


@pytest.fixture
def any_client(any_app):
    """A test client of the app on each database."""
    return any_app.test_client()


def make(client, token: str, name: str, **extra):
    return client.post(
        "/v1/me/tokens", headers=auth(token), json={"name": name, "scopes": ["games:read"], **extra}
    )


def test_tokens_beyond_the_cap_are_refused_until_one_is_revoked(any_client, any_app):
    arbiter_settings.override(any_app, TOKENS_PER_ACCOUNT=3)
    master = sign_in(any_client, any_app, f"ann-{uuid.uuid4().hex[:8]}@example.org")
    first = make(any_client, master, "one")
    assert first.status_code == 201
    assert make(any_client, master, "two").status_code == 201  # with the sign-in's: 3
    over = make(any_client, master, "three")
    assert over.status_code == 409
    assert over.json["code"] == "too-many-tokens" and over.json["limit"] == 3
    assert over.headers["Content-Type"] == "application/problem+json"
    names = [t["name"] for t in any_client.get("/v1/me/tokens", headers=auth(master)).json]
    assert names == ["sign-in", "one", "two"]
    any_client.delete(f"/v1/me/tokens/{first.json['id']}", headers=auth(master))
    assert make(any_client, master, "three").status_code == 201


def test_an_expired_token_does_not_count(client, app):
    arbiter_settings.override(app, TOKENS_PER_ACCOUNT=2)
    master = sign_in(client, app, "ann@example.org")
    assert make(client, master, "short", expires_in=60).status_code == 201
    assert make(client, master, "more").status_code == 409
    with time_machine.travel(utcnow() + timedelta(seconds=61), tick=False):
        assert make(client, master, "more").status_code == 201


def test_the_token_list_is_paginated(any_client, any_app):
    master = sign_in(any_client, any_app, f"bob-{uuid.uuid4().hex[:8]}@example.org")
    for n in range(4):
        assert make(any_client, master, f"bot {n}").status_code == 201
    first = any_client.get("/v1/me/tokens?page_size=2", headers=auth(master))
    assert first.status_code == 200
    assert [t["name"] for t in first.json] == ["sign-in", "bot 0"]
    paging = json.loads(first.headers["X-Pagination"])
    assert paging["total"] == 5 and paging["total_pages"] == 3 and paging["next_page"] == 2
    last = any_client.get("/v1/me/tokens?page=3&page_size=2", headers=auth(master))
    assert [t["name"] for t in last.json] == ["bot 3"]
    whole = any_client.get("/v1/me/tokens", headers=auth(master))
    assert len(whole.json) == 5  # 50 a page by default
    too_big = any_client.get("/v1/me/tokens?page_size=101", headers=auth(master))
    assert too_big.status_code == 422


def test_the_tokens_page_says_why_it_makes_no_more(client, app):
    arbiter_settings.override(app, TOKENS_PER_ACCOUNT=1)
    browser_sign_in(client, app, "ann@example.org")
    page = client.get("/me/tokens").get_data(as_text=True)
    refused = client.post(
        "/me/tokens", data={"csrf_token": csrf(page), "name": "bot", "scopes": ["games:read"]}
    )
    assert refused.status_code == 409
    assert "Revoke the ones you no longer use" in refused.get_data(as_text=True)
