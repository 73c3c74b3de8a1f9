"""Validation of free text that the service stores: names.

The rule is written twice from one table: :func:`printable` checks it, and
:data:`PRINTABLE_PATTERN` states it in the contract (the pattern of every field that
:func:`printable` validates, added by ``arbiter.contract``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from marshmallow import ValidationError

HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co"}
"""Unicode categories refused in names: control, format (e.g. right-to-left override),
surrogate and private-use characters."""

SCANNED = [(0, 0x1FFFF), (0xE0000, 0xE0FFF)]
"""Where characters of those categories are, besides the private-use planes 15 and 16."""
PRIVATE_PLANES = [(0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]


@lru_cache(maxsize=1)
def hidden_class() -> str:
    """Return the regex character class body of the hidden characters, as ranges."""
    ranges, start = [], None
    for low, high in SCANNED:
        for code in range(low, high + 2):
            hidden = code <= high and unicodedata.category(chr(code)) in HIDDEN_CATEGORIES
            if hidden and start is None:
                start = code
            elif not hidden and start is not None:
                ranges.append((start, code - 1))
                start = None

    def char(code: int) -> str:
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    return "".join(
        char(a) if a == b else f"{char(a)}-{char(b)}" for a, b in ranges + PRIVATE_PLANES
    )


def printable(value: str) -> None:
    """Refuse text that is blank or holds control, format, surrogate or private-use
    characters.

    :raises marshmallow.ValidationError: with a sentence saying why.
    """
    if not value.strip():
        raise ValidationError("Must not be blank.")
    if re.search(f"[{hidden_class()}]", value):
        raise ValidationError("Must not contain control or invisible characters.")


def printable_pattern() -> str:
    """Return the JSON Schema pattern of :func:`printable` text: no hidden character,
    and at least one that is not white space."""
    hidden = hidden_class()
    return f"^[^{hidden}]*[^{hidden}\\s][^{hidden}]*$"
