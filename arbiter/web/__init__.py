"""The web pages (Jinja2 templates, plain forms; JavaScript only enhances them).

``init_app`` registers the pages' blueprint and the security headers every response
carries: a strict Content-Security-Policy (no inline script or style, nothing from
other origins, forms post only here, no framing), ``nosniff`` and no Referer (the
signed link of a turn mail never leaks through one).
"""

from __future__ import annotations

from flask import Flask, Response

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
"""The Content-Security-Policy of every response."""


def security_headers(response: Response) -> Response:
    """Add the security headers to ``response`` (those already set are kept)."""
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def init_app(app: Flask) -> None:
    """Register the pages and the security headers on ``app``."""
    from arbiter.web.routes import bp

    app.register_blueprint(bp)
    app.after_request(security_headers)
