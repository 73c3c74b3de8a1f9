"""``Idempotency-Key``: a retried POST gets its first answer again, and writes nothing.

This is a piece of the channels' edge: a context function never sees it. The edge
calls :func:`answer` with what its channel has (the REST request's key and body, a
web form's key) and a function that runs the context function with a
:class:`~arbiter.uow.UnitOfWork` holding a :class:`Keeper`; the unit of work writes
the answer row when it commits the events.

The first answer is stored in the same transaction as the events of the request, keyed
by ``(scope, key)``; the scope names the route and the caller (the hash of its token,
or of its client address when it sends none: :func:`caller`), so one caller's key
never returns another caller's answer. Stored
answers are sealed (:mod:`arbiter.sealing`: Fernet) with a key derived from
``SECRET_KEY`` and the Idempotency-Key itself, so the tokens some answers carry are
never at rest in clear: reading them back needs the client's key.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter import limits, sealing
from arbiter.errors import Unprocessable
from arbiter.extensions import db
from arbiter.games.store import StaleVersion
from arbiter.models import IdempotentResponse
from arbiter.uow import AnswerRace

MIN_KEY = 16
MAX_KEY = 200
KEY_PATTERN = f"^[!-~]{{{MIN_KEY},{MAX_KEY}}}$"
"""An Idempotency-Key: 16 to 200 visible ASCII characters (no space, no control)."""


def caller(who) -> str:
    """Return who a caller is for idempotency scopes: the SHA-256 of its bearer token,
    or for a caller without a token ``anonymous-<SHA-256 of its client address>`` (the
    address the rate limits count, :func:`arbiter.limits.caller_key`).

    Callers without a token do not share one scope: an answer stored for one (seat
    tokens included) is never returned to a caller from another address, whatever
    key and body it sends. Two clients behind one address (a NAT, a proxy whose
    ``X-Forwarded-For`` is not trusted) still share a scope there; the 16 characters
    or more of a random key (a UUID) are what keeps them apart."""
    if who is not None:
        return who.token_hash
    address = limits.caller_key(None)
    return "anonymous-" + hashlib.sha256(address.encode()).hexdigest()


def caller_scope(game_id: str, who) -> str:
    """Return the idempotency scope of a caller on one game, every route of it:
    ``seat:<game>:<the caller>`` (:func:`caller`), so one caller's key never returns
    another caller's answer, and a key a caller used on one route is refused on another
    (the route is in the request's fingerprint, :func:`request_hash`)."""
    return f"seat:{game_id}:{caller(who)}"


def request_hash(body: Any, route: str | None = None) -> str:
    """Return the fingerprint of a request: the SHA-256 of its body in canonical JSON,
    with the method and route (``"POST moves"``) when given."""
    fingerprint = body if route is None else [route, body]
    # default=str: a loaded body may hold datetimes (start_at) and the like; their ISO
    # text is as canonical as the JSON they came from
    canonical = json.dumps(fingerprint, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def seal(scope: str, key: str, answer: dict) -> dict:
    """Return ``answer`` sealed for storage: ``{"sealed": "<Fernet token>"}``
    (:func:`arbiter.sealing.seal`)."""
    return sealing.seal(scope, key, answer)


def unseal(scope: str, key: str, stored_body: dict) -> dict:
    """Return the answer sealed by :func:`seal`.

    :raises Unprocessable: ``idempotency-key-reused`` when it cannot be opened (the
        service's ``SECRET_KEY`` changed since).
    """
    try:
        return sealing.unseal(scope, key, stored_body)
    except sealing.Unsealable as err:
        raise Unprocessable(
            "This Idempotency-Key was used before and its answer can no "
            "longer be read; use a new key.",
            code="idempotency-key-reused",
        ) from err


LOOK_UP = object()
"""``known`` of :func:`stored` / :func:`answer`: the stored answer has not been read yet."""


def stored(scope: str, key: str, digest: str, known: Any = LOOK_UP) -> tuple[int, dict] | None:
    """Return the stored ``(status, body)`` for ``(scope, key)``, if any.

    :param known: the stored row (or None: there is none) when the caller already
        read it with the game (:func:`arbiter.games.games.load_with_answer`).

    :raises Unprocessable: ``idempotency-key-reused`` when the key was used with
        another body, or ``bad-idempotency-key`` when it is too short or too long.
    """
    if not re.fullmatch(KEY_PATTERN, key):
        raise Unprocessable(
            f"An Idempotency-Key must be {MIN_KEY} to {MAX_KEY} visible ASCII "
            "characters (a random UUID is a good one).",
            code="bad-idempotency-key",
        )
    row = db.session.get(IdempotentResponse, (scope, key)) if known is LOOK_UP else known
    if row is None:
        return None
    if row.request_hash != digest:
        raise Unprocessable(
            "This Idempotency-Key was already used for a different request.",
            code="idempotency-key-reused",
        )
    return row.status, unseal(scope, key, row.body)


class Answered(Exception):
    """A twin request with the same key has answered (raised by
    :meth:`Keeper.replayed`): its stored ``status`` and ``body`` are the answer."""

    def __init__(self, status: int, body: dict) -> None:
        super().__init__(status)
        self.status, self.body = status, body


@dataclass
class Keeper:
    """What a unit of work needs to keep a request's answer
    (:class:`arbiter.uow.AnswerKeeper`): the ``(scope, key)``, the request's
    fingerprint, and how the channel answers a result (``status`` and ``dump``, the
    result as its JSON body)."""

    scope: str
    key: str
    digest: str
    status: int
    dump: Callable[[Any], dict]

    def row(self, result: Any) -> IdempotentResponse:
        """Return the row storing ``result``'s answer, sealed (:func:`seal`)."""
        return IdempotentResponse(
            scope=self.scope,
            key=self.key,
            request_hash=self.digest,
            status=self.status,
            body=seal(self.scope, self.key, self.dump(result)),
        )

    def replayed(self) -> None:
        """:raises Answered: the answer a twin request stored meanwhile, if any."""
        first = stored(self.scope, self.key, self.digest)
        if first:
            raise Answered(*first)


def answer(
    scope: str,
    key: str | None,
    fingerprint: Any,
    status: int,
    dump: Callable[[Any], dict],
    act: Callable[[Keeper | None], Any],
    known: Any = LOOK_UP,
    route: str | None = None,
) -> tuple[int, dict]:
    """Answer a request at most once per ``(scope, key)``: the stored ``(status,
    body)`` of its first time, else ``act``'s result as ``(status, dump(result))``.

    :param fingerprint: what the channel received (the REST body, a form's fields),
        hashed with ``route`` (:func:`request_hash`): the same key with another
        request is refused (422 ``idempotency-key-reused``).
    :param act: runs the context function with ``UnitOfWork(keeper=keeper)``
        (``keeper`` None without a key) and returns its result.
    :param known: the stored row read with the game by the guard, if it was.
    :raises Unprocessable: ``bad-idempotency-key``, ``idempotency-key-reused``.
    """
    if key is None:
        return status, dump(act(None))
    digest = request_hash(fingerprint, route)
    first = stored(scope, key, digest, known)
    if first:
        return first
    try:
        return status, dump(act(Keeper(scope, key, digest, status, dump)))
    except Answered as twin:
        return twin.status, twin.body
    except (StaleVersion, AnswerRace):
        first = stored(scope, key, digest)
        if first:
            return first
        raise
