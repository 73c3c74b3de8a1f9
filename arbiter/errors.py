"""The service's errors and the one table that maps them to HTTP problem details.

Every error a client can meet is answered as ``application/problem+json`` (RFC 9457):
``{"type", "title", "status", "detail", "code"}``, where ``code`` is stable and
``detail`` is a sentence a player understands. Nothing else produces error bodies.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException

from engines.base import EngineError

log = logging.getLogger(__name__)

PROBLEM_BASE = "https://arbiter.invalid/problems/"


class ArbiterError(Exception):
    """Root of the service's own errors.

    :param detail: a sentence a player understands; ``code`` and ``status`` are class
        attributes unless given.
    """

    status = 400
    code = "bad-request"
    title = "Bad request"

    def __init__(
        self,
        detail: str,
        code: str | None = None,
        status: int | None = None,
        extra: dict | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        if status:
            self.status = status
        self.extra = extra or {}


class NotFound(ArbiterError):
    """No such game, engine or resource (404)."""

    status, code, title = 404, "not-found", "Not found"


class Unauthorized(ArbiterError):
    """Missing or wrong seat token (401)."""

    status, code, title = 401, "bad-token", "Not authorised"


class Forbidden(ArbiterError):
    """A known caller who may not do this: a token without the scope, an account
    without a seat in the game (403)."""

    status, code, title = 403, "forbidden", "Not allowed"


class TooManyRequests(ArbiterError):
    """Over a rate limit (429); ``retry_after`` is in whole seconds."""

    status, code, title = 429, "rate-limited", "Too many requests"

    def __init__(self, detail: str, retry_after: int, code: str | None = None) -> None:
        super().__init__(detail, code=code)
        self.retry_after = max(1, int(retry_after))


class Conflict(ArbiterError):
    """The request is valid but conflicts with the game now: stale version, game over (409)."""

    status, code, title = 409, "conflict", "Conflict"


class Unprocessable(ArbiterError):
    """Well-formed input that cannot be accepted (422)."""

    status, code, title = 422, "unprocessable", "Unprocessable request"


ENGINE_STATUS = {
    "not-your-turn": 409,
    "game-over": 409,
    "awaiting-chance": 409,
    "already-answered": 409,
    "not-your-choice": 409,
}
"""IllegalMove codes answered with 409 (the move may be fine, the moment is not);
every other engine error is a 422."""


NOT_AN_OBJECT = "Invalid input type."
"""marshmallow's message (under ``_schema``) for a nested object that is no JSON object."""


def body_not_an_object(messages) -> bool:
    """True when webargs' ``messages`` say only that the JSON body is no object
    (``[]``, ``null``, ``3``, ...)."""
    return messages == {"json": {"_schema": [NOT_AN_OBJECT]}}


def field_messages(messages, prefix: str = "") -> str:
    """Return marshmallow's nested error messages as ``field: message; ...`` text
    (a nested field that is no object reads ``field: Must be a JSON object``)."""
    if isinstance(messages, dict):
        parts = []
        for key, value in messages.items():
            if key == "json" and not prefix:
                parts.append(field_messages(value))
                continue
            if key == "_schema":
                value = (
                    ["Must be a JSON object" if m == NOT_AN_OBJECT else m for m in value]
                    if isinstance(value, list)
                    else value
                )
                parts.append(field_messages(value, prefix))
                continue
            name = f"{prefix}.{key}" if prefix else str(key)
            parts.append(field_messages(value, name))
        return "; ".join(p for p in parts if p)
    if isinstance(messages, (list, tuple)):
        if all(isinstance(m, str) for m in messages):
            text = " ".join(m.rstrip(".") + "." for m in messages).rstrip(".")
            return f"{prefix}: {text}" if prefix else text
        return "; ".join(field_messages(m, prefix) for m in messages)
    return f"{prefix}: {messages}" if prefix else str(messages)


def problem_body(
    status: int, code: str, title: str, detail: str, extra: dict | None = None
) -> dict:
    """Return the members of a problem details answer (RFC 9457) as a dict."""
    return {
        "type": PROBLEM_BASE + code,
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        **(extra or {}),
    }


def problem(status: int, code: str, title: str, detail: str, extra: dict | None = None) -> Response:
    """Return an ``application/problem+json`` response."""
    body = problem_body(status, code, title, detail, extra)
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


STATUS_TITLES = {
    cls.status: cls.title
    for cls in (
        ArbiterError,
        NotFound,
        Unauthorized,
        Forbidden,
        TooManyRequests,
        Conflict,
        Unprocessable,
    )
}
"""The title of an error raised with a bare status (``ArbiterError(..., status=422)``):
the same as its status's class says, never the HTTP reason phrase."""

CODE_TITLES = {
    "invalid-request": "Invalid request",
    "malformed-json": "Malformed request",
    "unsupported-media-type": "Unsupported media type",
}
"""Titles fixed by code, for the codes that several paths answer: a problem type (its
``code``) has one title (RFC 9457, "title")."""


def problem_for(err: ArbiterError) -> Response:
    """Return the problem+json answer to ``err``."""
    title = (
        err.title
        if type(err) is not ArbiterError
        else STATUS_TITLES.get(err.status, HTTPStatus(err.status).phrase)
    )
    title = CODE_TITLES.get(err.code, title)
    answer = problem(err.status, err.code, title, err.detail, err.extra)
    if isinstance(err, TooManyRequests):
        answer.headers["Retry-After"] = str(err.retry_after)
    if err.status == 401:
        answer.headers["WWW-Authenticate"] = 'Bearer realm="arbiter"'
    return answer


def _from_http(err: HTTPException) -> Response:
    """Map werkzeug/flask-smorest HTTP errors (404, 405, 413, webargs 422) to problems."""
    status = err.code or 500
    if status == 413:
        limit = request.max_content_length or 0
        size = f"{limit // 1024} KiB" if limit < 1024 * 1024 else f"{limit / 2**20:g} MiB"
        answer = problem(
            413,
            "body-too-large",
            "Request body too large",
            f"The request body is larger than the {size} this address accepts.",
        )
        answer.headers["Connection"] = "close"
        return answer
    if status == 404:
        return problem(404, "not-found", "Not found", "There is nothing at this address.")
    if status == 415:
        return problem(
            415,
            "unsupported-media-type",
            "Unsupported media type",
            "Send the request body as JSON (Content-Type: application/json).",
        )
    if status == 405:
        answer = problem(
            405,
            "method-not-allowed",
            "Method not allowed",
            "This address does not accept that method.",
        )
        answer.headers.update({k: v for k, v in err.get_headers() if k == "Allow"})
        return answer
    messages = (getattr(err, "data", None) or {}).get("messages")
    if status == 400:
        return problem(
            400, "malformed-json", "Malformed request", "The request body is not valid JSON."
        )
    if status == 422 and body_not_an_object(messages):
        return problem(
            422,
            "invalid-request",
            "Invalid request",
            "The body must be a JSON object.",
            {"errors": messages},
        )
    if status == 422 and messages:
        return problem(
            422,
            "invalid-request",
            "Invalid request",
            f"Some fields are missing or wrong: {field_messages(messages)}.",
            {"errors": messages},
        )
    return problem(status, f"http-{status}", err.name, err.description or err.name)


ENGINE_TITLES = {
    "IllegalMove": "Move not allowed",
    "InvalidMove": "Move not understood",
    "InvalidOptions": "Invalid game settings",
    "BadOutcome": "Outcome does not fit",
}
"""Human titles for the engines' error classes (the class name otherwise)."""


def register(app: Flask) -> None:
    """Install the handlers that turn every error into problem+json."""

    app.register_error_handler(ArbiterError, problem_for)

    @app.errorhandler(RecursionError)
    def _too_deep(err: RecursionError):
        return problem(
            400,
            "malformed-json",
            "Malformed request",
            "The request body is nested too deeply to read.",
        )

    @app.errorhandler(EngineError)
    def _engine(err: EngineError):
        status = ENGINE_STATUS.get(err.code, 422)
        title = ENGINE_TITLES.get(type(err).__name__, "Not allowed")
        return problem(status, err.code, title, err.detail, err.extra)

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException):
        return _from_http(err)

    @app.errorhandler(Exception)
    def _unexpected(err: Exception):
        log.exception("unhandled error")
        return problem(
            500,
            "internal-error",
            "Internal error",
            "Something went wrong on the server; nothing was recorded.",
        )
