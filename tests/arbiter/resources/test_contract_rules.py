"""The contract says what the server does: the findings of issue 16 (schemathesis on
SQLite and PostgreSQL), each a test on each database."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.arbiter.games.test_games_api import assert_problem
from tests.helpers import auth, event_count, load_yaml, new_game, sampled, until_decision

SPEC = load_yaml((Path(__file__).resolve().parents[3] / "openapi.yaml").read_text())


@pytest.fixture
def any_client(any_app):
    """A test client of an app on each database."""
    return any_app.test_client()


def test_an_integer_of_more_than_4300_digits_is_malformed_not_a_crash(any_client):
    body = '{"engine": "space-worm", "players": [{"name": "A"}], "options": {"x": %s}}'
    before = any_client.get("/v1/games").headers["X-Pagination"]
    answer = any_client.post("/v1/games", data=body % ("9" * 5000), content_type="application/json")
    assert_problem(answer, 400, "malformed-json")
    assert any_client.get("/v1/games").headers["X-Pagination"] == before


@pytest.mark.parametrize(
    "path",
    sampled(
        [
            "/v1/games/%00",
            "/v1/games/a%00b/events",
            "/v1/games/%00/legal-moves",
            "/v1/campaigns/%00",
            "/v1/engines/%00",
        ],
    ),
)
def test_a_nul_in_a_path_id_names_nothing(any_client, path):
    assert_problem(any_client.get(path), 404, "not-found")


@pytest.mark.parametrize("query", ["player=a%00", "engine=%00", "status=active&player=%00x"])
def test_a_nul_in_a_query_is_refused(any_client, query):
    answer = any_client.get(f"/v1/games?{query}")
    assert_problem(answer, 422, "invalid-request")
    assert answer.json["errors"]["query"]


def test_405_names_the_allowed_methods(client):
    answer = client.delete("/v1/games")
    assert_problem(answer, 405, "method-not-allowed")
    assert {"GET", "POST"} <= {m.strip() for m in answer.headers["Allow"].split(",")}


def test_413_closes_the_connection(client):
    answer = client.post("/v1/games", data="x" * 70_000, content_type="application/json")
    assert_problem(answer, 413, "body-too-large")
    assert answer.headers["Connection"] == "close"


def test_whole_number_floats_are_integers(app, client):
    game_id, tokens = new_game(client, players=1)
    s = until_decision(client, app, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers=auth(tokens[0]),
        json={"move": legal["moves"][0], "expected_version": float(s["version"])},
    )
    assert answer.status_code == 201, answer.json
    for bad in (True, "7", 7.5):
        answer = client.post(
            f"/v1/games/{game_id}/moves",
            headers=auth(tokens[0]),
            json={"move": legal["moves"][0], "expected_version": bad},
        )
        assert_problem(answer, 422, "invalid-request")


def test_a_null_move_is_refused_and_writes_nothing(app, client):
    game_id, tokens = new_game(client, players=1)
    s = until_decision(client, app, game_id)
    answer = client.post(f"/v1/games/{game_id}/moves", headers=auth(tokens[0]), json={"move": None})
    assert_problem(answer, 422, "invalid-request")
    assert event_count(app, game_id) == s["version"]


@pytest.mark.parametrize(
    "value, accepted",
    [
        ('"{v}"', True),
        ('W/"{v}"', True),
        ("{v}", True),
        ("*", True),
        ('"x"', False),
        ('"{v}', False),
        ('"12345678901"', False),
    ],
)
def test_if_match_follows_its_pattern(app, client, value, accepted):
    game_id, tokens = new_game(client, players=1)
    s = until_decision(client, app, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-moves", headers=auth(tokens[0])).json
    answer = client.post(
        f"/v1/games/{game_id}/moves",
        headers={**auth(tokens[0]), "If-Match": value.format(v=s["version"])},
        json={"move": legal["moves"][0]},
    )
    if accepted:
        assert answer.status_code == 201, answer.json
    else:
        assert_problem(answer, 400, "bad-if-match")


@pytest.mark.parametrize("key", ["short", "x" * 201, "sixteen chars ok", "é" * 16])
def test_idempotency_keys_are_16_to_200_visible_ascii_characters(client, key):
    answer = client.post(
        "/v1/games",
        headers={"Idempotency-Key": key},
        json={"engine": "space-worm", "players": [{"name": "A"}]},
    )
    assert_problem(answer, 422, "bad-idempotency-key")


def test_a_missing_token_is_401_before_a_bad_if_match(app, client):
    game_id, _ = new_game(client, players=1)
    answer = client.post(
        f"/v1/games/{game_id}/moves", headers={"If-Match": "nonsense"}, json={"move": {}}
    )
    assert_problem(answer, 401, "missing-token")


def operations():
    """Yield ``(label, operation, path-level parameters)`` of every operation."""
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                yield f"{method.upper()} {path}", operation, item.get("parameters", [])


def test_every_error_of_every_operation_is_a_problem():
    for label, operation, _ in operations():
        errors = {c: r for c, r in operation["responses"].items() if int(c) >= 400}
        assert "default" not in operation["responses"], label
        assert {"400", "414", "431", "503"} <= set(errors), label
        for code, response in errors.items():
            assert list(response["content"]) == ["application/problem+json"], (label, code)
            assert response["content"]["application/problem+json"]["schema"] == {
                "$ref": "#/components/schemas/Problem"
            }, (label, code)


def test_operations_declare_what_their_shape_can_answer():
    for label, operation, path_parameters in operations():
        codes = set(operation["responses"])
        if any(p["in"] == "path" for p in path_parameters):
            assert "404" in codes, label
        if "requestBody" in operation:
            assert {"400", "413", "415", "422"} <= codes, label
        if any(operation.get("security", [])):
            assert "401" in codes, label


def test_the_problem_schema_allows_what_we_send():
    problem = SPEC["components"]["schemas"]["Problem"]
    assert problem["additionalProperties"] is True and "errors" in problem["properties"]
    assert set(problem["required"]) == {"type", "title", "status", "detail", "code"}
    assert "Error" not in SPEC["components"]["schemas"]


def test_the_campaign_game_route_wants_the_organiser_token():
    operation = SPEC["paths"]["/v1/campaigns/{campaign_id}/games"]["post"]
    assert operation["security"] == [{"organiserToken": []}]


def test_x_pagination_is_declared_as_the_json_text_it_is(client):
    new_game(client)
    header = SPEC["components"]["headers"]["PAGINATION"]["schema"]
    assert header == {"type": "string", "contentMediaType": "application/json"}
    assert isinstance(client.get("/v1/games").headers["X-Pagination"], str)
