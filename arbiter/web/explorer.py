"""The API explorer at ``/docs/api``: Swagger UI over the service's own contract
(``/openapi.json``, the same document as ``openapi.yaml``), where a script author reads
every operation with its example request and answer, and tries it out against this
service (with a token pasted in "Authorize").

Swagger UI's files come from the ``flask-swagger-ui`` package, served from this process
(``/docs/api/assets/...``), never from a CDN: the explorer works offline. The page runs
under the pages' Content-Security-Policy; its one script of ours,
``static/api-explorer.js``, starts Swagger UI.
"""

from __future__ import annotations

from importlib.resources import files

from flask import render_template, send_from_directory

from arbiter.web.routes import bp

ASSETS = files("flask_swagger_ui") / "dist"
"""Swagger UI's distribution (JavaScript, CSS, icons) as the package ships it."""

ASSET_MAX_AGE = 86_400
"""How long a browser may keep Swagger UI's files (seconds): they change only with the
package."""


@bp.get("/docs/api")
def api_explorer():
    """The explorer page (HTML)."""
    return render_template("api_explorer.html")


@bp.get("/docs/api/assets/<path:name>")
def api_explorer_asset(name: str):
    """One of Swagger UI's files; 404 for any other name."""
    return send_from_directory(str(ASSETS), name, max_age=ASSET_MAX_AGE)
