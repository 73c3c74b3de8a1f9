"""Scoring: rules/space-worm.md, "Scoring", and shared/components/space-worm.md."""

from __future__ import annotations

import pytest

from engines.space_worm.scoring import breakdown, planet_penalty
from engines.space_worm.sheet import get_sheet
from tests.engines.space_worm.helpers import game, place

LEVEL1 = get_sheet("level1")


@pytest.mark.parametrize(
    "missed, lost", [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21), (7, 28), (8, 36)]
)
def test_the_unvisited_planet_table_of_the_book(missed, lost) -> None:
    """rules/space-worm.md, "Scoring": "Number of Planets not eaten / VPs Lost":
    1 1, 2 3, 3 6, 4 10, 5 15, 6 21, 7 28, 8 36."""
    assert planet_penalty(missed) == lost


@pytest.mark.parametrize("missed, lost", [(0, 0), (9, 45), (10, 55), (12, 78)])
def test_the_penalty_is_triangular_for_any_count(missed, lost) -> None:
    """shared/components/space-worm.md, "Not known": "scoring uses the triangular numbers
    for any count"; none missed loses nothing."""
    assert planet_penalty(missed) == lost


def test_a_negative_count_is_refused() -> None:
    """A count of Planets cannot be negative."""
    with pytest.raises(ValueError):
        planet_penalty(-1)


@pytest.mark.parametrize("hearts, points", [(0, 8), (1, 6), (2, 4), (3, 2), (4, 0)])
def test_each_heart_not_coloured_is_worth_2_vp(hearts, points) -> None:
    """rules/space-worm.md, "Scoring": "Each heart symbol not coloured in is worth 2 VPs";
    "Turns": colouring a Heart "will cost you 2VP in final scoring"."""
    state = place(game(1), 0, [(4, 6)], hearts=hearts)
    assert breakdown(LEVEL1, state["sheets"][0])["heart_points"] == points


def test_the_score_adds_fruit_and_hearts_and_subtracts_the_planet_penalty() -> None:
    """rules/space-worm.md, "Scoring": "All points from collecting fruit are added
    together", plus 2 VP per uncoloured Heart, minus the unvisited-Planet penalty.

    Given a sheet with apples scored 12 (+1), bananas 8, a +2 on unfinished grapes,
    1 Heart and Planets 1, 2, 4, 5, 6 eaten, then: 13 + 8 + 6 - 6 = 21.
    """
    path = [(0, 0), (0, 3), (0, 8), (2, 7), (7, 1), (4, 0), (8, 3), (0, 7), (4, 6), (5, 4), (7, 6)]
    state = place(
        game(1), 0, path, hearts=1, plus={"apple": 1, "grape": 2}, scored={"apple": 12, "banana": 8}
    )
    parts = breakdown(LEVEL1, state["sheets"][0])
    assert parts["fruit"]["apple"]["points"] == 13
    assert parts["fruit"]["banana"]["points"] == 8
    assert parts["fruit"]["grape"]["points"] == 0
    assert parts["fruit_points"] == 21
    assert parts["heart_points"] == 6
    assert parts["planets_eaten"] == [1, 2, 4, 5, 6]
    assert parts["planets_missed"] == [3, 7, 8]
    assert parts["planet_penalty"] == 6
    assert parts["score"] == 21


def test_every_planet_eaten_loses_nothing() -> None:
    """rules/space-worm.md, "Scoring": the penalty is for Planets "you did not visit"."""
    cells = [get_sheet("level1").coords(c) for c in LEVEL1.planet_cell.values()]
    state = place(game(1), 0, [tuple(c) for c in cells])
    assert breakdown(LEVEL1, state["sheets"][0])["planet_penalty"] == 0
