"""Dark Horse: a Bug race of hidden hands and secret goals (rules/dark-horse.md).

Modules: :mod:`.cards` (component data from ``components.json``), :mod:`.track`
(Track movement), :mod:`.rules` (setup, turns, special cards, scoring), :mod:`.view`
(views, the turn brief, secrets), :mod:`.notation` (text moves), :mod:`.engine`.

Rules summary and every decision taken where the book is silent or contradicts itself,
with the timeouts and the notation: the Dark Horse page of the docs,
``docs/games/dark-horse.md`` (each decision is tested in ``tests/engines/dark_horse/``).
"""

from __future__ import annotations

from .engine import DarkHorse
from .versions import DarkHorseV1, DarkHorseV2

ENGINE = DarkHorse()
"""The registered Dark Horse engine (id ``dark-horse``)."""

__all__ = ["ENGINE", "DarkHorse", "DarkHorseV1", "DarkHorseV2"]
