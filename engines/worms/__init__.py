"""Worms: The Board Game (Mantic / Team17): the rules engine.

``ENGINE`` is the instance the registry imports. See ``DECISIONS.md`` beside this file
for what is implemented, what is not, and every decision taken where the rulebook is
silent.
"""

from engines.worms.engine import ENGINE, WormsEngine

__all__ = ["ENGINE", "WormsEngine"]
