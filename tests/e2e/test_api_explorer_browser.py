"""The API explorer at ``/docs/api`` in a real browser with no network (issue 27, item 3
and its "Check": a test fails when ``/docs/api`` needs the network): Debian's Chromium,
every request to anywhere but this machine refused, draws every operation of
``openapi.yaml`` with its examples, from files the service itself serves; "Try it out"
calls the service from the page; and the operations get the page's width (the pages' own
column rule must not narrow Swagger UI's ``<main>``).

The service is the Flask app on a fresh SQLite database, served by werkzeug in a thread:
the explorer needs only the web process's pages, ``/openapi.json`` and Swagger UI's files.
"""

from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml
from werkzeug.serving import make_server

from tests.conftest import free_port

pytestmark = pytest.mark.xdist_group("browser")

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def operations() -> int:
    """Return how many operations ``openapi.yaml`` declares."""
    contract = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    return sum(1 for item in contract["paths"].values() for method in item if method in METHODS)


@pytest.fixture
def served(app):
    """The app served over HTTP on loopback; yields its base URL."""
    port = free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    thread.join(timeout=10)


def offline_page(new_context):
    """Return a page whose requests to anywhere but loopback are refused, and the list
    those refused requests are appended to."""
    refused: list[str] = []
    context = new_context()
    context.set_default_timeout(60_000)

    def route(route):
        url = route.request.url
        if url.startswith(("data:", "blob:")) or urlparse(url).hostname in LOOPBACK:
            route.continue_()
        else:
            refused.append(url)
            route.abort()

    context.route("**/*", route)
    return context.new_page(), refused


def test_the_explorer_draws_every_operation_with_no_network(served, new_context) -> None:
    page, refused = offline_page(new_context)
    page.set_viewport_size({"width": 1280, "height": 900})  # a desktop window
    errors: list[str] = []  # a script's error, a file refused by the page's policy...
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("requestfailed", lambda request: errors.append(f"failed: {request.url}"))
    page.goto(f"{served}/docs/api", wait_until="networkidle")
    page.wait_for_selector(".opblock")
    assert page.locator(".opblock").count() == operations()
    assert refused == [] and errors == [], (refused, errors)
    # the operations use the explorer's width, as its description above them does
    widths = page.evaluate(
        """() => [document.querySelector('#swagger-ui').getBoundingClientRect().width,
                  document.querySelector('.opblock-tag-section').getBoundingClientRect().width]"""
    )
    assert widths[1] >= 0.9 * widths[0], widths
    # an operation opened shows its example request
    creation = page.locator("#operations-games-post_v1_games")
    creation.locator(".opblock-summary").click()
    assert '"engine"' in creation.locator(".body-param__example").first.inner_text()
    # "Try it out" calls this service from the page (its policy lets it connect here)
    engines = page.locator("#operations-engines-get_v1_engines")
    engines.locator(".opblock-summary").click()
    engines.get_by_role("button", name="Try it out").click()
    engines.get_by_role("button", name="Execute").click()
    status = engines.locator(".live-responses-table tbody .response-col_status").first
    assert status.inner_text().strip() == "200"
    assert "space-worm" in engines.locator(".live-responses-table .microlight").first.inner_text()
    assert refused == [] and errors == [], (refused, errors)
