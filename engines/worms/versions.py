"""The older versions of Worms that games created under them keep playing (see
:mod:`engines.base`, "Rules versions"): each class is the delta to the next newer one.
"""

from __future__ import annotations

from engines.base import Engine
from engines.worms import options_v3
from engines.worms.engine import WormsEngine
from engines.worms.v1.engine import WormsEngine as FrozenV1
from engines.worms.v2.engine import WormsEngine as FrozenV2


class WormsV3(WormsEngine):
    """Worms as engine version 3 played it: today's rules with version 3's option schema
    (:mod:`engines.worms.options_v3`: ``larger_map`` a count, flags read loosely) so that
    its stored options load."""

    version = "3"
    options_schema = options_v3.WormsOptionsV3

    def load_options(self, players: int, options) -> dict:
        """Validate options as version 3 did.

        :raises InvalidOptions: ``bad-player-count``, ``bad-options``.
        """
        return options_v3.check(Engine.load_options(self, players, options), players)

    def setup(self, players: int, options) -> dict:
        """Return the start state of version 3 (its options are the rules' options)."""
        return self.new_state(players, self.load_options(players, options))


WormsEngine.older_versions = (WormsV3, FrozenV2, FrozenV1)
