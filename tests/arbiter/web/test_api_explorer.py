"""The API explorer at /docs/api (issue 27, item 3): Swagger UI over /openapi.json,
its files served by the service itself (no CDN), under the pages' strict
Content-Security-Policy."""

from __future__ import annotations

import re


def test_the_explorer_page_loads_everything_from_this_service(client):
    page = client.get("/docs/api")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    assert 'data-url="/openapi.json"' in html
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/") for s in sources), sources
    for source in sources:
        assert client.get(source).status_code == 200, source


def test_swagger_ui_files_are_served_and_nothing_else(client):
    script = client.get("/docs/api/assets/swagger-ui-bundle.js")
    assert script.status_code == 200
    assert script.mimetype in {"text/javascript", "application/javascript"}
    assert b"SwaggerUIBundle" in script.data
    assert client.get("/docs/api/assets/../../__init__.py").status_code == 404
    assert client.get("/docs/api/assets/nothing.js").status_code == 404
