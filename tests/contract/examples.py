"""Record the contract's examples (``arbiter/resources/examples.json``) from real
exchanges: ``python -m tests.contract.examples [test paths]`` runs the API tests
(default ``tests/arbiter``, SQLite) with :func:`install` on every test app, then keeps one
exchange per operation; the examples of operations those tests did not reach are kept
from the file as it was.

What is kept: a successful (2xx) exchange, its JSON request body and its JSON answer;
among them the one whose answer is the longest under ``LONGEST`` characters (a full
example that still reads on a screen) and whose request names no moment (it would
expire) and no row by id (it would not be found elsewhere), else the shortest with
its lists cut to their first items. Run it again when an operation is added or its
schemas change; ``tests/contract/test_examples.py`` fails while an
operation has none.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from flask import Flask, Response, request

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "arbiter" / "resources" / "examples.json"
FOLDER = "ARBITER_RECORD_EXAMPLES"
"""The environment variable naming the folder the recorder writes to (unset: off)."""
LONGEST = 1500
RULE_ARGUMENT = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def openapi_path(rule: str) -> str:
    """Return a Flask rule (``/v1/games/<game_id>``) as an OpenAPI path
    (``/v1/games/{game_id}``)."""
    return RULE_ARGUMENT.sub(r"{\1}", rule)


def install(app: Flask) -> None:
    """Record ``app``'s successful API exchanges (not the pages') when
    ``ARBITER_RECORD_EXAMPLES`` names a folder: one JSON line per exchange in
    ``<folder>/<pid>.jsonl``."""
    folder = os.environ.get(FOLDER)
    if not folder:
        return

    @app.after_request
    def record(response: Response) -> Response:
        rule = request.url_rule
        if rule is None or request.blueprint == "web" or rule.rule.startswith("/static"):
            return response
        if not 200 <= response.status_code < 300:
            return response
        if response.is_streamed or not response.is_json:
            answer = None
        else:
            answer = response.get_json(silent=True)
        line = {
            "operation": f"{request.method} {openapi_path(rule.rule)}",
            "request": request.get_json(silent=True) if request.is_json else None,
            "status": response.status_code,
            "response": answer,
        }
        with open(Path(folder) / f"{os.getpid()}.jsonl", "a") as out:
            out.write(json.dumps(line) + "\n")
        return response


LIST_ITEMS = 3
"""A list of an example too long to read is cut to its first items."""


def shorten(value):
    """Return ``value`` with every list cut to its first ``LIST_ITEMS`` items."""
    if isinstance(value, list):
        return [shorten(v) for v in value[:LIST_ITEMS]]
    if isinstance(value, dict):
        return {k: shorten(v) for k, v in value.items()}
    return value


MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T")
IDENTIFIER = re.compile(r"^[0-9a-f]{16}$")
"""An id of the recording's own database (an account, a tournament): a request naming one
fails on any other server."""


def dated(sample: dict) -> bool:
    """Tell whether the request names a moment (``start_at``...): such an example stops
    working once the moment has passed."""
    return any(isinstance(v, str) and MOMENT.match(v) for v in walk(sample["request"]))


def names_ids(sample: dict) -> bool:
    """Tell whether the request names a row by id (``{"account": "abdf06924ea1cc83"}``):
    such an example works only on the server it was recorded on."""
    return any(isinstance(v, str) and IDENTIFIER.match(v) for v in walk(sample["request"]))


def walk(value):
    """Yield every value inside ``value`` (dicts and lists opened)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)
    else:
        yield value


def choose(samples: list[dict]) -> dict:
    """Return the sample to keep for one operation (see the module's docstring)."""

    def size(sample: dict) -> int:
        return len(json.dumps(sample["response"])) if sample["response"] is not None else 0

    fitting = [s for s in samples if size(s) <= LONGEST]
    if fitting:
        return max(
            fitting,
            key=lambda s: (s["request"] is not None, not dated(s), not names_ids(s), size(s)),
        )
    smallest = min(samples, key=size)
    return {**smallest, "response": shorten(smallest["response"])}


def main(paths: list[str]) -> int:
    """Run the API tests of ``paths`` recording, write ``examples.json``; return
    pytest's code."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, FOLDER: folder}
        for name in ("ARBITER_TEST_POSTGRES_URL", "ARBITER_TEST_REDIS_URL"):
            env.pop(name, None)
        code = subprocess.call(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-n",
                "2",
                "-p",
                "no:cacheprovider",
                "-m",
                "not stack and not slow",
                *(paths or ["tests/arbiter"]),
            ],
            env=env,
            cwd=ROOT,
        )
        samples: dict[str, list[dict]] = {}
        for path in Path(folder).glob("*.jsonl"):
            for line in path.read_text().splitlines():
                sample = json.loads(line)
                samples.setdefault(sample.pop("operation"), []).append(sample)
    kept = json.loads(TARGET.read_text()) if TARGET.exists() else {}
    kept.update({operation: choose(found) for operation, found in samples.items()})
    kept = dict(sorted(kept.items()))
    TARGET.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
    print(f"{len(kept)} operations with an example in {TARGET}")
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
