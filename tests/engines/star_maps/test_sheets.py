"""Sheets and bonuses as data, with every invented value marked.

rules/star-maps.md, "Components", "Setup" (identical sheets); components/star-maps.md,
"Not known: the engine's documented defaults".
"""

from __future__ import annotations

import json

import pytest

from engines.base import InvalidOptions
from engines.star_maps import ENGINE
from engines.star_maps.sheet import DIE_VALUES, SHEETS, SHEETS_DIR, SheetError, load_layout

DATA_KEYS = {"title", "types", "boxes", "stars", "connections", "arms", "locks", "scoring"}


def raw(name):
    return json.loads((SHEETS_DIR / f"{name}.json").read_text(encoding="utf-8"))


def test_two_sheets_ship_one_plain_and_one_with_arms_locks_and_a_pre_filled_star():
    """Components, "Not known": "ship at least two invented sheets as data: one plain, one
    with arms, locks, a pre-filled locked star and a sheet scoring rule"."""
    assert set(SHEETS) >= {"plain", "arms"}
    plain, arms = SHEETS["plain"], SHEETS["arms"]
    assert not plain.arms and not plain.locks
    assert arms.arms and arms.locks and arms.scoring
    prefilled = [s for s in arms.stars.values() if s.value is not None]
    assert prefilled and all(s.arm for s in prefilled)


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_every_sheet_has_six_types_two_boxes_per_star_and_marks_what_is_invented(name):
    """Components: the die chosen as the star picks a star type, six types keyed to 1-6
    (invented names). Then each type has a star, each star two different boxes, and every
    data section is listed as invented."""
    layout = SHEETS[name]
    assert sorted(layout.types) == list(DIE_VALUES)
    assert all(layout.type_stars[d] for d in DIE_VALUES)
    assert all(len(set(s.boxes)) == 2 for s in layout.stars.values())
    data = raw(name)
    assert set(data["invented"]) == DATA_KEYS and "Invented" in data["source"]


def test_the_sheet_option_selects_the_sheet():
    """Setup: each player needs an identical game sheet. Given option sheet=arms, then every
    seat plays the arms sheet; an unknown sheet is refused; the default is plain."""
    assert ENGINE.setup(2, {"sheet": "arms"})["sheet"] == "arms"
    assert ENGINE.setup(2, {})["sheet"] == "plain"
    with pytest.raises(InvalidOptions):
        ENGINE.setup(2, {"sheet": "nebula"})
    with pytest.raises(InvalidOptions):
        ENGINE.setup(5, {})


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["stars"]["a1"].update(boxes=["A1"]),  # one box
        lambda d: d["stars"]["a1"].update(boxes=["A1", "A2", "A3"]),  # three boxes
        lambda d: d["connections"].update(C9=["zz", "A1"]),  # unknown id
        lambda d: d["stars"]["a1"].update(type=7),  # no such type
        lambda d: d["scoring"].append({"rule": "per-moon", "points": 1}),
        lambda d: d.pop("invented"),
        lambda d: d["locks"].update(L9={"connections": ["C9"]}),
    ],
)
def test_a_sheet_that_is_not_playable_is_refused_at_load(change):
    """Using the Dice, step 3 (a star has two boxes) and Final Scoring (known rules). Given
    a broken sheet file, then loading it raises SheetError."""
    data = raw("plain")
    change(data)
    with pytest.raises(SheetError):
        load_layout(data)
