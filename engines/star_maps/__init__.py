"""Star Maps: the rules engine for rules/star-maps.md (registry id ``star-maps``).

Modules: ``sheet.py`` (the sheet model; sheets are data in ``sheets/*.json``),
``turn.py`` (one seat's answer: the JSON move, its checks, every legal answer),
``bonuses.py`` (bonus effects; the invented list is ``bonuses.json``), ``rules.py``
(rounds, the end, the losers' vote), ``scoring.py``, ``notation.py`` (``star 4 write 2 at
B7``, ``connect C3``), ``view.py`` (view and "your turn" brief) and ``engine.py`` (the
:class:`~engines.base.Engine` adapter). ``ENGINE`` is the instance the registry returns.

Campaigns: option ``unlocked_bonuses`` passes in the bonuses unlocked so far (shared by
every player); the ``Over`` result carries ``unlocked_in_play`` (bonuses unlocked during
the game), ``new_bonus`` (the losers' choice, or None) and ``unlocked_after`` (the
campaign's list for its next game: all of them).

Rules summary and every decision taken where the rulebook is silent, with the
timeouts and the notation: the Star Maps page of the docs, ``docs/games/star-maps.md``
(each decision is tested in ``tests/engines/star_maps/``).
"""

from engines.star_maps.engine import StarMaps
from engines.star_maps.versions import StarMapsV1, StarMapsV2

ENGINE = StarMaps()
"""The Star Maps engine registered as ``star-maps``."""

__all__ = ["ENGINE", "StarMaps", "StarMapsV1", "StarMapsV2"]
