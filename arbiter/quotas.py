"""Rate limits counted from what the database recorded, and the limits' words: the part
of :mod:`arbiter.limits` that contexts use (no Flask; the ``limits`` library parses the
``RATELIMIT_<NAME>`` strings of the settings)."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter, RateLimiter

from arbiter import settings
from arbiter.errors import TooManyRequests
from arbiter.models.timestamps import utcnow

log = logging.getLogger(__name__)

_counters: dict[int, tuple[settings.Settings, FixedWindowRateLimiter]] = {}
"""Each app's counter (by its settings object, kept alive here): the ``limits``
library's fixed window on the settings' storage (memory, or Redis)."""

WHAT = {
    "create": "games created",
    "write": "changes",
    "read": "reads",
    "sign_in": "sign-in links for this address",
    "sign_in_client": "sign-in links",
    "invite": "invitations to this address",
}
"""What each limit counts, in the 429's sentence."""


def rate(name: str) -> str:
    """Return the limit ``name`` (``create``, ``sign_in`` ...) of the running app's
    settings (``RATELIMIT_<NAME>``), as a ``limits`` string; empty: none."""
    return getattr(settings.current().limits, f"rate_{name}", "")


def check_recorded(name: str, count: Callable[[datetime], tuple[int, datetime | None]]) -> None:
    """Check limit ``name`` against what the database recorded: for each of its
    windows, ``count(since)`` returns how many rows were recorded after ``since`` and
    the oldest of them (a sliding window). The caller records the new row in the same
    transaction, after this (on SQLite the transaction holds the write lock; on
    PostgreSQL the caller serialises with a lock of its own).

    :raises TooManyRequests: 429 ``rate-limited``, ``Retry-After`` when the oldest
        counted row leaves the window.
    """
    spec = rate(name)
    if not settings.current().limits.ratelimit_enabled or not spec:
        return
    now = utcnow()
    for item in parse_many(spec):
        window = timedelta(seconds=item.get_expiry())
        used, oldest = count(now - window)
        if used >= item.amount:
            wait = max(1, math.ceil(((oldest or now) + window - now).total_seconds()))
            raise TooManyRequests(
                f"Too many {WHAT.get(name, name)}: at most {item.amount} "
                f"per {window_words(item)}; try again in {wait} s.",
                retry_after=wait,
            )


def window_words(item) -> str:
    """Return a limit's window in words: ``minute``, ``10 minutes``."""
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"


def _counter() -> FixedWindowRateLimiter:
    """Return the running app's counter (see ``_counters``)."""
    current = settings.current()
    held = _counters.get(id(current))
    if held is None or held[0] is not current:
        storage = storage_from_string(current.limits.ratelimit_storage_uri or "memory://")
        held = _counters[id(current)] = (current, FixedWindowRateLimiter(storage))
    return held[1]


def check(name: str, *key: str) -> None:
    """Count one hit of limit ``name`` for ``key`` in the settings' rate-limit storage
    (the per-address limits contexts count, such as ``invite``).

    :raises TooManyRequests: ``rate-limited`` with ``retry_after`` when over.
    """
    spec = rate(name)
    if not settings.current().limits.ratelimit_enabled or not spec:
        return
    hit(_counter(), "arbiter", name, *key)


def hit(counter: RateLimiter, prefix: str, name: str, *key: str) -> None:
    """Count one hit of limit ``name`` (its ``RATELIMIT_<NAME>`` string) for ``key`` on
    ``counter`` (a ``limits`` strategy), under ``prefix``; a storage that cannot be
    reached is logged and the hit not counted.

    :raises TooManyRequests: ``rate-limited`` with ``retry_after`` when over.
    """
    spec = rate(name)
    if not spec:
        return
    for item in parse_many(spec):
        try:
            allowed = counter.hit(item, prefix, name, *key)
        except Exception:  # noqa: BLE001 - storage down: serve, and say so in the log
            log.warning("rate limit storage unreachable; %s not counted", name, exc_info=True)
            return
        if not allowed:
            reset, _ = counter.get_window_stats(item, prefix, name, *key)
            wait = max(1, math.ceil(reset - time.time()))
            raise TooManyRequests(
                f"Too many {WHAT.get(name, name)}: at most {item.amount} "
                f"per {window_words(item)}; try again in {wait} s.",
                retry_after=wait,
            )
