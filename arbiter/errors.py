"""The service's domain errors.

The contexts raise them; they never name an HTTP status. Each class has a stable
default ``code`` (a raise may give a more precise one) and ``title``, and every error
carries ``detail``, a sentence a player understands, and ``extra``, further members for
programs. How a channel answers one (problem+json and its status for REST, an error
page, a mail reply) is decided in one table: :mod:`arbiter.problems`.
"""

from __future__ import annotations


class ArbiterError(Exception):
    """Root of the service's own errors: a request the service cannot take as it is.

    :param detail: a sentence a player understands.
    :param code: a stable machine code, more precise than the class's default.
    :param extra: further members of the answer (``errors``, ``version``, ...).
    """

    code = "bad-request"
    title = "Bad request"

    def __init__(self, detail: str, code: str | None = None, extra: dict | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        self.extra = extra or {}


class NotFound(ArbiterError):
    """No such game, engine or resource."""

    code, title = "not-found", "Not found"


class Unauthorized(ArbiterError):
    """Missing or wrong seat token."""

    code, title = "bad-token", "Not authorised"


class Forbidden(ArbiterError):
    """A known caller who may not do this: a token without the scope, an account
    without a seat in the game."""

    code, title = "forbidden", "Not allowed"


class Expired(ArbiterError):
    """Something that was good once and is no longer (a sign-in link past its time)."""

    code, title = "expired", "Gone"


class TooManyRequests(ArbiterError):
    """Over a rate limit; ``retry_after`` is in whole seconds (at least 1)."""

    code, title = "rate-limited", "Too many requests"

    def __init__(self, detail: str, retry_after: int, code: str | None = None) -> None:
        super().__init__(detail, code=code)
        self.retry_after = max(1, int(retry_after))


class Conflict(ArbiterError):
    """The request is valid but conflicts with the game now: stale version, game over."""

    code, title = "conflict", "Conflict"


class Unprocessable(ArbiterError):
    """Well-formed input that cannot be accepted."""

    code, title = "unprocessable", "Unprocessable request"


NOT_AN_OBJECT = "Invalid input type."
"""marshmallow's message (under ``_schema``) for a nested object that is no JSON object."""


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
