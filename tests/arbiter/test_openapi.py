"""``openapi.yaml`` is generated from the code, committed, current and valid OpenAPI 3."""

from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_the_committed_openapi_yaml_is_what_the_code_generates(app):
    """Given the app, its generated spec equals the committed file (run `make openapi`)."""
    generated = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    committed = yaml.safe_load(SPEC.read_text())
    assert committed == yaml.safe_load(yaml.safe_dump(generated)), \
        "openapi.yaml is stale: run `make openapi` and commit it"


def test_the_spec_is_valid_openapi_and_lists_every_route():
    spec = yaml.safe_load(SPEC.read_text())
    validate(spec)
    paths = set(spec["paths"])
    assert {"/v1/engines", "/v1/engines/{engine_id}", "/v1/games", "/v1/games/{game_id}",
            "/v1/games/{game_id}/view", "/v1/games/{game_id}/legal-moves",
            "/v1/games/{game_id}/moves", "/v1/games/{game_id}/events",
            "/v1/games/{game_id}/record", "/v1/games/{game_id}/resign"} <= paths
