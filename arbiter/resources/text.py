"""Validation of free text that the service stores (names): :mod:`arbiter.text`, shared
by the channels (REST schemas, the web's new-game form) without one importing the
other."""

from arbiter.text import HIDDEN_CATEGORIES, printable, printable_pattern

__all__ = ["HIDDEN_CATEGORIES", "printable", "printable_pattern"]
