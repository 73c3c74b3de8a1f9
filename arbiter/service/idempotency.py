"""``Idempotency-Key``: a retried POST gets its first answer again, and writes nothing."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable

from arbiter.errors import Unprocessable
from arbiter.extensions import db
from arbiter.models import IdempotentResponse
from arbiter.store import StaleVersion

MAX_KEY = 200


def request_hash(body: Any) -> str:
    """Return the SHA-256 of a request body in canonical JSON."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def stored(scope: str, key: str, digest: str) -> tuple[int, dict] | None:
    """Return the stored ``(status, body)`` for ``(scope, key)``, if any.

    :raises Unprocessable: ``idempotency-key-reused`` when the key was used with
        another body, or ``bad-idempotency-key`` when it is too long.
    """
    if not key or len(key) > MAX_KEY:
        raise Unprocessable(f"An Idempotency-Key must be 1 to {MAX_KEY} characters.",
                            code="bad-idempotency-key")
    row = db.session.get(IdempotentResponse, (scope, key))
    if row is None:
        return None
    if row.request_hash != digest:
        raise Unprocessable("This Idempotency-Key was already used for a different request.",
                            code="idempotency-key-reused")
    return row.status, row.body


def once(scope: str, key: str | None, body: Any,
         run: Callable[[Callable[[int, dict], IdempotentResponse]], tuple[int, dict]]
         ) -> tuple[int, dict]:
    """Run ``run`` at most once per ``(scope, key)``; return its ``(status, body)``.

    ``run`` receives a function that builds the row to store with its answer; it
    must write that row in the same transaction as its events. Without a key ``run``
    just runs. A concurrent twin that loses the race gets the winner's answer.
    """
    if key is None:
        return run(lambda status, answer: None)
    digest = request_hash(body)
    first = stored(scope, key, digest)
    if first:
        return first

    def row(status: int, answer: dict) -> IdempotentResponse:
        return IdempotentResponse(scope=scope, key=key, request_hash=digest, status=status,
                                  body=answer)

    try:
        return run(row)
    except StaleVersion:
        first = stored(scope, key, digest)
        if first:
            return first
        raise
