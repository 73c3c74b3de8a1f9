"""Checks every request passes before a view runs: a JSON body, no NUL characters, no
members in a body the operation does not take.

They are the input rules the contract states for every operation (see
``arbiter.contract``): a body is JSON (415 otherwise), a path parameter with a NUL
character names nothing (404), a query value with one is refused (422), since no
database stores NUL in text (PostgreSQL refuses it).
"""

from __future__ import annotations

from flask import Flask, current_app, request

from arbiter.errors import ArbiterError, NotFound, Unprocessable, field_messages

FORM_ENDPOINTS: set[str] = set()
"""Endpoints that also take a form-encoded body (RFC 8058's one-click unsubscribe)."""


def require_json_body() -> None:
    """Refuse a request body that is not JSON, before any view reads it.

    :raises ArbiterError: ``unsupported-media-type`` (415, :mod:`arbiter.problems`).
    """
    if request.method not in ("POST", "PUT", "PATCH") or request.blueprint == "web":
        return  # no body; the pages take forms (arbiter/web)
    sends_body = request.content_length or request.headers.get("Transfer-Encoding")
    if sends_body and not request.is_json and request.endpoint not in FORM_ENDPOINTS:
        raise ArbiterError(
            "Send the request body as JSON (Content-Type: application/json).",
            code="unsupported-media-type",
        )


def takes_json_body() -> bool:
    """Whether the view answering this request reads a JSON body (a flask-smorest
    ``arguments`` of location ``json``)."""
    view = current_app.view_functions.get(request.endpoint or "")
    cls = getattr(view, "view_class", None)
    method = getattr(cls, request.method.lower(), None) if cls else view
    arguments = (getattr(method, "_apidoc", None) or {}).get("arguments", {})
    return any(p.get("in") == "json" for p in arguments.get("parameters", []))


def refuse_unread_body() -> None:
    """Refuse members in a JSON body sent to an operation that takes no body (``POST
    /resign``, ``/pause`` ...), as a route with a body refuses unknown fields: nothing
    is done. An empty body, ``{}`` or ``null`` is taken, and so is a body that is not
    JSON where the route takes one (RFC 8058's form-encoded one-click unsubscribe).

    :raises Unprocessable: ``invalid-request`` with ``errors`` (``Unknown field.``
        per member, as marshmallow says), 400 ``malformed-json``.
    """
    if (
        request.blueprint == "web"
        or request.method not in ("POST", "PUT", "PATCH", "DELETE")
        or not request.is_json
        or request.endpoint is None
    ):
        return
    if (
        not (request.content_length or request.headers.get("Transfer-Encoding"))
        or takes_json_body()
    ):
        return
    body = request.get_json()  # unreadable: 400 malformed-json
    if body is None or body == {}:
        return
    if not isinstance(body, dict):
        raise Unprocessable(
            "This operation takes no request body (send none, or {}).",
            code="invalid-request",
            extra={"errors": {"json": {"_schema": ["Takes no body."]}}},
        )
    errors = {"json": {name: ["Unknown field."] for name in sorted(body)}}
    raise Unprocessable(
        f"Some fields are missing or wrong: {field_messages(errors)} "
        "(this operation takes no body).",
        code="invalid-request",
        extra={"errors": errors},
    )


def refuse_nul() -> None:
    """Refuse NUL characters in the path and the query string.

    :raises NotFound: 404 ``not-found`` for a path parameter holding one.
    :raises Unprocessable: ``invalid-request`` (with ``errors``) for a query value.
    """
    if any("\x00" in str(value) for value in (request.view_args or {}).values()):
        raise NotFound("There is nothing at this address.", code="not-found")
    bad = sorted(
        {
            name
            for name, value in request.args.items(multi=True)
            if "\x00" in name or "\x00" in value
        }
    )
    if bad:
        names = ", ".join(repr(n) for n in bad)
        raise Unprocessable(
            f"Some fields are missing or wrong: {names} must not contain a NUL character.",
            code="invalid-request",
            extra={"errors": {"query": {n: ["Must not contain a NUL character."] for n in bad}}},
        )


def register(app: Flask, authenticate) -> None:
    """Run the checks before every request: NUL characters first (before anything,
    even ``authenticate``, reads the database with the path's ids), then
    ``authenticate``, then the body's media type (never a 415 before a 401), then
    members sent to an operation that takes no body."""
    app.before_request(refuse_nul)
    app.before_request(authenticate)
    app.before_request(require_json_body)
    app.before_request(refuse_unread_body)
