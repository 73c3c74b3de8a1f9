"""Reading the HTTP headers the API relies on: bearer token, If-Match, If-None-Match,
Idempotency-Key; writing ETag and 304 Not Modified."""

from __future__ import annotations

from flask import Response, request

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


def expected_version(from_body: int | None) -> int | None:
    """Return the version a write was made against: ``expected_version`` from the body
    or ``If-Match`` (``*`` or absent: any version).

    :raises ArbiterError: 422 ``conflicting-versions`` when the two disagree, 400
        ``bad-if-match`` for an If-Match that is not a game ETag.
    """
    header = if_match_version()
    if from_body is not None and header is not None and from_body != header:
        raise ArbiterError(f"expected_version {from_body} and If-Match {header} disagree; "
                           "send one of them.", code="conflicting-versions", status=422)
    return from_body if from_body is not None else header


def if_match_version() -> int | None:
    """Return the game version named by ``If-Match: "<version>"``, if any (``*``: any).

    :raises ArbiterError: 400 ``bad-if-match`` for a value that is not a game ETag.
    """
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    value = raw.strip().removeprefix("W/").strip('"')
    if not value.isdigit() or len(value) > 10:
        raise ArbiterError(f"If-Match must be a game ETag such as '\"7\"', not {raw!r}.",
                           code="bad-if-match")
    return int(value)


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
