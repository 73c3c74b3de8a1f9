"""How long a search bot thinks at each level: iterations and CPU time, whichever ends
first."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """A search's limits: at most ``iterations`` playouts and ``seconds`` of CPU time
    (``time.process_time``) for one move; ``None`` lifts that limit (not both)."""

    iterations: int | None
    seconds: float | None


LEVELS: dict[int, Budget] = {
    1: Budget(iterations=16, seconds=0.02),
    2: Budget(iterations=48, seconds=0.05),
    3: Budget(iterations=200, seconds=0.2),
    4: Budget(iterations=2000, seconds=0.5),
    5: Budget(iterations=100_000, seconds=0.9),
}
"""Level -> budget. Levels 1 and 2 take tens of milliseconds (tests and service games
stay quick); level 5 is bound by its 0.9 s of CPU per move (issue 25: at most 1 s)."""


def for_level(level: int) -> Budget:
    """Return the budget of ``level`` (1 to 5).

    :raises KeyError: no such level.
    """
    return LEVELS[level]
