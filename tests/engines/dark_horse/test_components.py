"""The component data file (rules/dark-horse.md, "Components";
shared/components/dark-horse.md)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engines.dark_horse import DarkHorse
from engines.dark_horse.cards import DEFAULT, load

RAW = json.loads(resources.files("engines.dark_horse").joinpath("components.json").read_text())


def test_counts_match_the_components_list() -> None:
    """Given the data file, then it holds 34 Move cards, 7 Track cards, 14 Goal cards,
    7 Bugs and 3 Ant tokens (rules/dark-horse.md, "Components")."""
    assert len(DEFAULT.move_cards) == 34
    assert len(DEFAULT.spaces) == 7
    assert len(DEFAULT.goal_cards) == 14
    assert [b.name for b in DEFAULT.bugs] == [
        "Fly",
        "Snail",
        "Grasshopper",
        "Bee",
        "Ladybug",
        "Wasp",
        "Caterpillar",
    ]
    assert DEFAULT.ant_tokens == 3


def test_two_goal_cards_per_bug() -> None:
    """Given the Goal cards, then each Bug is on exactly two (components page, "Known")."""
    for bug in DEFAULT.bug_by_id:
        assert sum(g.bug == bug for g in DEFAULT.goal_cards) == 2


def test_track_order_sugar_cube_first_cherry_third_stone_last() -> None:
    """Given the Track, then space 1 is the sugar cube (first), space 3 the cherry and
    space 7 the stone (last); the other names are marked invented (components page,
    "The rulebook contradicts itself", "Not known")."""
    names = [s.name for s in DEFAULT.spaces]
    assert names == ["sugar cube", "hazelnut", "cherry", "acorn", "walnut", "olive", "stone"]
    invented = {t["space"]: t["invented"] for t in RAW["track"]}
    assert invented == {1: False, 2: True, 3: False, 4: True, 5: True, 6: True, 7: False}


def test_the_two_special_cards_are_among_the_34() -> None:
    """Given the Move cards, then one Run for your life! and one Bad encounter! are
    among them, known, while the rest of the deck is marked invented
    (rules/dark-horse.md, "Special Cards"; components page)."""
    kinds = [m["kind"] for m in RAW["move_cards"]]
    assert kinds.count("run-for-your-life") == 1 and kinds.count("bad-encounter") == 1
    for m in RAW["move_cards"]:
        special = m["kind"] in ("run-for-your-life", "bad-encounter")
        assert m["invented"] is (not special), m["id"]


def test_invented_deck_has_every_kind_the_book_names() -> None:
    """Given the invented deck, then each Bug has +1, +2, ±1 and one backward card: -3
    for the Snail, the Bee and the Caterpillar ("Example: The player plays a -3 Move
    card", the Caterpillar ending on the acorn), -1 for the others; two cards name one
    Track position ±1 and two name two positions ±1 ("A card showing two board
    positions"); all still marked invented (rules/dark-horse.md, "Gameplay"; components
    page, "Not known": "-3 and ±1, cards naming one Track position ±1, cards naming two
    Track positions ±1")."""
    for bug in DEFAULT.bug_by_id:
        back = -3 if bug in ("snail", "bee", "caterpillar") else -1
        mine = sorted((m.kind, m.steps) for m in DEFAULT.move_cards if m.bug == bug)
        assert mine == [("bug", back), ("bug", 1), ("bug", 2), ("bug-either", 1)], bug
    positions = {m.id: m.positions for m in DEFAULT.move_cards if m.kind == "positions"}
    assert positions == {
        "mv-position-2": (2,),
        "mv-position-5": (5,),
        "mv-positions-1-2": (1, 2),
        "mv-positions-6-7": (6, 7),
    }
    assert all(m["invented"] for m in RAW["move_cards"] if m["id"] in positions)


def test_version_1_games_keep_their_deck() -> None:
    """Given the deck engine version 1 dealt from (``components-v1.json``), then it is
    the old invented deck (-1 for every Bug, four two-position cards) and the version 1
    engine deals from it, so its games replay as they were dealt."""
    from engines.dark_horse import ENGINE
    from engines.dark_horse.cards import V1_COMPONENTS

    old = V1_COMPONENTS
    assert len(old.move_cards) == 34 and ENGINE.at_version("1").components is old
    assert sorted(m.steps for m in old.move_cards if m.bug == "caterpillar") == [-1, 1, 1, 2]
    assert [m.positions for m in old.move_cards if m.kind == "positions"] == [
        (1, 2),
        (3, 4),
        (4, 5),
        (6, 7),
    ]
    assert ENGINE.at_version("2").components is ENGINE.components
    assert ENGINE.at_version("3") is ENGINE and ENGINE.at_version("4") is None


def test_a_positions_card_whose_bugs_can_never_move_together_is_refused() -> None:
    """Given a card naming spaces 1 and 7 (the front Bug cannot go forward, the stone's
    Bug cannot go back), when loaded, then it is refused: it could never be played
    (rules/dark-horse.md, "Gameplay": "each Bug must move in the same direction")."""
    data = json.loads(json.dumps(RAW))
    data["move_cards"][0] = {
        "id": "mv-positions-1-7",
        "kind": "positions",
        "positions": [1, 7],
        "steps": 1,
    }
    with pytest.raises(ValueError, match="neither forward nor backward"):
        load(data)


def test_scoring_chart() -> None:
    """Given the chart, then 1st scores 10 and 3rd 6 as in Steve's example, the whole
    chart being 10, 8, 6, 4, 3, 2, 1 (rules/dark-horse.md, "End of the Game")."""
    assert DEFAULT.scoring_chart == (10, 8, 6, 4, 3, 2, 1)
    assert DEFAULT.scoring_chart[0] == 10 and DEFAULT.scoring_chart[2] == 6


def test_card_ids_are_distinctive() -> None:
    """Given all card ids, then none is part of another, so a leak search for one id
    finds that card only (issue 3, "Secrets hold everywhere")."""
    ids = [m.id for m in DEFAULT.move_cards] + [g.id for g in DEFAULT.goal_cards]
    assert len(set(ids)) == 48
    assert not any(a != b and a in b for a in ids for b in ids)
    assert all(i.startswith("mv-") for i in ids[:34])
    assert all(i.startswith("goal-") for i in ids[34:])


def test_labels_read_like_the_cards() -> None:
    """Given cards of each kind, then their labels read as printed (rules/dark-horse.md,
    "Gameplay")."""
    assert DEFAULT.label("mv-ladybug+2") == "Ladybug +2"
    assert DEFAULT.label("mv-fly-1") == "Fly -1"
    assert DEFAULT.label("mv-bee-pm1") == "Bee ±1"
    assert DEFAULT.label("mv-positions-1-2") == "Positions 1 and 2 ±1"
    assert DEFAULT.label("mv-position-5") == "Position 5 ±1"
    assert DEFAULT.label("mv-caterpillar-3") == "Caterpillar -3"
    assert DEFAULT.label("mv-run-for-your-life") == "Run for your life!"
    assert DEFAULT.label("mv-bad-encounter") == "Bad encounter!"


@pytest.mark.parametrize(
    "breakage",
    [
        lambda d: d["scoring_chart"].update(points=[10, 8, 6]),
        lambda d: d["goal_cards"].append({"id": "goal-moth-1", "bug": "moth"}),
        lambda d: d["move_cards"].append(
            {"id": "mv-fly+1", "kind": "bug", "bug": "fly", "steps": 1}
        ),
        lambda d: d["track"].pop(),
        lambda d: d["move_cards"].append(
            {"id": "mv-positions-0-9", "kind": "positions", "positions": [0, 9], "steps": 1}
        ),
        lambda d: d["move_cards"].append(
            {"id": "mv-fly+1x", "kind": "bug", "bug": "fly", "steps": 1}
        ),
    ],
)
def test_a_broken_set_is_refused(breakage) -> None:
    """Given a component set breaking a fact the rules need, when loaded, then it is
    refused with a ValueError (components page: a real deck replaces the file)."""
    data = json.loads(json.dumps(RAW))
    breakage(data)
    with pytest.raises(ValueError):
        load(data)


def test_too_few_goal_cards_for_six_players_is_refused() -> None:
    """Given 12 Goal cards, when an engine is built, then it is refused: 6 players need
    12 dealt and one to draw for Bad encounter! (rules/dark-horse.md, "Setup" 1)."""
    data = json.loads(json.dumps(RAW))
    data["goal_cards"] = data["goal_cards"][:12]
    with pytest.raises(ValueError):
        DarkHorse(load(data))
