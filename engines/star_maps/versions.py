"""The older versions of Star Maps that games created under them keep playing (see
:mod:`engines.base`, "Rules versions")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from engines.base import JSON, IllegalMove
from engines.star_maps import rules, turn
from engines.star_maps.bonuses import BONUS_IDS, NO_BONUS
from engines.star_maps.engine import StarMaps
from engines.star_maps.sheet import SHEETS, Layout


class StarMapsV2(StarMaps):
    """Star Maps as engine version 2 played it: a pre-filled star was found from the start,
    so once unlocked it scored and completed its type while its two boxes were still
    empty."""

    version = "2"
    sheets: Mapping[str, Layout] = {
        sid: replace(layout, prefilled_found=True) for sid, layout in SHEETS.items()
    }


class StarMapsV1(StarMapsV2):
    """Star Maps as engine version 1 played it: bonuses came only from the campaign (none
    unlocked during play, and its results list none), the losers had to choose one
    (``none`` is ``bonus-required``; a loser who times out votes for the first bonus
    still locked), and Leap was unknown."""

    version = "1"
    bonuses = tuple(b for b in BONUS_IDS if b != "leap")
    unlocked_by: Mapping[int, str] = {}
    blank_votes = ()

    def play(self, state: dict, seat: int, move: JSON) -> dict:
        """Apply the move as version 2 does, except that a vote for no bonus is refused.

        :raises IllegalMove: ``bonus-required``, and as :meth:`StarMaps.play`.
        """
        if state["phase"] == rules.VOTE:
            turn.read_move(move)
            rules.check_seat(state, seat)
            if move["act"] == "choose-bonus" and move["bonus"] == NO_BONUS:
                raise IllegalMove(
                    "bonus-required",
                    "In this game (engine version 1) the losers choose one bonus: one of "
                    f"{', '.join(rules.candidates(self, state))}.",
                )
        return _unlocks_unlisted(super().play(state, seat, move))

    def resolve(self, state: dict, outcome: JSON) -> dict:
        """Apply the roll as version 2 does (its result lists no unlocks in play)."""
        return _unlocks_unlisted(super().resolve(state, outcome))

    def timeout_move(self, state: dict, seat: int) -> JSON:
        """Return the first legal move, at the vote too (the first bonus still locked).

        :raises IllegalMove: the seat owes no move.
        """
        rules.check_seat(state, seat)
        return self.legal_moves(state, seat)[0]


def _unlocks_unlisted(state: dict) -> dict:
    """Return ``state`` with a result that has no ``unlocked_in_play`` (version 1's)."""
    result = state["result"]
    if not result or "unlocked_in_play" not in result:
        return state
    return {**state, "result": {k: v for k, v in result.items() if k != "unlocked_in_play"}}


StarMaps.older_versions = (StarMapsV2, StarMapsV1)
