"""What every operation of the contract declares, whoever wrote its route.

Views declare their success answer and the errors that only they raise (409 for a
stale version, 422 for an illegal move ...). :func:`complete` then adds, to every
operation in the spec, the error answers that the layers below the view give on any
route of that shape, and serves every error as ``application/problem+json`` with the
one ``Problem`` schema:

- every operation: 400 (a request line or header the web server cannot read), 414 (URL too
  long), 431 (headers too large), 503 (the database is unavailable, ``Retry-After``);
- a path parameter: 404 (nothing at that address);
- a query or body argument: 422 (``invalid-request``, with ``errors`` per field);
- a request body: 400 (malformed JSON), 413 (over ``MAX_CONTENT_LENGTH``, the
  connection is closed), 415 (not JSON); a write without one: 422 (a JSON body with
  members, ``arbiter.guards.refuse_unread_body``);
- a security requirement: 401 (missing, malformed or wrong token); a personal token
  (``apiToken``) among the schemes: 403 (``missing-scope``, ``no-seat``);
- an ``Idempotency-Key`` parameter: 422 (``bad-idempotency-key``,
  ``idempotency-key-reused``); an ``If-Match`` parameter: 400 (``bad-if-match``).

It also writes down input rules the service enforces on every string query parameter
(no NUL character) and makes the ``X-Pagination`` header what it is: a string holding
JSON. A marshmallow schema may add JSON Schema keywords for rules across its fields
(``class Meta: openapi = {"oneOf": ...}``). :func:`complete` is idempotent; ``ArbiterApi`` runs it
after each blueprint is
registered, so routes added later are covered the same way.
"""

from __future__ import annotations

import copy
from http import HTTPStatus

from flask_smorest import Api

from arbiter.problem import ProblemSchema
from arbiter.text import printable, printable_pattern

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
NO_NUL = "^[^\\u0000]*$"
"""JSON Schema pattern of text without a NUL character (PostgreSQL cannot store one)."""

EVERY_OPERATION = {
    400: "a request line, header or body the server cannot read",
    414: "the URL is too long",
    431: "the request's headers are too large",
    503: "the database is unavailable; retry after Retry-After seconds",
}
PATH_PARAMETER = {404: "nothing at this address"}
ARGUMENTS = {422: "a field is missing or wrong (invalid-request, with errors per field)"}
NO_BODY = {
    422: "a JSON body with members: this operation takes none (invalid-request; "
    "an empty body or {} is taken)"
}
REQUEST_BODY = {
    400: "the body is not valid JSON",
    413: "the body is too large (the connection is closed)",
    415: "the body is not JSON",
}
SECURED = {401: "a missing, malformed or wrong token"}
PERSONAL_TOKEN = {
    403: "a personal token without the scope this route needs "
    "(missing-scope), or whose account holds no seat in the game "
    "(no-seat)"
}
HEADER_RULES = {
    "Idempotency-Key": {
        422: "an Idempotency-Key too short, too long or used before for another request"
    },
    "If-Match": {400: "an If-Match that is not a game ETag"},
}

RETRY_AFTER = {
    "description": "seconds to wait before trying again",
    "schema": {"type": "integer", "minimum": 0},
}
PAGINATION_HEADER = {
    "description": "JSON text: total, total_pages, first_page, last_page, page, "
    "previous_page, next_page",
    "schema": {"type": "string", "contentMediaType": "application/json"},
}


def link(
    path: str, method: str, description: str, body: dict | None = None, **parameters: str
) -> dict:
    """Return an OpenAPI link to the operation ``method path`` (for stateful clients
    and fuzzers such as schemathesis), its parameters given as runtime expressions and
    named ``<location>.<name>``: ``link("/v1/games/{game_id}", "get", "...",
    path__game_id="$response.body#/id")``."""
    ref = "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method
    out = {
        "operationRef": ref,
        "description": description,
        "parameters": {k.replace("__", ".", 1): v for k, v in parameters.items()},
    }
    if body is not None:
        out["requestBody"] = body
    return out


def links(status: int, **named: dict) -> dict:
    """Return ``blp.doc`` arguments adding the links ``named`` to answer ``status``."""
    return {"responses": {status: {"links": named}}}


def problem_response(description: str, status: int) -> dict:
    """Return an OpenAPI response object for an error: problem+json, ``Problem``."""
    out = {
        "description": description,
        "content": {PROBLEM_MEDIA_TYPE: {"schema": dict(PROBLEM_REF)}},
    }
    if status in (429, 503):
        out["headers"] = {"Retry-After": copy.deepcopy(RETRY_AFTER)}
    return out


WRITES = ("post", "put", "patch", "delete")


def _statuses(operation: dict, path_parameters: list[dict], method: str = "get") -> dict[int, str]:
    """Return the error statuses (with a description) the generic layers give for an
    operation of this shape (``method`` lower-case)."""
    parameters = path_parameters + operation.get("parameters", [])
    tables = [EVERY_OPERATION]
    if any(p.get("in") == "path" for p in parameters):
        tables.append(PATH_PARAMETER)
    if any(p.get("in") == "query" for p in parameters) or "requestBody" in operation:
        tables.append(ARGUMENTS)
    if "requestBody" in operation:
        tables.append(REQUEST_BODY)
    elif method in WRITES:
        tables.append(NO_BODY)
    if any(requirement for requirement in operation.get("security", [])):
        tables.append(SECURED)
    if any("apiToken" in requirement for requirement in operation.get("security", [])):
        tables.append(PERSONAL_TOKEN)
    tables += [HEADER_RULES.get(p.get("name"), {}) for p in parameters if p.get("in") == "header"]
    found: dict[int, list[str]] = {}
    for table in tables:
        for status, description in table.items():
            found.setdefault(status, []).append(description)
    return {status: "; ".join(descriptions) for status, descriptions in found.items()}


def _complete_operation(operation: dict, path_parameters: list[dict], method: str = "get") -> None:
    """Declare the generic errors of one operation, every error as problem+json."""
    responses = operation.setdefault("responses", {})
    responses.pop("default", None)
    for status, description in _statuses(operation, path_parameters, method).items():
        responses.setdefault(str(status), {"description": description})
    for code, response in list(responses.items()):
        if code.isdigit() and int(code) >= 400:
            description = response.get("description") if isinstance(response, dict) else None
            if not description or "$ref" in response:
                description = HTTPStatus(int(code)).phrase
            responses[code] = problem_response(description, int(code))
    for p in operation.get("parameters", []):
        _forbid_nul(p)


def _forbid_nul(parameter: dict) -> None:
    """Write the no-NUL rule into a string query parameter without a pattern."""
    schema = parameter.get("schema", {})
    kind = schema.get("type")
    is_text = kind == "string" or (isinstance(kind, list) and "string" in kind)
    if (
        parameter.get("in") == "query"
        and is_text
        and "pattern" not in schema
        and "enum" not in schema
    ):
        schema["pattern"] = NO_NUL


def text_rules(converter, field, **kwargs) -> dict:
    """apispec attribute function: the pattern of fields validated by
    ``arbiter.text.printable``."""
    validators = getattr(field, "validators", [])
    return {"pattern": printable_pattern()} if printable in validators else {}


def complete(api: Api) -> None:
    """Complete every operation of ``api``'s spec (see the module docstring)."""
    spec = api.spec
    converter = api.ma_plugin.converter
    if text_rules not in getattr(converter, "attribute_functions", []):
        converter.add_attribute_function(text_rules)
    for path in spec._paths.values():
        path_parameters = path.get("parameters", [])
        for method, operation in path.items():
            if method != "parameters" and isinstance(operation, dict):
                _complete_operation(operation, path_parameters, method)
    spec.components.headers["PAGINATION"] = copy.deepcopy(PAGINATION_HEADER)
    for key, name in api.ma_plugin.converter.refs.items():
        extra = getattr(getattr(key[0], "Meta", None), "openapi", None)
        if extra and name in spec.components.schemas:
            spec.components.schemas[name].update(copy.deepcopy(extra))
    for name in [
        n for n in spec.components.responses if n in HTTPStatus.__members__ or n == "DEFAULT_ERROR"
    ]:
        del spec.components.responses[name]


class ArbiterApi(Api):
    """flask-smorest's ``Api`` whose error answers are problem details: no
    flask-smorest ``Error`` schema, no ``default`` answer, and :func:`complete` run on
    the spec once every blueprint is registered (:meth:`finish_spec`)."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None

    def register_blueprint(self, blp, *, parameters=None, **options):
        """Register ``blp`` (as flask-smorest does, its documentation only while the
        process's first spec is built: :meth:`finish_spec`).

        :raises TypeError: ``blp`` is not an ``arbiter.resources.blueprint.Blueprint``
            (whose parser answers every unreadable body with 400 problem+json).
        """
        # arbiter.resources' package imports its routes, which import arbiter.extensions,
        # which imports this module (the Api object): a cycle until that object moves out of
        # arbiter.extensions (issue 21)
        from arbiter.resources.blueprint import Blueprint  # noqa: PLC0415 - TODO

        if not isinstance(blp, Blueprint):
            raise TypeError(
                f"blueprint {blp.name!r}: build REST resources on "
                "arbiter.resources.blueprint.Blueprint, not flask_smorest's"
            )
        if ArbiterApi.built is None:
            converter = self.ma_plugin.converter
            if text_rules not in getattr(converter, "attribute_functions", []):
                converter.add_attribute_function(text_rules)  # before its schemas are read
            super().register_blueprint(blp, parameters=parameters, **options)
            return
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)  # its documentation is built

    built: dict | None = None
    """The spec as this process's first app built it (:meth:`finish_spec`)."""

    def finish_spec(self) -> None:
        """Complete the spec once every blueprint is registered (:func:`complete`); the
        spec is the code's, the same for every app of a process, so a later app takes
        the first one's instead of building it again (most of an app's making: tests
        make one per test)."""
        if ArbiterApi.built is None:
            complete(self)
            ArbiterApi.built = self.spec.to_dict()
        else:
            self.spec = BuiltSpec(ArbiterApi.built)


class BuiltSpec:
    """A spec already built, as :class:`apispec.APISpec` gives it out."""

    def __init__(self, built: dict) -> None:
        self.built = built

    def to_dict(self) -> dict:
        """Return a copy of the spec's dict (callers may change it)."""
        return copy.deepcopy(self.built)
