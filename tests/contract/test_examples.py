"""Every operation of the contract shows an example request (when it takes a JSON body)
and an example answer (its success answer, when that has a JSON body): recorded from
real exchanges by ``python -m tests.contract.examples`` (issue 27, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.contract.examples import choose, openapi_path

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
METHODS = ("get", "post", "put", "patch", "delete")
STREAMS = ("application/x-ndjson",)
"""Answers that are streams (one JSON line per event, for as long as the client stays):
their lines are described in the operation's text, not by one example."""
OPERATIONS = [
    (method, path, operation)
    for path, item in SPEC["paths"].items()
    for method, operation in item.items()
    if method in METHODS
]


def success(operation: dict) -> tuple[str, dict] | None:
    """Return the operation's first 2xx answer ``(status, answer)``, if any."""
    for status in sorted(operation["responses"]):
        if str(status).startswith("2"):
            return str(status), operation["responses"][status]
    return None


@pytest.mark.parametrize(
    ("method", "path", "operation"), OPERATIONS, ids=[f"{m.upper()} {p}" for m, p, _ in OPERATIONS]
)
def test_every_operation_has_an_example(method, path, operation):
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None:
        assert "example" in body, f"{method.upper()} {path}: no request example"
    status, answer = success(operation)
    for mime, content in answer.get("content", {}).items():
        if "json" in mime and mime not in STREAMS:
            assert "example" in content, f"{method.upper()} {path}: no {status} example"


def test_the_examples_are_of_the_answers_they_illustrate():
    """An example answer is a recorded 2xx answer whose top-level keys the schema
    names (a stale example after a schema change fails here)."""
    schemas = SPEC["components"]["schemas"]
    checked = 0
    for method, path, operation in OPERATIONS:
        status, answer = success(operation)
        content = answer.get("content", {}).get("application/json", {})
        ref = content.get("schema", {}).get("$ref")
        if "example" not in content or not ref or not isinstance(content["example"], dict):
            continue
        schema = schemas[ref.rsplit("/", 1)[1]]
        if "properties" in schema and not schema.get("additionalProperties"):
            assert set(content["example"]) <= set(schema["properties"]), (method, path)
            checked += 1
    assert checked >= 20


def test_rules_become_openapi_paths():
    assert openapi_path("/v1/games/<game_id>/moves") == "/v1/games/{game_id}/moves"
    assert openapi_path("/v1/t/<t_id>/rounds/<int:number>") == "/v1/t/{t_id}/rounds/{number}"


def test_the_example_kept_is_the_fullest_that_reads_on_a_screen():
    small = {"request": None, "status": 200, "response": {"a": 1}}
    full = {"request": None, "status": 200, "response": {"a": "x" * 500}}
    huge = {"request": None, "status": 200, "response": {"a": "x" * 5000}}
    assert choose([small, full, huge]) is full
    assert choose([huge, {**huge, "response": {"a": "x" * 9000}}]) == huge


def test_a_long_example_has_its_lists_cut():
    long = {"request": None, "status": 200, "response": {"a": [{"b": list(range(600))}] * 9}}
    kept = choose([long])
    assert kept["response"] == {"a": [{"b": [0, 1, 2]}] * 3}
