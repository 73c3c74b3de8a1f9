"""``openapi.yaml`` is generated from the code, committed, current and valid OpenAPI 3."""

from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

from tests.helpers import load_yaml

SPEC = Path(__file__).resolve().parents[3] / "openapi.yaml"


def test_the_committed_openapi_yaml_is_what_the_code_generates(app):
    """Given the app, its generated spec equals the committed file (run `make openapi`)."""
    generated = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    committed = load_yaml(SPEC.read_text())
    assert committed == load_yaml(yaml.safe_dump(generated)), (
        "openapi.yaml is stale: run `make openapi` and commit it"
    )


def test_the_spec_is_valid_openapi_and_lists_every_route():
    spec = load_yaml(SPEC.read_text())
    validate(spec)
    paths = set(spec["paths"])
    assert {
        "/v1/engines",
        "/v1/engines/{engine_id}",
        "/v1/games",
        "/v1/games/{game_id}",
        "/v1/games/{game_id}/view",
        "/v1/games/{game_id}/legal-moves",
        "/v1/games/{game_id}/moves",
        "/v1/games/{game_id}/events",
        "/v1/games/{game_id}/record",
        "/v1/games/{game_id}/resign",
    } <= paths


def test_every_rate_limited_operation_declares_429_with_retry_after(app):
    """Given the app's routes, every operation the request guard counts against a rate
    limit (a view with a guard policy: create, read or write) declares 429 problem+json
    with ``Retry-After`` in the committed contract, and so does the sign-in link route
    (limited per address); the others declare no 429."""
    import re

    spec = load_yaml(SPEC.read_text())
    limited = set()
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        cls = getattr(view, "view_class", None)
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            handler = getattr(cls, method.lower(), None) if cls else view
            if getattr(handler, "guard_policy", None) is not None and path in spec["paths"]:
                limited.add((path, method.lower()))
    limited.add(("/v1/auth/links", "post"))
    assert ("/v1/games/{game_id}/moves", "post") in limited and len(limited) > 20
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            declared = operation["responses"].get("429")
            if (path, method) in limited:
                assert declared, f"{method.upper()} {path} can answer 429 but does not say so"
                assert "application/problem+json" in declared["content"]
                assert "Retry-After" in declared["headers"]
            else:
                assert declared is None, f"{method.upper()} {path} is not limited"
