"""The creator's choices for a game's talk, made at creation (``games.talk``).

- ``spectators_read_table``: spectators may read the players' table channel (default
  off: the table is the players');
- ``press``: seats may send private messages to one another (default off; an engine
  whose rules call for press allows it with a class attribute ``press = True``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from arbiter.errors import Unprocessable
from arbiter.models import Game


@dataclass(frozen=True)
class TalkOptions:
    """A game's talk options (see the module)."""

    spectators_read_table: bool = False
    press: bool = False


KEYS = frozenset(TalkOptions.__dataclass_fields__)


def of(game: Game, engine: object | None = None) -> TalkOptions:
    """Return ``game``'s talk options (defaults for a game made before them); press is
    on when the creator chose it or the engine's rules call for it."""
    chosen = game.talk or {}
    press = bool(chosen.get("press")) or bool(getattr(engine, "press", False))
    return TalkOptions(bool(chosen.get("spectators_read_table")), press)


def checked(raw: dict | None) -> dict | None:
    """Return the talk options of a creation request as stored (None: the defaults).

    :raises Unprocessable: ``bad-talk-options`` for an unknown key or a value that is
        not true or false.
    """
    if raw is None:
        return None
    unknown = set(raw) - KEYS
    if unknown or not all(isinstance(v, bool) for v in raw.values()):
        raise Unprocessable(
            f"The talk options are {', '.join(sorted(KEYS))}, each true or false.",
            code="bad-talk-options",
        )
    return asdict(TalkOptions(**raw))
