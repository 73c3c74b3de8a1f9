"""Small JSON values sealed at rest (Fernet, from the ``cryptography`` library).

A value is sealed under a key derived from ``SECRET_KEY`` and the value's own
``(scope, key)``: the stored answers of :mod:`arbiter.idempotency` (scoped by caller,
keyed by the client's ``Idempotency-Key``, so reading one back needs the client's key)
and the web hooks' signing secrets (:mod:`arbiter.hooks.webhooks`). Neither is ever at
rest in clear.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

from cryptography.fernet import Fernet, InvalidToken
from flask import current_app


class Unsealable(ValueError):
    """A sealed value cannot be opened (the service's ``SECRET_KEY`` changed since it
    was sealed, or it was not sealed under this ``(scope, key)``)."""


def _fernet(scope: str, key: str) -> Fernet:
    """Return the cipher for one ``(scope, key)``: its key is HMAC-SHA256 of them under
    ``SECRET_KEY``."""
    secret = current_app.config["SECRET_KEY"].encode()
    digest = hmac.new(secret, f"{scope}\n{key}".encode(), hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def seal(scope: str, key: str, value: dict) -> dict:
    """Return ``value`` sealed for storage: ``{"sealed": "<Fernet token>"}``."""
    token = _fernet(scope, key).encrypt(json.dumps(value).encode())
    return {"sealed": token.decode()}


def unseal(scope: str, key: str, stored: dict) -> dict:
    """Return the value sealed by :func:`seal`.

    :raises Unsealable: it cannot be opened under ``(scope, key)`` and this
        ``SECRET_KEY``.
    """
    try:
        return json.loads(_fernet(scope, key).decrypt(stored["sealed"].encode()))
    except (InvalidToken, KeyError) as err:
        raise Unsealable(f"cannot open a value sealed for {scope!r}") from err
