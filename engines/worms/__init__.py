"""Worms: The Board Game (Mantic / Team17): the rules engine.

``ENGINE`` is the instance the registry imports; the older rules versions it still plays
are in ``versions.py``. See ``docs/games/worms.md`` (the Worms page of the docs) for what
is implemented, what is not, and every decision taken where the rulebook is silent.
"""

from engines.worms.engine import WormsEngine
from engines.worms.versions import WormsV1, WormsV2, WormsV3, WormsV4

ENGINE = WormsEngine()
"""The Worms engine registered as ``worms``."""

__all__ = ["ENGINE", "WormsEngine", "WormsV1", "WormsV2", "WormsV3", "WormsV4"]
