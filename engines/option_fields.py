"""Fields that accept only what JSON says: an engine's options (and the service's
bodies, :mod:`arbiter.resources.fields`) are JSON, so a flag is ``true`` or ``false``
and nothing that merely looks like one, and an integer is a number without a fraction.

marshmallow's ``Boolean`` also takes ``"yes"``, ``"on"``, ``1``, ``"0"`` and the like
(its ``truthy`` / ``falsy`` sets); a game created with ``"timer": "yes"`` would be
created with the Timer on, although the creator may have meant anything. ``Flag``
refuses them with a sentence a player understands.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields


class JsonBoolean(fields.Boolean):
    """A JSON boolean: ``true`` or ``false`` only, never ``"yes"``, ``"True"``, ``1``
    or ``0`` (marshmallow's Boolean would read those as booleans; ``1 in {True}`` is
    true in Python, so even ``truthy={True}`` takes ``1``)."""

    default_error_messages = {"invalid": "Not a boolean: write true or false."}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        """Return ``value`` if it is a JSON boolean.

        :raises marshmallow.ValidationError: anything else.
        """
        if type(value) is not bool:
            raise self.make_error("invalid")
        return value


class Flag(JsonBoolean):
    """A JSON boolean option: ``true`` or ``false`` only (never ``"yes"``, ``1``, ...).

    :param description: what the option turns on, for ``GET /v1/engines/{id}``.
    Defaults to ``false`` when left out.
    """

    def __init__(self, description: str, **kwargs: Any) -> None:
        kwargs.setdefault("load_default", False)
        super().__init__(metadata={"description": description}, **kwargs)


class WholeNumber(fields.Integer):
    """An integer as JSON Schema defines one: any number with no fractional part, so
    ``6`` and ``6.0`` are both 6; never ``true``, ``"6"`` or ``6.5``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        """Return ``value`` as an ``int``.

        :raises marshmallow.ValidationError: for anything but a whole number.
        """
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._validated(value)
