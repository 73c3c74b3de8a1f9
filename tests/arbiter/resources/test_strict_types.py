"""Booleans and integers in request bodies are JSON's own: ``"yes"``, ``"True"``, ``0``
or ``6.5`` are refused 422 invalid-request, never read as ``true`` or ``6`` (a whole-number
``6.0`` is a JSON Schema integer and is taken as ``6``:
tests/arbiter/resources/test_contract_rules.py)."""

from __future__ import annotations

import pytest

from tests.arbiter.games.test_games_api import assert_problem
from tests.arbiter.hooks.test_webhooks import hook_app, register
from tests.helpers import auth, new_game, sampled, sign_in, summary, until_decision


@pytest.mark.parametrize("value", sampled(["yes", "True", 0, 1, None]))
def test_webhook_enabled_must_be_a_json_boolean(sqlite_url, value):
    """Given a hook, PATCH {"enabled": <not a boolean>} is 422 invalid-request naming
    the field, and the hook is unchanged."""
    app = hook_app(sqlite_url)
    client = app.test_client()
    ann = sign_in(client, app, "ann@example.org")
    hook = register(client, ann, "http://127.0.0.1:9/hook")
    path = f"/v1/me/webhooks/{hook['id']}"
    answer = client.patch(path, headers=auth(ann), json={"enabled": value})
    assert_problem(answer, 422, "invalid-request")
    assert "enabled" in answer.json["errors"]["json"]
    [after] = client.get("/v1/me/webhooks", headers=auth(ann)).json
    assert after["disabled_at"] is None and after["disabled_reason"] is None


@pytest.mark.parametrize("value", sampled(["True", "false", 0, 1]))
def test_digest_must_be_a_json_boolean(client, app, value):
    """PATCH /v1/me {"digest": "True"} or {"digest": 0} is 422 invalid-request and the
    setting stays as it was; true and false are taken."""
    token = sign_in(client, app, "ann@example.org")
    before = client.get("/v1/me", headers=auth(token)).json["digest"]
    answer = client.patch("/v1/me", headers=auth(token), json={"digest": value})
    assert_problem(answer, 422, "invalid-request")
    assert "digest" in answer.json["errors"]["json"]
    assert client.get("/v1/me", headers=auth(token)).json["digest"] == before
    on = client.patch("/v1/me", headers=auth(token), json={"digest": not before})
    assert on.status_code == 200 and on.json["digest"] is (not before)


@pytest.mark.parametrize("value", ["yes", "true", 1])
def test_rated_must_be_a_json_boolean(client, value):
    """POST /v1/games with "rated": "yes" is 422 invalid-request (not unrated-seat:
    the field itself is wrong), and no game is made."""
    body = {"engine": "space-worm", "rated": value, "players": [{"name": "Ann"}, {"name": "Bob"}]}
    answer = client.post("/v1/games", json=body)
    assert_problem(answer, 422, "invalid-request")
    assert "rated" in answer.json["errors"]["json"]


@pytest.mark.parametrize("value", ["6", True, 6.5])
def test_expected_version_must_be_a_json_integer(client, app, value):
    """A move with "expected_version" "6", true or 6.5 is 422 invalid-request and
    records nothing; the same move with the integer is taken."""
    game_id, tokens = new_game(client)
    s = until_decision(client, app, game_id)
    seat = s["to_act"][0]
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json
    move = legal["moves"][0]
    wrong = {"6": str(legal["version"]), True: True, 6.5: legal["version"] + 0.5}[value]
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[seat]),
        json={"move": move, "expected_version": wrong},
    )
    assert_problem(answer, 422, "invalid-request")
    assert "expected_version" in answer.json["errors"]["json"]
    assert summary(client, game_id)["version"] == legal["version"]
    right = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[seat]),
        json={"move": move, "expected_version": legal["version"]},
    )
    assert right.status_code == 201, right.json


def test_the_contract_says_what_expected_version_takes(client):
    """The published contract says which spellings of the integer are taken."""
    spec = client.get("/openapi.json").json
    field = spec["components"]["schemas"]["Move"]["properties"]["expected_version"]
    assert "integer" in field["type"] and 'not "6", true or 6.5' in field["description"]


@pytest.mark.parametrize(
    "options", [{"dilly_dally": 1}, {"dilly_dally": "yes"}, {"dilly_dally": 0}]
)
def test_an_engine_flag_must_be_a_json_boolean(client, options):
    """Dark Horse's dilly_dally (rules/dark-horse.md, "Dilly Dally Variant") is true or
    false: 1 (which Python's ``1 in {True}`` would take) is refused 422 bad-options, and
    no game is made."""
    before = client.get("/v1/games?engine=dark-horse").headers["X-Pagination"]
    answer = client.post(
        "/v1/games",
        json={
            "engine": "dark-horse",
            "options": options,
            "players": [{"name": "A"}, {"name": "B"}],
        },
    )
    assert_problem(answer, 422, "bad-options")
    assert "dilly_dally" in answer.json["detail"]
    assert client.get("/v1/games?engine=dark-horse").headers["X-Pagination"] == before


def test_whole_number_floats_are_integers_in_options_and_clocks(client):
    """An integer is a JSON Schema integer everywhere, as expected_version is: 3600.0 in
    a clock and 1.0 in an engine option are 3600 and 1; 1.5 stays refused."""
    made = client.post(
        "/v1/games",
        json={
            "engine": "space-worm",
            "options": {"hungriest_seat": 1.0},
            "clock": {"type": "per-move", "seconds": 3600.0, "reminders": [600.0]},
            "players": [{"name": "A"}, {"name": "B"}],
        },
    )
    assert made.status_code == 201, made.json
    game = client.get(f"/v1/games/{made.json['id']}").json
    assert game["options"]["hungriest_seat"] == 1, game
    assert game["clock"]["seconds"] == 3600 and game["clock"]["reminders"] == [600], game
    for body in (
        {"options": {"hungriest_seat": 1.5}},
        {"clock": {"type": "per-move", "seconds": 60.5}},
    ):
        answer = client.post(
            "/v1/games",
            json={"engine": "space-worm", **body, "players": [{"name": "A"}, {"name": "B"}]},
        )
        assert answer.status_code == 422, answer.json
