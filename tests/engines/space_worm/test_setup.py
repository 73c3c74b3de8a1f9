"""Setup: rules/space-worm.md, "Setup", and the start decisions of
shared/components/space-worm.md and engines/space_worm/__init__.py."""

from __future__ import annotations

import pytest

from engines.base import Chance, Decision, InvalidOptions
from engines.space_worm import ENGINE
from engines.space_worm.scoring import breakdown
from engines.space_worm.sheet import get_sheet
from tests.engines.space_worm.helpers import cell, started


def test_each_player_takes_a_sheet() -> None:
    """rules/space-worm.md, "Setup": "Each player takes a sheet and a pen."

    Given 4 players, when the game is set up, then there are 4 blank sheets.
    """
    state = ENGINE.setup(4, ENGINE.load_options(4, {}))
    assert len(state["sheets"]) == 4
    for sheet in state["sheets"]:
        assert sheet["path"] == [] and sheet["hearts"] == 0 and sheet["planets"] == []


def test_the_start_planet_is_one_roll_of_two_dice_shared_by_all() -> None:
    """rules/space-worm.md, "Setup": "Roll 2 dice"; decision: one roll shared by everyone.

    Given a new game, then it asks for exactly one public roll of two six-sided dice.
    """
    state = ENGINE.setup(3, ENGINE.load_options(3, {}))
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Chance)
    assert prompt.spec["kind"] == "dice" and prompt.spec["faces"] == [6, 6]
    assert prompt.visible_to is None


@pytest.mark.parametrize("roll, planet, where", [
    ((1, 1), 1, (0, 0)), ((1, 2), 1, (0, 0)), ((2, 2), 2, (0, 8)), ((3, 3), 3, (3, 3)),
    ((3, 4), 4, (4, 6)), ((6, 2), 5, (5, 4)), ((4, 5), 6, (7, 6)), ((5, 5), 7, (8, 0)),
    ((5, 6), 8, (8, 8)), ((6, 6), 8, (8, 8)),
])
def test_colour_in_the_planet_of_the_number_rolled(roll, planet, where) -> None:
    """rules/space-worm.md, "Setup": "colour in the Planet of the number you rolled".

    Given the start roll, then every worm starts on the Planet of its sum (level1 map).
    """
    state = started(3, roll)
    assert state["start_planet"] == planet
    for sheet in state["sheets"]:
        assert sheet["path"] == [cell(*where)]
        assert sheet["planets"] == [planet]


def test_the_start_planet_counts_as_eaten() -> None:
    """shared/components/space-worm.md, "Decisions": the start Planet counts as eaten.

    Given the start roll, then each sheet misses only 7 Planets (penalty 28, not 36).
    """
    state = started(2, (3, 4))
    parts = breakdown(get_sheet("level1"), state["sheets"][0])
    assert parts["planets_eaten"] == [4]
    assert parts["planet_penalty"] == 28


def test_the_hungriest_player_is_seat_0_and_rolls_all_8_dice() -> None:
    """rules/space-worm.md, "Turns": "The hungriest player goes first, takes the start
    player marker, and rolls all 8 dice." Decision: seat 0 is the hungriest player.

    Given the start roll, then seat 0 holds the marker and the game asks for 8 dice;
    when they are rolled, then seat 0 chooses first.
    """
    state = started(4)
    prompt = ENGINE.prompt(state)
    assert state["start_player"] == 0
    assert isinstance(prompt, Chance)
    assert prompt.spec["faces"] == [6] * 8 and prompt.spec["roller"] == 0
    assert prompt.spec["colours"] == ["red", "red", "yellow", "yellow",
                                      "purple", "purple", "green", "green"]
    state = ENGINE.resolve(state, [1, 2, 3, 4, 5, 6, 1, 2])
    assert ENGINE.prompt(state) == Decision((0,), kind="choose-die")
    assert state["dice"] == [1, 2, 3, 4, 5, 6, 1, 2]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_one_to_six_players(players) -> None:
    """Issue 2, item 3: "1 to 6 players"."""
    assert len(started(players)["sheets"]) == players


@pytest.mark.parametrize("players", [0, 7, -1, "2", 2.0])
def test_other_player_counts_are_refused(players) -> None:
    """Issue 2, item 3: 1 to 6 players; anything else is ``bad-player-count``."""
    with pytest.raises(InvalidOptions) as err:
        ENGINE.load_options(players, {})
    assert err.value.code == "bad-player-count"
    with pytest.raises(InvalidOptions):
        ENGINE.setup(players, {})


def test_option_sheet_selects_the_sheet_by_name() -> None:
    """Option ``sheet`` picks a bundled sheet; the default is ``level1``."""
    assert ENGINE.load_options(2, {}) == {"sheet": "level1"}
    state = ENGINE.setup(2, ENGINE.load_options(2, {"sheet": "small"}))
    assert state["sheet"] == "small"


@pytest.mark.parametrize("options", [{"sheet": "level9"}, {"sheet": 3}, {"colour": "red"}])
def test_unknown_options_are_refused(options) -> None:
    """Given an unknown sheet or option, then ``bad-options`` with a sentence."""
    with pytest.raises(InvalidOptions) as err:
        ENGINE.load_options(2, options)
    assert err.value.code == "bad-options"
    if "sheet" in options and isinstance(options["sheet"], str):
        with pytest.raises(InvalidOptions):
            ENGINE.setup(2, options)
