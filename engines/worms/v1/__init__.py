"""Worms engine version 1, frozen: the rules games created under version 1 keep.

A copy of ``engines/worms`` as commit ffd77cf left it (its imports renamed to this
package; ``rules/setup.py``, unused by version 2, left out). Do not change it: a
change here would make the records of those games replay differently. Today's engine
returns it from ``WormsEngine.at_version("1")``; what changed since is listed in
``engines/worms/DECISIONS.md`` ("Engine versions").
"""

from engines.worms.v1.engine import ENGINE, WormsEngine

__all__ = ["ENGINE", "WormsEngine"]
