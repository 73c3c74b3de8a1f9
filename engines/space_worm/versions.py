"""The older versions of Space Worm that games created under them keep playing (see
:mod:`engines.base`, "Rules versions")."""

from __future__ import annotations

from engines.space_worm.engine import SpaceWorm, SpaceWormOptionsV1


class SpaceWormV1(SpaceWorm):
    """Space Worm as engine version 1 played it: one shared start roll and seat 0 as the
    hungriest player (its options have neither ``start_roll`` nor ``hungriest_seat``;
    :meth:`SpaceWorm.setup` reads their absence so)."""

    version = "1"
    options_schema = SpaceWormOptionsV1


SpaceWorm.older_versions = (SpaceWormV1,)
