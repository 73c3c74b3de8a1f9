"""The client follows the contract: it sends an Idempotency-Key on exactly the POSTs
whose contract (``openapi.yaml``) declares one."""

from __future__ import annotations

import re
from pathlib import Path

from arbiter_client import IDEMPOTENT_POSTS
from arbiter_client.session import takes_idempotency_key

from tests.helpers import load_yaml

CONTRACT = Path(__file__).resolve().parents[2] / "openapi.yaml"


def contract_posts() -> dict[str, bool]:
    """Return every POST route of the contract (``{}`` for a path parameter) and
    whether it declares an ``Idempotency-Key`` header."""
    paths = load_yaml(CONTRACT.read_text())["paths"]
    out = {}
    for path, operations in paths.items():
        if "post" in operations:
            names = {p.get("name") for p in operations["post"].get("parameters", [])}
            out[re.sub(r"\{[^}]+\}", "{}", path)] = "Idempotency-Key" in names
    return out


def test_the_client_knows_every_post_that_takes_an_idempotency_key():
    declared = {path for path, takes in contract_posts().items() if takes}
    assert set(IDEMPOTENT_POSTS) == declared


def test_a_key_goes_only_where_the_contract_takes_one():
    for template, takes in contract_posts().items():
        path = template.replace("{}", "abc123")
        assert takes_idempotency_key("POST", path) is takes, template
        assert not takes_idempotency_key("GET", path)
