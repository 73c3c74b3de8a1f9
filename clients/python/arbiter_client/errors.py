"""What the client raises: every refusal of the service as a typed exception carrying its
problem+json (RFC 9457) members, and a transport failure that outlasted the retries.

The class follows the HTTP status (:class:`Conflict` for 409, :class:`RateLimited` for
429 ...); the stable machine ``code`` (``stale-version``, ``not-your-turn``,
``rate-limited`` ...) tells refusals of one status apart::

    try:
        client.moves.play(game_id, move, expected_version=7)
    except Conflict as err:
        if err.code != "stale-version":
            raise
"""

from __future__ import annotations

from typing import Any

import httpx


class ArbiterError(Exception):
    """Anything the client raises (catch this one to catch them all)."""


class TransportError(ArbiterError):
    """The service could not be reached or the connection broke, and the retries (for a
    request that is safe to send again) did not help; ``__cause__`` is httpx's error."""


class StreamReplaced(ArbiterError):
    """The account stream ended because its token opened another one (one
    ``/v1/me/stream`` per token): another copy of this program runs with the same
    token. Not retried, so that two copies do not take the stream from each other."""


class ApiError(ArbiterError):
    """The service refused a request: an HTTP status of 400 or more.

    :ivar status: the HTTP status (``429``).
    :ivar code: the stable machine code (``"rate-limited"``); ``"http-<status>"`` when the
        answer was not problem+json (a proxy's page).
    :ivar detail: a sentence a player understands.
    :ivar title: the status in words.
    :ivar type: a URI naming the problem type.
    :ivar errors: per field, what is wrong with it (422 ``invalid-request``), else None.
    :ivar retry_after: the ``Retry-After`` header in seconds (429, 503), else None.
    :ivar problem: the whole problem+json body (extension members included).
    :ivar response: the httpx response.
    """

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        self.response = response
        self.problem = problem
        self.status: int = response.status_code
        self.code: str = str(problem.get("code") or f"http-{response.status_code}")
        self.detail: str = str(problem.get("detail") or response.reason_phrase)
        self.title: str = str(problem.get("title") or response.reason_phrase)
        self.type: str = str(problem.get("type") or "about:blank")
        self.errors: Any = problem.get("errors")
        self.retry_after: float | None = retry_after(response)
        super().__init__(f"{self.status} {self.code}: {self.detail}")


class BadRequest(ApiError):
    """400: a request the service cannot read (``bad-last-event-id``, ``bad-cursor`` ...)."""


class Unauthorized(ApiError):
    """401: a missing, wrong, expired or revoked token (``token-revoked`` ...)."""


class Forbidden(ApiError):
    """403: a token without the scope this needs (``missing-scope``) or no seat here."""


class NotFound(ApiError):
    """404: no such game, tournament, token or web hook."""


class Conflict(ApiError):
    """409: the game moved on (``stale-version``), it is not your turn, or it is over."""


class Unprocessable(ApiError):
    """422: an illegal or unreadable move, or a body that does not fit the contract
    (``invalid-request``, with ``errors`` per field)."""


class RateLimited(ApiError):
    """429 ``rate-limited``: too many requests; nothing was done. Raised once the retries
    are spent, or at once when ``retry_after`` is beyond the client's patience."""


class Unavailable(ApiError):
    """503: the service cannot serve now (its database is down); retry after
    ``retry_after`` seconds."""


BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    422: Unprocessable,
    429: RateLimited,
    503: Unavailable,
}


def retry_after(response: httpx.Response) -> float | None:
    """Return the ``Retry-After`` header of ``response`` in seconds (the service sends
    whole seconds), or None when absent or not a number."""
    raw = response.headers.get("retry-after")
    if raw is None:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        return None


def error_for(response: httpx.Response) -> ApiError:
    """Return the exception for a refused ``response`` (status 400 or more), read from its
    problem+json body when it has one. Reads the body (a streamed response too)."""
    response.read()
    problem: dict[str, Any] = {}
    if "json" in response.headers.get("content-type", ""):
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            problem = body
    return BY_STATUS.get(response.status_code, ApiError)(response, problem)
