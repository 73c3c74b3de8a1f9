"""The sheet as data: shared/components/space-worm.md ("Known", "Not known") and
DESIGN.md ("every invented value marked as such, so that a real sheet ... can be dropped
in without touching code")."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engines.space_worm import ENGINE
from engines.space_worm.sheet import SHEETS, SheetError, load_directory, parse_sheet

SHEET_DIR = Path(__file__).resolve().parents[3] / "engines" / "space_worm" / "sheets"
SECTIONS = ("map", "planets", "fruit", "dice", "hearts")


def _data(name: str = "level1") -> dict:
    return json.loads((SHEET_DIR / f"{name}.json").read_text(encoding="utf-8"))


def test_level1_and_small_are_bundled_and_level1_is_the_default() -> None:
    """Issue: a default sheet ``level1`` and a second, small sheet."""
    assert {"level1", "small"} <= set(SHEETS)
    assert ENGINE.load_options(1, {})["sheet"] == "level1"


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_every_sum_of_two_dice_maps_to_exactly_one_planet(name) -> None:
    """shared/components/space-worm.md, "Not known": "The sheet data maps every sum 2..12
    to exactly one Planet (some Planets take two sums)"."""
    sheet = SHEETS[name]
    assert sorted(sheet.start_by_sum) == list(range(2, 13))
    assert set(sheet.start_by_sum.values()) <= set(sheet.planets)
    taking_two = [p for p, n in Counter(sheet.start_by_sum.values()).items() if n == 2]
    assert len(taking_two) == 3


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_planets_1_to_8_are_each_on_the_map_once(name) -> None:
    """rules/space-worm.md, "Scoring": the table counts up to 8 Planets not eaten."""
    assert SHEETS[name].planets == list(range(1, 9))


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_four_fruit_types_two_dice_of_each_colour_four_hearts(name) -> None:
    """shared/components/space-worm.md, "Known": eight dice whose colours match the
    four fruit types; four Hearts. "Not known": two dice per fruit colour."""
    sheet = SHEETS[name]
    assert len(sheet.fruits) == 4
    assert len(sheet.dice_colours) == 8
    assert Counter(sheet.dice_colours) == Counter({f.colour: 2 for f in sheet.fruits})
    assert sheet.hearts == 4
    assert sheet.die_faces == 6


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_fruit_tracks_descend_and_every_fruit_has_spaces(name) -> None:
    """shared/components/space-worm.md, "Known": "one descending score track" per fruit."""
    for fruit in SHEETS[name].fruits:
        assert list(fruit.track) == sorted(fruit.track, reverse=True)
        assert fruit.spaces


def test_level1_is_a_grid_of_about_8_to_10() -> None:
    """shared/components/space-worm.md, "Not known": "a grid of about 8x8 to 10x10"."""
    sheet = SHEETS["level1"]
    assert 8 <= sheet.width <= 10 and 8 <= sheet.height <= 10


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_every_value_says_whether_it_is_invented(name) -> None:
    """DESIGN.md: "with every invented value marked as such"."""
    data = _data(name)
    assert data["invented"] is True and data["source"]
    for section in SECTIONS:
        assert isinstance(data[section]["invented"], bool), section
        assert data[section]["source"], section
    for section in ("map", "planets", "fruit", "dice"):
        assert data[section]["invented"] is True, section


def test_a_new_sheet_file_drops_in_with_no_code_change(tmp_path) -> None:
    """DESIGN.md: "a real sheet ... can be dropped in without touching code".

    Given a directory with a new sheet file, when it is loaded, then the sheet is there
    by its file name.
    """
    data = dict(_data(), name="level5", title="Level 5")
    (tmp_path / "level5.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a sheet", encoding="utf-8")
    sheets = load_directory(tmp_path)
    assert list(sheets) == ["level5"]
    assert sheets["level5"].title == "Level 5"


def _broken(**changes) -> dict:
    data = _data()
    for path, value in changes.items():
        section, key = path.split("__")
        data[section] = dict(data[section], **{key: value})
    return data


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"planets__start_by_sum": {str(s): 1 for s in range(2, 12)}}, "every sum"),
        ({"planets__start_by_sum": {**{str(s): 1 for s in range(2, 13)}, "12": 9}}, "Planets"),
        ({"map__rows": ["1..a...b2", "1........"]}, "twice"),
        ({"map__rows": ["1..a", "23"]}, "one length"),
        ({"map__rows": ["12345678abgz"]}, "unknown map symbol"),
        ({"map__rows": ["12345678abg"]}, "no space"),
        ({"dice__colours": ["blue"] * 8}, "die colour"),
        (
            {"fruit__types": [{"type": "apple", "symbol": "a", "colour": "red", "track": [1, 2]}]},
            "highest first",
        ),
        ({"hearts__count": 0}, "hearts"),
    ],
)
def test_a_broken_sheet_is_refused_with_the_reason(changes, words) -> None:
    """Given a sheet that breaks a documented fact, when it is read, then SheetError."""
    with pytest.raises(SheetError) as err:
        parse_sheet("broken", _broken(**changes))
    assert words in str(err.value)


def test_a_section_without_its_source_is_refused() -> None:
    """DESIGN.md: every value says whether it is invented (and where it comes from)."""
    data = _data()
    del data["dice"]["source"]
    with pytest.raises(SheetError):
        parse_sheet("broken", data)
