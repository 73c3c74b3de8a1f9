"""Space Worm: the rules engine for rules/space-worm.md (registry id ``space-worm``).

Modules: ``sheet.py`` (the sheet data, read from ``sheets/*.json``), ``rules.py`` (the
rules as pure functions of a JSON state), ``moves.py`` (the JSON move), ``scoring.py``,
``notation.py`` (``die 3 up``, ``die 5 heart``, the "your turn" brief), ``view.py`` and
``engine.py`` (the :class:`~engines.base.Engine` adapter). ``ENGINE`` is the instance
the registry (``engines/__init__.py``) returns.

Rules summary and every decision taken where the rulebook is silent, with the
timeouts and the notation: the Space Worm page of the docs, ``docs/games/space-worm.md``
(each decision is tested in ``tests/engines/space_worm/``).
"""

from engines.space_worm.engine import SpaceWorm
from engines.space_worm.versions import SpaceWormV1

ENGINE = SpaceWorm()
"""The Space Worm engine registered as ``space-worm``."""

__all__ = ["ENGINE", "SpaceWorm", "SpaceWormV1"]
