"""Worms engine version 2, frozen: the rules games created under version 2 keep.

A copy of ``engines/worms`` as commit a4e6e83 left it (its imports renamed to this
package; ``rules/setup.py``, unused by version 2, left out; ``notation.py`` and
``board_words.py``, the same as version 1's, are imported from ``engines.worms.v1``). Do not change
it: a
change here would make the records of those games replay differently. Today's engine
returns it from ``WormsEngine.at_version("2")``; what changed since is listed in
``engines/worms/DECISIONS.md`` ("Engine versions").
"""

from engines.worms.v2.engine import ENGINE, WormsEngine

__all__ = ["ENGINE", "WormsEngine"]
