"""Marshmallow fields for what JSON Schema means by its types (the boolean and the
integer are the engines' own, :mod:`engines.option_fields`, shared with the options)."""

from __future__ import annotations

from marshmallow import fields

import engines
from engines.option_fields import JsonBoolean, WholeNumber

__all__ = ["JsonBoolean", "JsonNumber", "WholeNumber"]


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


def engine_filter(**kwargs) -> fields.String:
    """Return a list's ``engine`` query filter: an engine id, or empty (a form's "any
    engine") for every engine; any other value is 422 ``unknown-engine``."""
    return fields.String(
        metadata={
            "enum": ["", *engines.ENGINE_MODULES],
            "description": "an engine id; empty or absent: every engine "
            "(422 unknown-engine, naming the known ones)",
        },
        **kwargs,
    )
