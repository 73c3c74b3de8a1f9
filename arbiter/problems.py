"""The one table from domain errors to what each channel answers.

The contexts raise domain errors (:mod:`arbiter.errors`, the engines'
:class:`engines.base.EngineError`) and never name an HTTP status; this module, on the
channels' side (no context imports it), decides what the error means to a client:

- REST: ``application/problem+json`` (RFC 9457), ``{"type", "title", "status",
  "detail", "code", ...extra}``, where ``code`` is stable and ``detail`` is a sentence
  a player understands (:func:`problem_for`, installed by :func:`register`; nothing
  else produces error bodies);
- the web pages: the error page's message and status (:func:`page`);
- the mail replies: the refusal's sentence and code (:func:`refusal`).

:data:`PROBLEMS` is the table. The schema of a problem answer is
:class:`arbiter.problem.ProblemSchema`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException

from arbiter.errors import (
    NOT_AN_OBJECT,
    ArbiterError,
    Conflict,
    Expired,
    Forbidden,
    NotFound,
    TooManyRequests,
    Unauthorized,
    Unprocessable,
    field_messages,
)
from engines.base import BadOutcome, EngineError, IllegalMove, InvalidMove, InvalidOptions

log = logging.getLogger(__name__)

PROBLEM_BASE = "https://arbiter.invalid/problems/"


@dataclass(frozen=True)
class Kind:
    """How the channels answer an error: its HTTP ``status``, and its ``title`` when
    that is not the error's own (``None``: the class's ``title``)."""

    status: int
    title: str | None = None


PROBLEMS: dict[type[Exception] | tuple[type[Exception], str], Kind] = {
    # the service's errors, by class (the title is the class's)
    ArbiterError: Kind(400),
    Unauthorized: Kind(401),
    Forbidden: Kind(403),  # and accounts.links.LinkRefused (bad-link, link-expired)
    NotFound: Kind(404),
    Conflict: Kind(409),  # and StaleVersion, RaceLost, AnswerRace, TournamentMoved
    Expired: Kind(410),  # link-expired (a sign-in link)
    Unprocessable: Kind(422),
    TooManyRequests: Kind(429),
    # codes with a status or a title of their own: a problem type (its code) has one
    # title (RFC 9457, "title"), whichever path answers it
    (ArbiterError, "malformed-json"): Kind(400, "Malformed request"),
    (ArbiterError, "unsupported-media-type"): Kind(415, "Unsupported media type"),
    (ArbiterError, "invalid-request"): Kind(422, "Invalid request"),
    (Unprocessable, "bad-bot"): Kind(422, "Invalid bot"),  # a seat's, autopilot's, filler's
    # the engines' errors: 422, but a move that may be fine at another moment is a 409
    EngineError: Kind(422, "Not allowed"),
    IllegalMove: Kind(422, "Move not allowed"),
    InvalidMove: Kind(422, "Move not understood"),
    InvalidOptions: Kind(422, "Invalid game settings"),
    BadOutcome: Kind(422, "Outcome does not fit"),
    (EngineError, "not-your-turn"): Kind(409),
    (EngineError, "game-over"): Kind(409),
    (EngineError, "awaiting-chance"): Kind(409),
    (EngineError, "not-your-choice"): Kind(409),
    # star_maps.rules.AlreadyAnswered (an IllegalMove), titled as an engine error
    # of a class without its own title
    (EngineError, "already-answered"): Kind(409, "Not allowed"),
}
"""The one table: an error class, or an error class and a ``code``, to its
:class:`Kind`. A ``(class, code)`` entry wins over the classes; among classes, the
nearest in the error's MRO wins (:func:`kind`)."""

DomainError = ArbiterError | EngineError
"""An error the table answers."""


def kind(err: DomainError) -> Kind:
    """Return how the channels answer ``err`` (its status, its title), from
    :data:`PROBLEMS`: the first ``(class, code)`` entry along the error's MRO, else the
    first class entry; a ``title`` of ``None`` is the first title a class entry along
    the MRO gives, else the error's own."""
    mro = type(err).__mro__
    coded = [PROBLEMS[(cls, err.code)] for cls in mro if (cls, err.code) in PROBLEMS]
    classed = [PROBLEMS[cls] for cls in mro if cls in PROBLEMS]
    found = (coded or classed)[0]
    if found.title is not None:
        return found
    titles = [k.title for k in classed if k.title is not None]
    return Kind(found.status, titles[0] if titles else err.title)


def status_of(err: DomainError) -> int:
    """Return the HTTP status ``err`` is answered with (REST and the error pages)."""
    return kind(err).status


def page(err: DomainError) -> tuple[str, int]:
    """Return the web's error page for ``err``: its message and its status."""
    return err.detail, status_of(err)


def refusal(err: DomainError) -> tuple[str, str]:
    """Return a mail reply's refusal of ``err``: its sentence and its code."""
    return err.detail, err.code


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


def problem_for(err: DomainError) -> Response:
    """Return the problem+json answer to ``err`` (with ``Retry-After`` for a rate
    limit, ``WWW-Authenticate`` for a 401)."""
    found = kind(err)
    answer = problem(found.status, err.code, found.title, err.detail, err.extra)
    if isinstance(err, TooManyRequests):
        answer.headers["Retry-After"] = str(err.retry_after)
    if found.status == 401:
        answer.headers["WWW-Authenticate"] = 'Bearer realm="arbiter"'
    return answer


def body_not_an_object(messages) -> bool:
    """True when webargs' ``messages`` say only that the JSON body is no object
    (``[]``, ``null``, ``3``, ...)."""
    return messages == {"json": {"_schema": [NOT_AN_OBJECT]}}


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


def register(app: Flask) -> None:
    """Install the handlers that turn every error into problem+json."""

    app.register_error_handler(ArbiterError, problem_for)
    app.register_error_handler(EngineError, problem_for)

    @app.errorhandler(RecursionError)
    def _too_deep(err: RecursionError):
        return problem(
            400,
            "malformed-json",
            "Malformed request",
            "The request body is nested too deeply to read.",
        )

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
