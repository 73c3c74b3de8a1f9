"""One authenticated way to the service: an httpx client, a bearer token, and the rules
every request follows.

- **Idempotency-Key**: every POST whose contract takes one (:data:`IDEMPOTENT_POSTS`)
  gets a random UUID, unless the caller gives a key; the retries of that request send
  the same key, so the service answers a repeat with the first answer and writes
  nothing twice.
- **Retries** (:class:`Retry`): a 429 is sent again after its ``Retry-After`` (the
  service refuses it before doing anything); a 503, and a connection that failed or
  broke, only for a request that is safe to repeat (a read, or a POST that carries an
  Idempotency-Key). Bounded in tries and in the longest wait; past them the typed error
  is raised (:mod:`arbiter_client.errors`).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

from arbiter_client.errors import TransportError, error_for, retry_after

log = logging.getLogger("arbiter_client")

IDEMPOTENT_POSTS = (
    "/v1/games",
    "/v1/bulk-games",
    "/v1/campaigns/{}/games",
    "/v1/games/{}/moves",
    "/v1/games/{}/resign",
    "/v1/games/{}/pause",
    "/v1/games/{}/resume",
    "/v1/games/{}/extend",
    "/v1/games/{}/vacation",
    "/v1/games/{}/back",
    "/v1/games/{}/seats",
    "/v1/games/{}/rematch",
    "/v1/games/{}/messages",
    "/v1/games/{}/messages/{}/hide",
    "/v1/games/{}/messages/{}/report",
    "/v1/games/{}/notes",
    *(
        f"/v1/games/{{}}/{kind}-requests{verb}"
        for kind in ("undo", "abort")
        for verb in ("", "/{}/accept", "/{}/refuse")
    ),
    "/v1/tournaments",
    "/v1/tournaments/{}/extend",
)
"""The POST routes whose contract declares an ``Idempotency-Key`` header (``{}`` is one
path segment); ``tests/clients/test_contract.py`` checks this against ``openapi.yaml``."""

_IDEMPOTENT = [re.compile("^" + p.replace("{}", "[^/]+") + "$") for p in IDEMPOTENT_POSTS]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
"""Methods that may be sent twice without doing twice (RFC 9110, 9.2.2)."""


def takes_idempotency_key(method: str, path: str) -> bool:
    """Return whether a ``method`` request to ``path`` takes an ``Idempotency-Key``."""
    return method == "POST" and any(p.match(path) for p in _IDEMPOTENT)


@dataclass(frozen=True)
class Retry:
    """When and how long to wait before sending a refused request again.

    :ivar attempts: tries in all, the first included (1: never retry).
    :ivar max_wait: the longest single wait in seconds; a ``Retry-After`` beyond it is
        not waited for (the error is raised at once, with its ``retry_after``).
    :ivar backoff: the first wait when the answer names none (a broken connection, a 503
        without ``Retry-After``), doubled at each try up to ``max_wait``.
    :ivar statuses: the statuses retried (429 always; the others only for a request that
        is safe to repeat).
    :ivar sleep: how to wait (``time.sleep``).
    """

    attempts: int = 5
    max_wait: float = 60.0
    backoff: float = 0.5
    statuses: frozenset[int] = frozenset({429, 503})
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)

    def wait(self, attempt: int, response: httpx.Response | None) -> float | None:
        """Return the seconds to wait before try ``attempt + 1``, or None not to retry."""
        if attempt >= self.attempts:
            return None
        named = retry_after(response) if response is not None else None
        if named is not None:
            return named if named <= self.max_wait else None
        return min(self.max_wait, self.backoff * 2.0 ** (attempt - 1))


NO_RETRY = Retry(attempts=1)
"""A policy that never retries: every refusal is raised at once."""


class Session:
    """An httpx client, a base URL, a bearer token (seat, creator, organiser or
    personal ``arb_...``; None: anonymous) and a :class:`Retry` policy. Sessions made
    with :meth:`with_token` share the httpx client (and its connection pool)."""

    def __init__(
        self,
        http: httpx.Client,
        token: str | None = None,
        retry: Retry = Retry(),
        stream_timeout: float = 60.0,
    ) -> None:
        self.http = http
        self.token = token
        self.retry = retry
        self.stream_timeout = stream_timeout

    def with_token(self, token: str | None) -> Session:
        """Return a session like this one that sends ``token``."""
        return Session(self.http, token, self.retry, self.stream_timeout)

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
        idempotency_key: str | None = None,
        wait: float | None = None,
    ) -> Any:
        """Send a request (retried as the policy says) and return its JSON body (None
        for an empty one, the text for one that is not JSON). ``wait``: seconds the
        service may hold the answer (a long-poll), added to the read timeout.

        :raises ApiError: the service refused it (a subclass per status).
        :raises TransportError: it could not be delivered.
        """
        response = self.send(
            method,
            path,
            params=params,
            json=json,
            headers=headers,
            key=idempotency_key,
            wait=wait,
        )
        if not response.content:
            return None
        if "json" in response.headers.get("content-type", ""):
            return response.json()
        return response.text

    def send(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
        key: str | None = None,
        stream: bool = False,
        wait: float | None = None,
    ) -> httpx.Response:
        """Send a request, retrying as the policy says; return the response (status
        below 400; with ``stream``, open: close it).

        :raises ApiError: the service refused it.
        :raises TransportError: it could not be delivered.
        """
        headers = self.headers(headers)
        if key is not None or takes_idempotency_key(method, path):
            headers["Idempotency-Key"] = key or str(uuid.uuid4())
        safe = method in SAFE_METHODS or "Idempotency-Key" in headers
        request = self.http.build_request(
            method,
            path,
            params=_query(params),
            json=json,
            headers=headers,
            timeout=self.timeout(stream, wait),
        )
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self.http.send(request, stream=stream)
            except httpx.TransportError as err:
                wait = self.retry.wait(attempt, None) if safe else None
                if wait is None:
                    raise TransportError(f"{method} {request.url}: {err!r}") from err
                log.warning("%s %s: %r; trying again in %.1f s", method, path, err, wait)
                self.retry.sleep(wait)
                continue
            if response.status_code < 400:
                return response
            error = error_for(response)  # reads and closes a streamed body
            retried = response.status_code in self.retry.statuses and (
                safe or response.status_code == 429
            )
            wait = self.retry.wait(attempt, response) if retried else None
            if wait is None:
                raise error
            log.warning("%s %s: %s; trying again in %.1f s", method, path, error, wait)
            self.retry.sleep(wait)

    def timeout(self, stream: bool, wait: float | None) -> Any:
        """Return a request's timeout: a stream's read timeout is
        :attr:`stream_timeout`; a long-poll's read timeout is longer by its ``wait``."""
        usual = self.http.timeout
        if stream:
            return httpx.Timeout(usual.connect, read=self.stream_timeout)
        if wait and usual.read is not None:
            return httpx.Timeout(usual.connect, read=usual.read + wait)
        return httpx.USE_CLIENT_DEFAULT

    @contextmanager
    def stream(
        self,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Iterator[httpx.Response]:
        """Open a streamed GET (read timeout :attr:`stream_timeout`: longer than the
        service's keep-alive interval) and close it at the end of the block."""
        response = self.send("GET", path, params=params, headers=headers, stream=True)
        try:
            yield response
        finally:
            response.close()

    def headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        """Return the request headers: ``extra`` and the bearer token."""
        out = dict(extra or {})
        if self.token:
            out["Authorization"] = f"Bearer {self.token}"
        return out


def _query(params: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return ``params`` without None values, booleans as ``true``/``false``."""
    if not params:
        return None
    return {
        k: ("true" if v else "false") if isinstance(v, bool) else v
        for k, v in params.items()
        if v is not None
    }
