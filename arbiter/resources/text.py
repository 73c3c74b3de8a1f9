"""Validation of free text that the service stores: names, time zones."""

from __future__ import annotations

import re

from marshmallow import ValidationError

UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


def printable(value: str) -> None:
    """Refuse text that is blank or holds control characters or lone surrogates.

    :raises marshmallow.ValidationError: with a sentence saying why.
    """
    if not value.strip():
        raise ValidationError("Must not be blank.")
    if UNPRINTABLE.search(value):
        raise ValidationError("Must not contain control characters or invalid Unicode.")
