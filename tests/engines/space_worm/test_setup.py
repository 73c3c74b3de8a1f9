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


def test_each_player_rolls_for_their_own_start_planet_by_default() -> None:
    """rules/space-worm.md, "Setup": "Roll 2 dice and colour in the Planet of the number
    you rolled", read as each player rolling (option ``start_roll``, default ``each``).

    Given 3 players, then the game asks for one public roll of two dice per seat, from
    the hungriest player (seat 0) clockwise; each worm starts on the Planet of its own
    roll, which counts as eaten, and round 1 starts once all three have rolled.
    """
    state = ENGINE.setup(3, ENGINE.load_options(3, {}))
    assert state["start_roll_rule"] == "each"
    rolls = {0: [1, 1], 1: [3, 4], 2: [5, 6]}
    for seat in (0, 1, 2):
        prompt = ENGINE.prompt(state)
        assert isinstance(prompt, Chance) and prompt.visible_to is None
        assert prompt.spec == {"kind": "dice", "faces": [6, 6], "for": "start-planet", "seat": seat}
        state = ENGINE.resolve(state, rolls[seat])
    assert [s["planets"] for s in state["sheets"]] == [[1], [4], [8]]
    assert [s["path"] for s in state["sheets"]] == [[cell(0, 0)], [cell(4, 6)], [cell(8, 8)]]
    assert state["start_rolls"] == [[1, 1], [3, 4], [5, 6]] and state["start_roll"] is None
    assert ENGINE.prompt(state).spec["for"] == "round" and state["round"] == 1
    view = ENGINE.view(state, None)
    assert view["start_rolls"] == [[1, 1], [3, 4], [5, 6]] and view["start_roll_rule"] == "each"


def test_a_shared_start_roll_is_an_option() -> None:
    """Option ``start_roll: shared``: one public roll of two dice places every worm
    (the rule engine version 1 played; shared/components/space-worm.md, "Decisions").

    Given 3 players and the option, then the game asks for exactly one roll.
    """
    state = ENGINE.setup(3, ENGINE.load_options(3, {"start_roll": "shared"}))
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Chance) and prompt.visible_to is None
    assert prompt.spec == {"kind": "dice", "faces": [6, 6], "for": "start-planet"}
    state = ENGINE.resolve(state, [3, 4])
    assert [s["planets"] for s in state["sheets"]] == [[4]] * 3
    assert state["start_rolls"] == [[3, 4]] * 3 and state["start_roll"] == [3, 4]
    assert ENGINE.prompt(state).spec["for"] == "round"


def test_the_creator_names_the_hungriest_player() -> None:
    """rules/space-worm.md, "Turns": "The hungriest player goes first, takes the start
    player marker, and rolls all 8 dice." Option ``hungriest_seat`` names that seat.

    Given 4 players and seat 2 the hungriest, then seat 2 rolls for its start Planet
    first (then 3, 0, 1), holds the marker in round 1, rolls the 8 dice and chooses
    first; in round 2 the marker has passed clockwise to seat 3.
    """
    state = ENGINE.setup(4, ENGINE.load_options(4, {"hungriest_seat": 2}))
    order = []
    while ENGINE.prompt(state).spec["for"] == "start-planet":
        order.append(ENGINE.prompt(state).spec["seat"])
        state = ENGINE.resolve(state, [3, 4])
    assert order == [2, 3, 0, 1]
    assert state["start_player"] == 2 and ENGINE.prompt(state).spec["roller"] == 2
    state = ENGINE.resolve(state, [1] * 8)
    assert ENGINE.prompt(state) == Decision((2,), kind="choose-die")
    for _ in range(8):
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.play(state, seat, ENGINE.timeout_move(state, seat))
    assert state["start_player"] == 3 and ENGINE.prompt(state).spec["roller"] == 3


@pytest.mark.parametrize(
    "players, options, says",
    [
        (3, {"hungriest_seat": 3}, "no seat 3 in a game of 3 players (seats 0 to 2)"),
        (1, {"hungriest_seat": 1}, "no seat 1 in a game of 1 player (seats 0 to 0)"),
        (3, {"hungriest_seat": -1}, "hungriest_seat"),
        (3, {"hungriest_seat": "1"}, "hungriest_seat"),
        (
            3,
            {"hungriest_seat": 1.5},
            "hungriest_seat",
        ),  # 1.0 is 1 (a JSON Schema integer, issue 16)
        (3, {"hungriest_seat": True}, "hungriest_seat"),
        (3, {"start_roll": "everyone"}, "start_roll"),
        (3, {"start_roll": None}, "start_roll"),
        (3, {"start_roll": ["each"]}, "start_roll"),
    ],
)
def test_bad_start_options_are_refused(players, options, says) -> None:
    """Given a hungriest seat outside the game or a start roll rule other than each or
    shared, then ``bad-options`` with a sentence naming the option."""
    for call in (ENGINE.load_options, ENGINE.setup):
        with pytest.raises(InvalidOptions) as err:
            call(players, options)
        assert err.value.code == "bad-options" and says in err.value.detail


def test_version_1_games_keep_the_shared_roll_and_seat_0() -> None:
    """Given a game created under engine version 1 (options: the sheet only), then it
    still has one shared start roll and seat 0 starts, so its saved log replays
    (issue 15, 4); version 1 refuses the new options."""
    old = ENGINE.at_version("1")
    assert old.version == "1" and ENGINE.at_version("2") is ENGINE
    assert old.load_options(2, {}) == {"sheet": "level1"}
    state = old.setup(2, old.load_options(2, {}))
    assert ENGINE.prompt(state).spec == {"kind": "dice", "faces": [6, 6], "for": "start-planet"}
    assert state["start_player"] == 0
    with pytest.raises(InvalidOptions):
        old.load_options(2, {"start_roll": "each"})


@pytest.mark.parametrize(
    "roll, planet, where",
    [
        ((1, 1), 1, (0, 0)),
        ((1, 2), 1, (0, 0)),
        ((2, 2), 2, (0, 8)),
        ((3, 3), 3, (3, 3)),
        ((3, 4), 4, (4, 6)),
        ((6, 2), 5, (5, 4)),
        ((4, 5), 6, (7, 6)),
        ((5, 5), 7, (8, 0)),
        ((5, 6), 8, (8, 8)),
        ((6, 6), 8, (8, 8)),
    ],
)
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
    player marker, and rolls all 8 dice." Default: seat 0 is the hungriest player.

    Given the start roll, then seat 0 holds the marker and the game asks for 8 dice;
    when they are rolled, then seat 0 chooses first.
    """
    state = started(4)
    prompt = ENGINE.prompt(state)
    assert state["start_player"] == 0
    assert isinstance(prompt, Chance)
    assert prompt.spec["faces"] == [6] * 8 and prompt.spec["roller"] == 0
    assert prompt.spec["colours"] == [
        "red",
        "red",
        "yellow",
        "yellow",
        "purple",
        "purple",
        "green",
        "green",
    ]
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
    """Option ``sheet`` picks a bundled sheet; the default is ``level1`` (and each
    player rolls, seat 0 the hungriest)."""
    assert ENGINE.load_options(2, {}) == {
        "sheet": "level1",
        "start_roll": "each",
        "hungriest_seat": 0,
    }
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
