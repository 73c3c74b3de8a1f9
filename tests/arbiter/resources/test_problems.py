"""The one table from domain errors to answers (DESIGN.md, "The write path": the
service raises domain errors and never returns an HTTP status; one table maps them to
problem+json, a page message or a mail reply): every error class, and every code with a
status of its own, is answered with the status the contract documents, and no context
names an HTTP status."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import arbiter
import engines
from arbiter import errors, problems
from arbiter.accounts.links import LinkRefused
from arbiter.games.store import RaceLost, StaleVersion
from arbiter.tournaments.tournament_log import TournamentMoved
from arbiter.uow import AnswerRace
from engines.base import BadOutcome, EngineError, IllegalMove, InvalidMove, InvalidOptions
from engines.star_maps.rules import AlreadyAnswered
from tests.helpers import load_yaml

ROOT = Path(arbiter.__file__).parent.parent
CONTEXTS = ("games", "accounts", "mail", "hooks", "tournaments")

CLASS_STATUS = [
    (errors.ArbiterError, 400, "bad-request", "Bad request"),
    (errors.Unauthorized, 401, "bad-token", "Not authorised"),
    (errors.Forbidden, 403, "forbidden", "Not allowed"),
    (LinkRefused, 403, "bad-link", "Link refused"),
    (errors.NotFound, 404, "not-found", "Not found"),
    (errors.Conflict, 409, "conflict", "Conflict"),
    (StaleVersion, 409, "stale-version", "Conflict"),
    (RaceLost, 409, "stale-version", "Conflict"),
    (AnswerRace, 409, "stale-version", "Conflict"),
    (TournamentMoved, 409, "tournament-moved", "Conflict"),
    (errors.Expired, 410, "expired", "Gone"),
    (errors.Unprocessable, 422, "unprocessable", "Unprocessable request"),
    (errors.TooManyRequests, 429, "rate-limited", "Too many requests"),
    (EngineError, 422, "engine-error", "Not allowed"),
    (IllegalMove, 422, "illegal-move", "Move not allowed"),
    (InvalidMove, 422, "invalid-move", "Move not understood"),
    (InvalidOptions, 422, "invalid-options", "Invalid game settings"),
    (BadOutcome, 422, "bad-outcome", "Outcome does not fit"),
    (AlreadyAnswered, 409, "already-answered", "Not allowed"),
]
"""Each error class with its default code: status and title (RFC 9457 ``title``)."""

CODE_STATUS = [
    (errors.ArbiterError, "malformed-json", 400, "Malformed request"),
    (errors.ArbiterError, "unsupported-media-type", 415, "Unsupported media type"),
    (errors.Unprocessable, "invalid-request", 422, "Invalid request"),
    (errors.Unprocessable, "bad-start", 422, "Unprocessable request"),
    (errors.Unprocessable, "conflicting-versions", 422, "Unprocessable request"),
    (errors.Expired, "link-expired", 410, "Gone"),
    (LinkRefused, "link-expired", 403, "Link refused"),  # a seat link, not a sign-in link
    (errors.ArbiterError, "bad-link", 400, "Bad request"),  # a sign-in link
    (IllegalMove, "not-your-turn", 409, "Move not allowed"),
    (IllegalMove, "game-over", 409, "Move not allowed"),
    (IllegalMove, "awaiting-chance", 409, "Move not allowed"),
    (IllegalMove, "not-your-choice", 409, "Move not allowed"),
    (AlreadyAnswered, "already-answered", 409, "Not allowed"),
    (InvalidMove, "not-your-turn", 409, "Move not understood"),
    (IllegalMove, "no-such-die", 422, "Move not allowed"),
    (errors.Conflict, "game-over", 409, "Conflict"),
    (errors.Unprocessable, "not-your-turn", 422, "Unprocessable request"),  # bulk, tournaments
    (errors.Unprocessable, "bad-bot", 422, "Invalid bot"),
]
"""Codes raised with a class: status and title."""


def raised(cls: type[Exception], code: str | None = None) -> Exception:
    """Return an instance of ``cls`` (with ``code``) as a raise site makes it."""
    if issubclass(cls, EngineError):
        return cls(code, "A sentence.")
    if issubclass(cls, errors.TooManyRequests):
        return cls("A sentence.", 7, code=code)
    err = cls.__new__(cls)
    errors.ArbiterError.__init__(err, "A sentence.", code=code)
    return err


@pytest.mark.parametrize(("cls", "status", "code", "title"), CLASS_STATUS)
def test_every_error_class_has_its_status(cls, status, code, title):
    """Each class is answered with its status, its default code and its title."""
    err = raised(cls)
    assert (problems.status_of(err), err.code, problems.kind(err).title) == (status, code, title)


@pytest.mark.parametrize(("cls", "code", "status", "title"), CODE_STATUS)
def test_codes_with_a_status_of_their_own(cls, code, status, title):
    """A code the table names has its own status (and title) whatever raises it; a
    code entry of the engines does not reach the service's errors."""
    err = raised(cls, code)
    assert (problems.status_of(err), problems.kind(err).title) == (status, title)


def context_modules():
    """Import and return every module of the contexts and of the engines."""
    found = []
    for package in [importlib.import_module(f"arbiter.{c}") for c in CONTEXTS] + [engines]:
        found.append(package)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            found.append(importlib.import_module(info.name))
    return found


def every_subclass(cls: type) -> set[type]:
    """Return ``cls`` and all its subclasses (of the modules imported)."""
    out = {cls}
    for sub in cls.__subclasses__():
        out |= every_subclass(sub)
    return out


def test_no_domain_error_carries_a_status():
    """The service's errors and the engines' name no HTTP status; each has an entry."""
    context_modules()
    classes = every_subclass(errors.ArbiterError) | every_subclass(EngineError)
    assert {LinkRefused, AnswerRace, AlreadyAnswered} <= classes
    for cls in classes:
        assert not hasattr(cls, "status"), cls
        assert not hasattr(raised(cls), "status"), cls
        assert problems.status_of(raised(cls)) in range(400, 500), cls
        assert problems.kind(raised(cls)).title, cls


def test_the_table_covers_every_class_and_code_tested():
    """Every entry of the table is checked above."""
    tested = {cls for cls, *_ in CLASS_STATUS}
    coded = {code for _, code, *_ in CODE_STATUS}
    for key in problems.PROBLEMS:
        if isinstance(key, tuple):
            assert key[1] in coded, key
        else:
            assert key in tested, key


def test_the_contract_documents_the_statuses_of_the_codes():
    """Where an operation of openapi.yaml names a code the table gives a status of its
    own (its response's description), it is under that status."""
    contract = load_yaml((ROOT / "openapi.yaml").read_text())
    documented: dict[str, set[int]] = {}
    for operations in contract["paths"].values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for status, response in (operation.get("responses") or {}).items():
                if str(status).isdigit() and int(status) >= 400:
                    for code in re.findall(r"\b[a-z]+(?:-[a-z]+)+\b", response["description"]):
                        documented.setdefault(code, set()).add(int(status))
    expired = raised(errors.Expired, "link-expired")
    assert documented["link-expired"] == {problems.status_of(expired)} == {410}
    assert documented["invalid-request"] == {422}
    for key, kind in problems.PROBLEMS.items():
        if isinstance(key, tuple) and key[1] in documented:
            assert documented[key[1]] == {kind.status}, key


def test_problem_answers_keep_their_headers():
    """problem+json for REST: the status, the members, ``Retry-After`` for a rate
    limit, ``WWW-Authenticate`` for a missing token."""
    limited = problems.problem_for(errors.TooManyRequests("Wait.", 7, code="invite"))
    assert (limited.status_code, limited.headers["Retry-After"]) == (429, "7")
    assert limited.json == {
        "type": problems.PROBLEM_BASE + "invite",
        "title": "Too many requests",
        "status": 429,
        "detail": "Wait.",
        "code": "invite",
    }
    no_token = problems.problem_for(errors.Unauthorized("Who?"))
    assert no_token.headers["WWW-Authenticate"] == 'Bearer realm="arbiter"'
    late = problems.problem_for(IllegalMove("not-your-turn", "Not now.", {"seat": 1}))
    assert (late.status_code, late.json["title"], late.json["seat"]) == (409, "Move not allowed", 1)


def test_pages_and_mail_replies_read_the_same_table():
    """The web's error page has the REST status; a mail reply has the sentence and code."""
    err = errors.Expired("This sign-in link has expired.", code="link-expired")
    assert problems.page(err) == ("This sign-in link has expired.", 410)
    assert problems.refusal(err) == ("This sign-in link has expired.", "link-expired")


def imports_and_status_keywords(path: Path) -> tuple[set[str], list[int]]:
    """Return the modules ``path`` imports and the lines where it passes ``status=`` to
    an error (a call of a name ending in ``Error`` or of an error class)."""
    names = {n for n in dir(errors) if isinstance(getattr(errors, n), type)} | {
        "IllegalMove",
        "InvalidMove",
        "InvalidOptions",
        "BadOutcome",
        "LinkRefused",
    }
    tree = ast.parse(path.read_text())
    imported, lines = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", None) or ""
            if (name in names or name.endswith("Error")) and any(
                k.arg == "status" for k in node.keywords
            ):
                lines.append(node.lineno)
    return imported, lines


def test_no_error_is_given_a_status():
    """No module passes a status to an error: the table alone decides it."""
    for path in [*(ROOT / "arbiter").rglob("*.py"), *(ROOT / "engines").rglob("*.py")]:
        assert not imports_and_status_keywords(path)[1], path


def test_contexts_do_not_read_the_table():
    """No context (nor engine) imports the table; the errors module knows no Flask."""
    paths = [p for c in CONTEXTS for p in (ROOT / "arbiter" / c).rglob("*.py")]
    for path in [*paths, *(ROOT / "engines").rglob("*.py")]:
        assert "arbiter.problems" not in imports_and_status_keywords(path)[0], path
    imported = imports_and_status_keywords(ROOT / "arbiter" / "errors.py")[0]
    assert not [m for m in imported if m.split(".")[0] in ("flask", "werkzeug")]
