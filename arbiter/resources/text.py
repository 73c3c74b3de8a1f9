"""Validation of free text that the service stores: names."""

from __future__ import annotations

import unicodedata

from marshmallow import ValidationError

HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn"}
"""Unicode categories refused in names: control, format (e.g. right-to-left override),
surrogate, private use and unassigned characters."""


def printable(value: str) -> None:
    """Refuse text that is blank or holds control, format, surrogate, private-use or
    unassigned characters.

    :raises marshmallow.ValidationError: with a sentence saying why.
    """
    if not value.strip():
        raise ValidationError("Must not be blank.")
    if any(unicodedata.category(ch) in HIDDEN_CATEGORIES for ch in value):
        raise ValidationError("Must not contain control or invisible characters.")
