"""Pages answer their errors as pages (issue 24): an address under the pages' paths
that names nothing (``/games/<id>/undo/abc/accept``: no route takes ``abc`` as a
number) or a method a page does not take gets the HTML error page, not the API's
problem+json; every other address (``/v1/...``, health, metrics) keeps its problem.
"""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from werkzeug.exceptions import HTTPException

from arbiter import problems

SAID = {
    404: "There is no page at this address. The link may be cut short or mistyped.",
    405: "This page cannot be used that way; open it from the game or the menu.",
}
"""What the error page says for each status it answers."""


def page_paths(app: Flask) -> frozenset[str]:
    """Return the first path segments of the pages' routes (``games``, ``me``, ...);
    ``""`` stands for the home page."""
    return frozenset(
        rule.rule.split("/")[1] for rule in app.url_map.iter_rules() if rule.endpoint[:4] == "web."
    )


def is_page(path: str) -> bool:
    """True when ``path`` lies under the pages' paths (not ``/v1``, health, metrics)."""
    paths = current_app.extensions.setdefault("arbiter.page_paths", page_paths(current_app))
    return path.split("/")[1] in paths if path.startswith("/") else False


def answer(err: HTTPException):
    """Answer a 404 or 405: the error page for a page's path, else the problem."""
    if not is_page(request.path):
        return problems._from_http(err)
    return render_template("error.html", message=SAID[err.code]), err.code


def register(app: Flask) -> None:
    """Install :func:`answer` for 404 and 405 (before the problem+json handlers of
    :func:`arbiter.problems.register`, which it falls back on)."""
    for status in SAID:
        app.register_error_handler(status, answer)
