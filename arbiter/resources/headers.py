"""Reading the HTTP headers the API relies on: bearer token, If-Match, Idempotency-Key."""

from __future__ import annotations

from flask import request

from arbiter.errors import ArbiterError
from arbiter.service import access


def token() -> str | None:
    """Return the bearer seat token of the request, if any.

    :raises arbiter.errors.Unauthorized: a malformed Authorization header.
    """
    return access.bearer(request.headers.get("Authorization"))


def idempotency_key() -> str | None:
    """Return the ``Idempotency-Key`` header, if any."""
    return request.headers.get("Idempotency-Key")


def if_match_version() -> int | None:
    """Return the game version named by ``If-Match: "<version>"``, if any.

    :raises ArbiterError: 400 ``bad-if-match`` for a value that is not a game ETag.
    """
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    value = raw.strip().removeprefix("W/").strip('"')
    if not value.isdigit():
        raise ArbiterError(f"If-Match must be a game ETag such as '\"7\"', not {raw!r}.",
                           code="bad-if-match")
    return int(value)


def etag(version: int) -> dict:
    """Return the ETag header for a game version."""
    return {"ETag": f'"{version}"'}
