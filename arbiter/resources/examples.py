"""Examples in the contract: an example request and answer for every operation, so that
the API explorer (``/docs/api``) and ``openapi.yaml`` show what goes in and comes out.

The examples are real exchanges, not made up: ``python -m tests.contract.examples``
runs the API tests with a recorder on the test client and keeps one successful exchange
per operation in ``examples.json`` beside this module (what it picks is said there).
:class:`ExamplesPlugin` puts them into the OpenAPI document as it is built.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from apispec import BasePlugin

EXAMPLES = files("arbiter.resources") / "examples.json"
"""``{"<METHOD> <OpenAPI path>": {"request": body or null, "status": int, "response":
body or null}}``."""

JSON_TYPES = ("application/json", "application/x-ndjson")


@cache
def load() -> dict[str, dict]:
    """Return the recorded examples (empty when the file is absent)."""
    try:
        return json.loads(EXAMPLES.read_text())
    except FileNotFoundError:
        return {}


class ExamplesPlugin(BasePlugin):
    """An apispec plugin that sets each operation's request body example and its
    success answer's example from :func:`load`."""

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        """Add the examples of ``path``'s ``operations`` (changed in place)."""
        for method, operation in (operations or {}).items():
            example = load().get(f"{method.upper()} {path}")
            if example is not None:
                add_example(operation, example)


def add_example(operation: dict, example: dict) -> None:
    """Set ``operation``'s request and answer examples from one recorded exchange."""
    body = operation.get("requestBody")
    if isinstance(body, dict) and example.get("request") is not None:
        for mime, content in body.get("content", {}).items():
            if mime == "application/json":
                content.setdefault("example", example["request"])
    responses = operation.get("responses", {})
    answer = responses.get(example["status"], responses.get(str(example["status"])))
    if isinstance(answer, dict) and example.get("response") is not None:
        for mime, content in answer.get("content", {}).items():
            if mime in JSON_TYPES:
                content.setdefault("example", example["response"])
