"""Reading the HTTP headers the API relies on: bearer token, If-Match, If-None-Match,
Idempotency-Key; writing ETag and 304 Not Modified."""

from __future__ import annotations

import re

from flask import Response, request

from arbiter.errors import ArbiterError, Unprocessable
from arbiter.games import access
from arbiter.idempotency import KEY_PATTERN

IF_MATCH_PATTERN = r'^(\*|(W/)?"[0-9]{1,10}"|[0-9]{1,10})$'
"""``*`` or a game ETag, strong or weak: ``"7"``, ``W/"7"``; a bare version ``7`` is
read as ``"7"``."""

IDEMPOTENCY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {
        "type": "string",
        "pattern": KEY_PATTERN,
        "example": "5b1e0c3a-8f0c-4d2e-9a61-7c3b2f1e4d5a",
    },
    "description": "16 to 200 visible ASCII characters (a random UUID is a good "
    "one); a retry with the same key gets the first answer again",
}
IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "schema": {"type": "string", "pattern": IF_MATCH_PATTERN, "example": '"7"'},
    "description": 'the game\'s ETag, e.g. "7" (a bare 7 is read as "7"; * for any version)',
}


def security(*schemes: str, optional: bool = False) -> dict:
    """Return the ``security`` of an operation that takes a bearer token of one of
    ``schemes`` (``optional``: it may also be called without one), for ``blp.doc``."""
    requirements = [{scheme: []} for scheme in schemes]
    return {"security": ([{}] if optional else []) + requirements}


def token() -> str | None:
    """Return the bearer seat token of the request, if any.

    :raises arbiter.errors.Unauthorized: a malformed Authorization header.
    """
    return access.bearer(request.headers.get("Authorization"))


def idempotency_key() -> str | None:
    """Return the ``Idempotency-Key`` header, if any."""
    return request.headers.get("Idempotency-Key")


def expected_version(from_body: int | None) -> int | None:
    """Return the version a write was made against: ``expected_version`` from the body
    or ``If-Match`` (``*`` or absent: any version).

    :raises Unprocessable: ``conflicting-versions`` when the two disagree, 400
        ``bad-if-match`` for an If-Match that is not a game ETag.
    """
    header = if_match_version()
    if from_body is not None and header is not None and from_body != header:
        raise Unprocessable(
            f"expected_version {from_body} and If-Match {header} disagree; send one of them.",
            code="conflicting-versions",
        )
    return from_body if from_body is not None else header


def if_match_version() -> int | None:
    """Return the game version named by ``If-Match: "<version>"``, if any (``*``: any).

    :raises ArbiterError: 400 ``bad-if-match`` for a value that is not a game ETag.
    """
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    if not re.fullmatch(IF_MATCH_PATTERN, raw.strip()):
        raise ArbiterError(
            f"If-Match must be a game ETag such as '\"7\"' (or *), not {raw!r}.",
            code="bad-if-match",
        )
    value = raw.strip().removeprefix("W/").strip('"')
    return None if value == "*" else int(value)


def etag(version: int) -> dict:
    """Return the ETag header for a game version."""
    return etag_header(str(version))


def etag_header(tag: str) -> dict:
    """Return the ETag header for an opaque tag (unquoted, e.g. ``7-seat0``)."""
    return {"ETag": f'"{tag}"'}


def cached(tag: str) -> bool:
    """Return True when ``If-None-Match`` names ``tag`` (weak comparison, RFC 9110
    section 13.1.2; ``*`` matches any)."""
    return request.if_none_match.contains_weak(tag)


def not_modified(tag: str) -> Response:
    """Return an empty 304 Not Modified carrying ``tag`` as its ETag."""
    return Response(status=304, headers=etag_header(tag))
