"""Marshmallow fields for what JSON Schema means by its types."""

from __future__ import annotations

from marshmallow import fields


class WholeNumber(fields.Integer):
    """An integer as JSON Schema defines one: any number with no fractional part, so
    ``6`` and ``6.0`` are both 6; never ``true``, ``"6"`` or ``6.5``."""

    def __init__(self, **kwargs) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value):
        """Return ``value`` as an ``int``.

        :raises marshmallow.ValidationError: for anything but a whole number.
        """
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._validated(value)


class JsonBoolean(fields.Boolean):
    """A JSON boolean: ``true`` or ``false`` only, never ``"yes"``, ``"True"``, ``1``
    or ``0`` (marshmallow's Boolean would read those as booleans)."""

    default_error_messages = {"invalid": "Not a boolean: write true or false."}

    def _deserialize(self, value, attr, data, **kwargs) -> bool:
        """Return ``value`` if it is a JSON boolean.

        :raises marshmallow.ValidationError: anything else.
        """
        if type(value) is not bool:
            raise self.make_error("invalid")
        return value


class JsonNumber(fields.Float):
    """A JSON number: ``2``, ``0.5``, never ``"0.5"`` or ``true`` (marshmallow's Float
    would read the string, and ``true`` as 1.0)."""

    default_error_messages = {"invalid": "Not a number: write it without quotes."}

    def _deserialize(self, value, attr, data, **kwargs) -> float:
        """Return ``value`` as a ``float`` if it is a JSON number.

        :raises marshmallow.ValidationError: anything else, or a number too large.
        """
        if type(value) not in (int, float):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)
