"""Refusals say what was wrong in the words of what was sent: a body that is no JSON
object, a bad filter on an HTML page, a sign-in link cut short."""

from __future__ import annotations

import json

import pytest

from tests.arbiter.test_games_api import assert_problem
from tests.helpers import auth, sign_in


@pytest.mark.parametrize("body", ["[]", "null", "3", '"text"'])
def test_a_body_that_is_no_json_object_is_told_so(client, body):
    """POST /v1/games with a JSON body that is no object is 422 invalid-request saying
    "The body must be a JSON object." (not marshmallow's "_schema: Invalid input type.")."""
    answer = client.post("/v1/games", data=body, content_type="application/json")
    assert_problem(answer, 422, "invalid-request")
    assert answer.json["detail"] == "The body must be a JSON object."
    assert "_schema" not in answer.json["detail"]


def test_a_patch_body_that_is_no_object_and_a_nested_one_are_told_so(client, app):
    """PATCH /v1/me with [] says the body must be an object; a player that is no object
    in POST /v1/games is named by its place."""
    token = sign_in(client, app, "ann@example.org")
    answer = client.patch("/v1/me", headers=auth(token), data="[]",
                          content_type="application/json")
    assert_problem(answer, 422, "invalid-request")
    assert answer.json["detail"] == "The body must be a JSON object."
    nested = client.post("/v1/games", data=json.dumps(
        {"engine": "space-worm", "players": [[], {"name": "Bob"}]}),
        content_type="application/json")
    assert_problem(nested, 422, "invalid-request")
    assert "players.0: Must be a JSON object" in nested.json["detail"]
    assert "_schema" not in nested.json["detail"]


@pytest.mark.parametrize("query, words, status", [
    ("status=bogus", "no game status &#39;bogus&#39;", 400),
    ("engine=chess", "no game &#39;chess&#39;", 400),
    ("engine=%00", "NUL character", 422),
])
def test_the_game_list_page_answers_bad_filters_with_a_page_that_says_why(client, query,
                                                                          words, status):
    """The HTML list of games answers a bad ``status`` or ``engine`` with an HTML page
    (4xx) that names what was wrong, as it does for a NUL character."""
    answer = client.get(f"/games?{query}")
    assert answer.status_code == status
    assert answer.mimetype == "text/html"
    assert words in answer.get_data(as_text=True)


@pytest.mark.parametrize("query, missing", [("email=&token=abc", "address"),
                                            ("email=ann%40example.org", "token"),
                                            ("", "address and token")])
def test_a_sign_in_link_cut_short_gets_a_page_that_says_it_is_incomplete(client, query,
                                                                         missing):
    """/sign-in/confirm without the address or the token is a 400 HTML page saying the
    link is incomplete (never "Sign in as ?") with a way to ask for a new one."""
    answer = client.get(f"/sign-in/confirm?{query}")
    text = answer.get_data(as_text=True)
    assert answer.status_code == 400 and answer.mimetype == "text/html"
    assert f"This sign-in link is incomplete (its {missing} is missing)" in text
    assert "Sign in as" not in text and 'href="/sign-in"' in text
