"""The older versions of Dark Horse that games created under them keep playing (see
:mod:`engines.base`, "Rules versions")."""

from __future__ import annotations

from . import rules
from .cards import V1_COMPONENTS, Components
from .engine import DarkHorse


class DarkHorseV2(DarkHorse):
    """Dark Horse as engine version 2 played it: a pictured Bug's ± card offered both
    directions wherever the Bug stood (played toward the end it stood on, it stayed
    where it was)."""

    version = "2"

    def directions(self, card_id: str, track: list[str]) -> list[str]:
        """Return the directions version 2 offered: both for a pictured Bug, for a
        positions card only those in which every Bug it names can move."""
        return rules.positions_directions(self.components, card_id)


class DarkHorseV1(DarkHorseV2):
    """Dark Horse as engine version 1 played it: dealt from the deck of
    ``components-v1.json``, a positions card offered both directions (a Bug at the end
    of the Track staying where it is) and the black base went on the last Bug placed."""

    version = "1"
    deck: Components = V1_COMPONENTS

    def directions(self, card_id: str, track: list[str]) -> list[str]:
        """Return both directions: version 1 did not ask a positions card's Bugs to be
        able to move together."""
        return list(rules.DIRECTIONS)

    def black_base(self, row: list[str], placed: str) -> str:
        """Return ``placed``: version 1 put the black base on the last Bug placed in the
        draft, wherever it stood in the row."""
        return placed


DarkHorse.older_versions = (DarkHorseV2, DarkHorseV1)
