"""Rate limits, kept by Flask-Limiter's storage (in memory on the embedded default,
Redis when ``CELERY_BROKER_URL`` is Redis or ``RATELIMIT_STORAGE_URI`` says so).

Limits are checked by name, from configuration (``RATELIMIT_<NAME>``, a
``limits`` string such as ``"20 per minute;200 per day"``; empty: no limit):

``create``      game creation, per caller
``write``       moves, resignations, clock and account changes, per caller
``read``        reads that take a token, per caller
``sign_in``     sign-in links, per mailbox (and ``sign_in_client`` per client IP)
``invite``      invitations to one mailbox from one creator

A caller is an account (all its tokens together), a game token, or the client's IP
address without a token. The request guard checks ``create``/``write``/``read`` right
after authentication, before the body is read; the services check the per-address
ones. Over a limit: 429 ``rate-limited`` with ``Retry-After`` (seconds), nothing done.
When the storage cannot be reached the request is served and a warning logged (a
Redis outage does not stop the game). ``RATELIMIT_KEY_PREFIX`` separates deployments
that share one Redis.

The two sign-in limits are counted in the database instead
(:func:`arbiter.quotas.check_recorded`,
from the sign-in link rows), so that they hold across web processes on the embedded
default too, where Flask-Limiter's storage is each process's memory.

We call Flask-Limiter's rate limiter (``Limiter.limiter``, the ``limits`` library)
from the guard instead of decorating views, because a limit must be counted after
authentication and before flask-smorest parses the body, and some keys (an email
address) come from the body.
"""

from __future__ import annotations

import logging

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from arbiter import quotas

log = logging.getLogger(__name__)


def init_app(app: Flask) -> Limiter:
    """Make the app's limiter from its ``RATELIMIT_*`` config; return it."""
    limiter = Limiter(key_func=get_remote_address, default_limits=[], headers_enabled=False)
    limiter.init_app(app)
    app.extensions["arbiter_limiter"] = limiter
    return limiter


def caller_key(who) -> str:
    """Return whom a limit counts: ``account:<id>``, ``token:<hash>`` or ``ip:<addr>``."""
    if who is not None and who.is_account:
        return f"account:{who.account.id}"
    if who is not None:
        return f"token:{who.token_hash}"
    return f"ip:{get_remote_address() if request else 'none'}"


def check(name: str, *key: str) -> None:
    """Count one hit of limit ``name`` for ``key``.

    :raises TooManyRequests: 429 ``rate-limited`` with ``retry_after`` when over.
    """
    limiter: Limiter = current_app.extensions["arbiter_limiter"]
    if limiter.enabled:
        prefix = current_app.config.get("RATELIMIT_KEY_PREFIX") or "arbiter"
        quotas.hit(limiter.limiter, prefix, name, *key)
