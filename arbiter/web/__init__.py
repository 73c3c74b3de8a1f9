"""The web pages (Jinja2 templates, plain forms; JavaScript only enhances them).

``init_app`` registers the pages' blueprint and the security headers: the pages and
the board pictures carry a strict Content-Security-Policy (no inline script or style,
nothing from other origins, forms post only here, no framing); every response carries
``nosniff`` and no Referer (the signed link of a turn mail never leaks through one).
The pages' cookie session is opened only for a request that sends the cookie
(:mod:`arbiter.web.cookies`).
"""

from __future__ import annotations

from flask import Flask, Response, request

from arbiter.web import (
    account,
    account_routes,  # noqa: F401 - registers the account pages
    agreement_routes,  # noqa: F401 - registers the undo and abort forms
    bot_routes,  # noqa: F401 - registers the bot account pages
    delete_routes,  # noqa: F401 - registers deleting an account
    explorer,  # noqa: F401 - registers the API explorer
    invitation_routes,  # noqa: F401 - registers the invitation page
    notify_routes,  # noqa: F401 - registers the notifications page
    organiser_routes,  # noqa: F401 - registers the organiser's tournament pages
    page_errors,
    replay,  # noqa: F401 - registers the replay pages
    rulebooks,  # noqa: F401 - registers the rulebook pages
    start_routes,  # noqa: F401 - registers the new-game page, the lobby, rematches
    talk_routes,  # noqa: F401 - registers the talk forms of the game page
    tournament_routes,  # noqa: F401 - registers the tournament pages
    webhook_routes,  # noqa: F401 - registers the web hook pages
)
from arbiter.web.cookies import CookieSessions
from arbiter.web.routes import bp

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
"""The Content-Security-Policy of the pages and of the board pictures."""


def security_headers(response: Response) -> Response:
    """Add the security headers to ``response`` (those already set are kept); the CSP
    on the pages and SVG pictures (other routes keep their own pages working)."""
    if request.blueprint == "web" or response.mimetype == "image/svg+xml":
        response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def signed_in_account() -> dict:
    """Template context: the account this browser is signed in as (or None)."""
    return {"signed_in_account": account.signed_in() if request.blueprint == "web" else None}


def init_app(app: Flask) -> None:
    """Register the pages and the security headers on ``app``."""

    app.session_interface = CookieSessions()
    app.register_blueprint(bp)
    app.after_request(security_headers)
    app.context_processor(signed_in_account)
    page_errors.register(app)
