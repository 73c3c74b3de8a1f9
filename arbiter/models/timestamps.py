"""UTC timestamps that come back timezone-aware from SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


class UTCDateTime(sa.types.TypeDecorator):
    """A DateTime column stored in UTC and always read back as aware UTC."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        """Convert an aware datetime to UTC before storing; refuse naive ones."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored; use UTC-aware ones")
        return value.astimezone(UTC)

    def process_result_value(self, value, dialect):
        """Return the stored value as an aware UTC datetime."""
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def iso(value: datetime | None) -> str | None:
    """Return ``value`` as ``2026-12-01T12:00:00Z`` (None stays None)."""
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
