"""The card set as data (issue 14, Deliver 2): 80+ cards in the rulebook's keywords,
every keyword and term covered, named after the listed weapons, invented cards marked
``sourced: false``; and the new keywords' rules."""

from __future__ import annotations

import re

import pytest

from engines.base import IllegalMove
from engines.worms import ENGINE, board
from engines.worms.cards import CARDS, GRAMMAR
from tests.engines.worms.helpers import add, blue_ready, hex_of, kind, move, roll, start


def copies(deck: str | None = None, super_: bool | None = None) -> int:
    return sum(
        c["copies"]
        for c in CARDS.values()
        if (deck is None or c["deck"] == deck) and (super_ is None or c["super"] == super_)
    )


def test_as_many_cards_as_the_published_box() -> None:
    """Components: 80+ cards: Starter, Supply (with Superweapons), Drop and at least as
    many Sudden Death cards as seats of the largest game (Sudden Death Draft)."""
    assert copies() >= 80
    assert copies("starter") == 4 * ENGINE.max_players  # one of each per player
    assert copies("starter_pool") >= ENGINE.max_players  # the fifth Starter card
    assert copies("supply", super_=True) >= 2 * ENGINE.max_players // 2
    assert copies("supply", super_=False) >= 2 * ENGINE.max_players  # Late Superweapons
    assert copies("drop") >= 2 * ENGINE.max_players + 2
    assert copies("sudden_death") >= 2 * ENGINE.max_players


def test_named_after_the_listed_weapons_and_sourced_marked() -> None:
    """components/worms.md names the weapons; only the Bazooka's text is given."""
    names = {c["name"] for c in CARDS.values()}
    for weapon in (
        "Uzi",
        "Bazooka",
        "Ninja Rope",
        "Girder",
        "Shotgun",
        "Air Strike",
        "Banana Bomb",
        "Holy Hand Grenade",
        "Sheep",
        "Concrete Donkey",
        "Cluster Bomb",
        "Baseball Bat",
        "Sentry Gun",
        "Electromagnet",
    ):
        assert weapon in names
    assert [c["id"] for c in CARDS.values() if c["sourced"]] == ["bazooka"]


def test_every_keyword_has_a_card() -> None:
    """Every GRAMMAR sentence is used, and every term the issue lists is on a card."""

    def sentences(text: str) -> list[str]:
        return [s.strip().lower() for s in text.split(".") if s.strip()]

    used = [s for c in CARDS.values() for s in sentences(c["text"])]
    for pattern, _ in GRAMMAR:
        assert any(re.fullmatch(pattern, s) for s in used), pattern
    texts = " ".join(c["text"] for c in CARDS.values())
    for term in (
        "Non-full hex",
        "Empty hex",
        "Emptiest",
        "Own hex",
        "Inch.",
        "Jump.",
        "Play another card",
        "At End turn",
        "From now on at End turn",
        "Superweapon",
        "Sentry Gun",
        "New Direct hex",
        "Air Strike",
        "Knockback Scatter",
        "Change Wind",
        "Remove a Crater",
        "Accuracy",
    ):
        assert term in texts, term
    lines = {s for c in CARDS.values() for s in c["line"]}
    assert lines == {"text", "move", "draw"}
    sd_rule = [
        c for c in CARDS.values() if c["deck"] == "sudden_death" and "From now on" in c["text"]
    ]
    assert sd_rule


def test_the_catalogue_lists_every_card_for_players() -> None:
    """GET /v1/engines/worms shows the card list (see the API test); here its shape."""
    cards = ENGINE.cards.catalogue()
    assert len(cards) == len(CARDS)
    bazooka = next(c for c in cards if c["id"] == "bazooka")
    assert bazooka == {
        "id": "bazooka",
        "name": "Bazooka",
        "deck": "starter",
        "copies": 4,
        "super": False,
        "line": ["text", "move"],
        "text": "Target a Direct hex. Accuracy 4. Blast.",
        "sourced": True,
        "note": CARDS["bazooka"]["note"],
    }
    assert ENGINE.reference()["things"]["sentry"] == 2


def test_empty_and_non_full_targets() -> None:
    """Empty: "A Land hex with no Things in it"; Non-full: "A Land hex with fewer than
    three Things in it" (Targeting, Keywords and Terms)."""
    s = blue_ready(remove_things=("drum1", "crate2"), cards=("sentry-gun", "mine-layer"))
    empty = {tuple(m["at"]) for m in ENGINE.legal_moves(s, 0) if m.get("card") == "sentry-gun"}
    assert empty == {(-1, 1), (-3, 2)}  # within 2 of B1, Land, no Things
    nonfull = {tuple(m["at"]) for m in ENGINE.legal_moves(s, 0) if m.get("card") == "mine-layer"}
    assert (-2, 1) in nonfull and (-1, 2) not in nonfull  # Water is never Non-full
    with pytest.raises(IllegalMove) as err:
        move(s, "play sentry-gun at -2,1")
    assert err.value.code == "not-empty"


def test_end_of_turn_effect_at_step_6() -> None:
    """6. End turn: "There are some effects that trigger at the end of the turn. Do
    those now": the Electromagnet's "At End turn" text waits for step 6."""
    s = move(blue_ready(cards=("electromagnet",)), "play electromagnet at 1,1")
    s = roll(s, 1, purpose="knockback")  # R1 knocked north: 1,0
    assert hex_of(s, "R1") == "1,0"
    assert kind(s) == "knockback"  # step 6: Own hex, Knockback
    assert s["turn"]["ended"] and s["turn"]["end"]
    s = roll(s, 1, purpose="knockback")  # B1 knocked north
    assert hex_of(s, "B1") == "-2,0"


def test_sentry_gun_is_a_thing_that_fires_at_end_turn() -> None:
    """Sentry Gun: a token that counts as a Thing (components/worms.md); it Damages the
    worms around it at every End turn (invented rule, data/cards.json)."""
    s = blue_ready(remove_things=("drum1",), cards=("sentry-gun",))
    s = move(s, "play sentry-gun at -1,1")  # next to B1 (-2,1)
    gun = [i for i, t in s["things"].items() if t["kind"] == "sentry"]
    assert gun and hex_of(s, gun[0]) == "-1,1"
    assert s["pool"]["sentry"] == board.BOX["sentry"] - 1
    assert not s["things"]["B1"]["damaged"]
    s = move(s, "skip")  # the Movement symbol; End turn
    assert s["things"]["B1"]["damaged"] and "sentry guns fire" in s["log"]


def no_empty_hex_near_b1(engine=ENGINE) -> dict:
    """Return Blue's card step (B1 active at -2,1, both moves skipped) holding a Sentry
    Gun, with a Crater in each Empty hex within 2 of B1 (-1,1 and -3,2), so that "Target
    an Empty hex within 2" has no legal hex."""
    s = start(4)
    for key in ("-1,1", "-3,2"):
        s, _ = add(s, "crater", key)
    s["hands"][0].append("w90-sentry-gun")
    for text in ("activate B1", "skip", "skip"):
        s = engine.play(s, 0, engine.parse(text, s, 0))
    return s


def test_a_card_whose_first_target_has_no_legal_hex_is_played_and_resolves_on() -> None:
    """5. Play a Weapon Card: "completing the actions on the card by reading across the
    Action Line and resolving each symbol in order". Given a Sentry Gun ("Target an Empty
    hex within 2. Place a Sentry Gun.", Action Line Text then Movement) and no Empty hex
    within 2, then it may still be played, without a target: its target step is skipped
    as a later one would be (no Target Token, no Sentry Gun placed), and its Movement
    symbol is resolved (docs/games/worms.md, decision 21)."""
    s = no_empty_hex_near_b1()
    moves = ENGINE.legal_moves(s, 0)
    assert {"move": "play", "card": "sentry-gun"} in moves
    assert not [m for m in moves if m.get("card") == "sentry-gun" and "at" in m]
    with pytest.raises(IllegalMove) as err:
        move(s, "play sentry-gun at -1,1")
    assert err.value.code == "not-empty"
    pool = s["pool"]["sentry"]
    s = move(s, "play sentry-gun")
    assert s["target"] is None and s["pool"]["sentry"] == pool
    assert not [t for t in s["things"].values() if t["kind"] == "sentry"]
    assert kind(s) == "move"  # the Movement symbol
    inch = next(m for m in ENGINE.legal_moves(s, 0) if m["move"] == "inch")
    s = ENGINE.play(s, 0, inch)
    assert hex_of(s, "B1") != "-2,1" and "w90-sentry-gun" in s["discard"]


def test_version_4_games_cannot_play_a_card_whose_first_target_has_no_hex() -> None:
    """Given a game created under engine version 4 (engines/base.py, "Rules versions"),
    then as version 4 played it a Sentry Gun with no Empty hex within 2 is not offered at
    all (5. Play a Weapon Card)."""
    old = ENGINE.at_version("4")
    s = no_empty_hex_near_b1(old)
    assert [m for m in old.legal_moves(s, 0) if m.get("card") == "sentry-gun"] == []
    with pytest.raises(IllegalMove) as err:
        old.play(s, 0, {"move": "play", "card": "sentry-gun"})
    assert err.value.code == "not-a-choice"


def test_draw_a_superweapon() -> None:
    """Superweapons have "no rules effect except when referred to by a card": Super
    Crate draws the first Superweapon of the Supply Deck."""
    s = blue_ready()
    before = list(s["supply"])
    s["stack"].append({"op": "do-draw", "super": True})
    s["ask"] = None
    s = ENGINE.run(s)
    first_super = next(c for c in before if CARDS[c.split("-", 1)[1]]["super"])
    assert first_super in s["hands"][0] and first_super not in s["supply"]
    assert len(s["supply"]) == len(before) - 1


def test_sudden_death_rule_for_the_rest_of_the_game() -> None:
    """Sudden Death Cards "can introduce new rules into the game, and often affect the
    end of players' turns": Firestorm adds, once, a Fire in the active worm's hex at
    every later End turn."""
    order = [4] + [i for i in range(8) if i != 4]  # firestorm is the 5th SD card
    s = start(4, {"sudden_death": order})
    assert s["drop"][-1].endswith("firestorm")
    s["drop"] = s["drop"][-1:]
    s = move(move(move(move(s, "activate B1"), "skip"), "skip"), "skip")
    assert s["sudden_death"].endswith("firestorm") and len(s["rules"]) == 1
    assert not [t for t in s["things"].values() if t["kind"] == "fire"]  # from now on
    s = move(move(move(move(s, "activate R1"), "skip"), "skip"), "skip")  # Red's End turn
    fires = [t["hex"] for t in s["things"].values() if t["kind"] == "fire"]
    assert fires == ["1,1"] and len(s["rules"]) == 1  # R1's hex; the rule added once
