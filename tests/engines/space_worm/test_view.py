"""The view: everything is public in Space Worm (rules/space-worm.md hides nothing)."""

from __future__ import annotations

import json

from engines.space_worm import ENGINE
from tests.engines.space_worm.helpers import game, play


def test_every_seat_and_spectators_see_the_same_game() -> None:
    """Given a game in play, then each seat's view equals the spectator's, but for "you"."""
    state = play(game(3, dice=[3, 1, 2, 3, 4, 5, 6, 2]), 0, "die 0 up")
    spectator = ENGINE.view(state, None)
    for seat in range(3):
        mine = ENGINE.view(state, seat)
        assert mine["you"] == seat
        assert dict(mine, you=None) == spectator
    json.dumps(spectator)


def test_the_view_shows_sheets_dice_tracks_and_turn() -> None:
    """Given seat 0 took a red 3 up, then the view shows who took which die, seat 0's
    path and position as ``[row, column]``, the tracks, the start player and whose turn."""
    state = play(game(3, dice=[3, 1, 2, 3, 4, 5, 6, 2]), 0, "die 0 up")
    view = ENGINE.view(state, 1)
    assert view["dice"][0] == {"die": 0, "colour": "red", "pips": 3, "taken_by": 0}
    assert view["dice"][1]["taken_by"] is None
    sheet0 = view["sheets"][0]
    assert sheet0["path"] == [[4, 6], [3, 6], [2, 6], [1, 6]]
    assert sheet0["position"] == [1, 6]
    assert sheet0["hearts"] == 0 and sheet0["hearts_left"] == 4
    assert sheet0["fruit"]["apple"] == {"spaces": 3, "eaten": 0, "plus": 0, "scored": None}
    assert sheet0["score"]["score"] == 8 - 28
    assert view["tracks"]["lime"]["next"] == 9
    assert view["start_player"] == 0 and view["to_move"] == 1
    assert view["start_planet"] == 4 and view["start_roll"] == [3, 4]
    assert view["sheet"]["rows"][4] == "b.....4.l"
    assert view["phase"] == "draft"


def test_the_view_before_the_start_roll_has_the_same_shape() -> None:
    """Given a new game, then the view lists empty sheets with no position yet."""
    view = ENGINE.view(ENGINE.setup(2, ENGINE.load_options(2, {})), None)
    assert [s["position"] for s in view["sheets"]] == [None, None]
    assert view["dice"] == [] and view["phase"] == "start-roll"
