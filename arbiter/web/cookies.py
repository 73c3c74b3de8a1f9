"""The pages' signed cookie session, opened only for a request that sends one.

Flask's :class:`~flask.sessions.SecureCookieSessionInterface` builds its signing
serializer (itsdangerous, a key derivation) for every request before it looks for the
cookie; the REST API's callers never send one, so every API request paid for it. Here
a request without the cookie gets a new empty session at once, as Flask would give it;
one with the cookie is read by Flask's own code.
"""

from __future__ import annotations

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface


class CookieSessions(SecureCookieSessionInterface):
    """Flask's cookie sessions, without the serializer when no cookie is sent."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Return the request's session: a new empty one when it sends no session
        cookie (None without ``SECRET_KEY``, as Flask does: a null session), else the
        cookie's as Flask reads it (an empty one when it is forged or expired)."""
        if not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class() if app.secret_key else None
        return super().open_session(app, request)
