"""Refusals say what was wrong in the words of what was sent: a body that is no JSON
object, a bad filter on an HTML page, a sign-in link cut short."""

from __future__ import annotations

import json

import pytest

from tests.arbiter.games.test_games_api import assert_problem
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
    answer = client.patch("/v1/me", headers=auth(token), data="[]", content_type="application/json")
    assert_problem(answer, 422, "invalid-request")
    assert answer.json["detail"] == "The body must be a JSON object."
    nested = client.post(
        "/v1/games",
        data=json.dumps({"engine": "space-worm", "players": [[], {"name": "Bob"}]}),
        content_type="application/json",
    )
    assert_problem(nested, 422, "invalid-request")
    assert "players.0: Must be a JSON object" in nested.json["detail"]
    assert "_schema" not in nested.json["detail"]


@pytest.mark.parametrize(
    "query, words, status",
    [
        ("status=bogus", "no game status &#39;bogus&#39;", 400),
        ("engine=chess", "no game &#39;chess&#39;", 400),
        ("engine=%00", "NUL character", 422),
    ],
)
def test_the_game_list_page_answers_bad_filters_with_a_page_that_says_why(
    client, query, words, status
):
    """The HTML list of games answers a bad ``status`` or ``engine`` with an HTML page
    (4xx) that names what was wrong, as it does for a NUL character."""
    answer = client.get(f"/games?{query}")
    assert answer.status_code == status
    assert answer.mimetype == "text/html"
    assert words in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    "query, missing",
    [
        ("email=&token=abc", "address"),
        ("email=ann%40example.org", "token"),
        ("", "address and token"),
    ],
)
def test_a_sign_in_link_cut_short_gets_a_page_that_says_it_is_incomplete(client, query, missing):
    """/sign-in/confirm without the address or the token is a 400 HTML page saying the
    link is incomplete (never "Sign in as ?") with a way to ask for a new one."""
    answer = client.get(f"/sign-in/confirm?{query}")
    text = answer.get_data(as_text=True)
    assert answer.status_code == 400 and answer.mimetype == "text/html"
    assert f"This sign-in link is incomplete (its {missing} is missing)" in text
    assert "Sign in as" not in text and 'href="/sign-in"' in text


def test_an_invitation_names_the_game_by_its_title(client, app):
    """The invitation mail and its page say "Space Worm", the engine's title, not its
    id ``space-worm``, and never the game's id (issue 23: no codes in words)."""
    from tests.arbiter.games.test_invitations import _create, _link, _mails
    from tests.helpers import agreed

    agreed(app, "ann@example.org")
    assert _create(client, "ann@example.org", "bob@example.org").status_code == 201
    [mail] = _mails(app, "bob@example.org")
    assert "invites you to play Space Worm. The players:" in mail.body
    assert mail.game_id not in mail.subject + mail.body.split("http")[0]
    invitation, nonce = _link(app, "bob@example.org")
    page = client.get(f"/v1/invitations/{invitation}?token={nonce}").get_data(as_text=True)
    assert "invites you to play Space Worm. The players:" in page


def test_a_bad_game_of_a_batch_is_counted_from_one_in_words(client):
    """The second game of a batch refused: ``index`` 1 in the body, "Game 2 of the
    batch" in the sentence."""
    answer = client.post(
        "/v1/bulk-games",
        json={
            "games": [
                {"engine": "space-worm", "players": [{"name": "A"}]},
                {"engine": "no-such-engine", "players": [{"name": "B"}]},
            ]
        },
    )
    assert_problem(answer, 422, "bad-game")
    assert answer.json["index"] == 1
    assert answer.json["detail"].startswith("Game 2 of the batch (index 1) cannot be created")


def test_a_mail_reply_names_players_where_the_engine_says_seat_numbers(client, app):
    """An engine's refusal (it knows seat numbers only), as a mail reply gives it,
    names the other players and says "your" for the reader: Dark Horse's "It is seat
    0's turn ..." reaches seat 1 as "It is P0's turn ..."."""
    from arbiter.accounts.identity import seat_grant
    from arbiter.games.games import load
    from arbiter.mailin.commands import named
    from engines.base import EngineError
    from tests.helpers import new_game, until_decision

    game_id, _ = new_game(client, "dark-horse", players=3)
    s = until_decision(client, app, game_id)
    actor = s["to_act"][0]
    other = (actor + 1) % 3
    with app.app_context():
        _, engine, state = load(game_id)
        move = engine.legal_moves(state, actor)[0]
        with pytest.raises(EngineError) as refused:
            engine.play(state, other, move)
        said = refused.value.detail
        assert f"seat {actor}" in said.lower()
        told = named(seat_grant(game_id, other), said)
        assert f"P{actor}" in told and f"seat {actor}" not in told.lower(), told
        assert (
            named(seat_grant(game_id, 0), "It is not seat 0's turn to move.")
            == "It is not your turn to move."
        )
