"""The optional rules, each against the book's sentence (rulebook, "Optional Rules";
issue 14, Deliver 3), and contradictory option sets refused with a reason."""

from __future__ import annotations

import pytest

from engines.base import Decision, InvalidOptions
from engines.worms import ENGINE, board
from engines.worms.cards import CARDS
from tests.engines.worms.helpers import (
    add,
    at,
    blue_ready,
    hex_of,
    kind,
    move,
    remove,
    roll,
    shuffle_all,
    start,
)
from tests.engines.worms.test_rules import calm
from tests.engines.worms.test_setup import first_choice


def name(card: str) -> str:
    return card.split("-", 1)[1]


@pytest.mark.parametrize(
    "options,names,words",
    [
        (
            {"no_sudden_death": True, "sudden_death_draft": True},
            ["no_sudden_death", "sudden_death_draft"],
            "nothing to draft",
        ),
        (
            {"setup": "first-game", "larger_map": True},
            ["larger_map", "setup"],
            "first-game map is fixed",
        ),
        ({"setup": "first-game", "youngest": 1}, ["setup", "youngest"], "no setup turns"),
        ({"timer_seconds": 30}, ["timer", "timer_seconds"], "it needs timer: true"),
        ({"extra_tiles": 1}, ["extra_tiles", "larger_map"], "it needs larger_map: true"),
    ],
)
def test_contradictory_options_are_refused_saying_which_and_why(
    options: dict, names: list, words: str
) -> None:
    """An option set that contradicts itself: code contradictory-options, the options
    named (in the detail and the ``options`` member), and why (issue 14, "Bad input")."""
    with pytest.raises(InvalidOptions) as err:
        ENGINE.load_options(2, options)
    assert err.value.code == "contradictory-options" and words in err.value.detail
    assert err.value.extra == {"options": names}
    assert all(n in err.value.detail for n in names)


def test_every_contradiction_is_named_at_once() -> None:
    """Several contradictions in one set: each is named, so one correction is enough."""
    with pytest.raises(InvalidOptions) as err:
        ENGINE.load_options(
            2,
            {
                "setup": "first-game",
                "larger_map": True,
                "no_sudden_death": True,
                "sudden_death_draft": True,
            },
        )
    assert err.value.code == "contradictory-options"
    assert err.value.extra["options"] == [
        "larger_map",
        "no_sudden_death",
        "setup",
        "sudden_death_draft",
    ]


@pytest.mark.parametrize(
    "options,words",
    [
        ({"youngest": 3}, "youngest is a seat"),
        ({"extra_tiles": 5, "larger_map": True}, "extra_tiles"),
        ({"setup": "quick"}, "setup"),
        ({"timer": "yes"}, "timer: Not a boolean"),
        ({"timer": 1}, "timer: Not a boolean"),
        ({"parting_gifts": "true"}, "parting_gifts: Not a boolean"),
        ({"reduced_blast": None}, "reduced_blast"),
        ({"larger_map": 2}, "larger_map: Not a boolean"),
        ({"youngest": True}, "youngest: Not a valid integer"),
        ({"timer": True, "timer_seconds": 30.5}, "timer_seconds: Not a valid integer"),
        ({"timer": True, "timer_seconds": 5}, "timer_seconds"),
        ({"larger": True}, "larger: Unknown field"),
    ],
)
def test_options_of_the_wrong_type_or_range_are_refused(options: dict, words: str) -> None:
    """Every optional rule is a JSON true/false ("timer": "yes" or 1 is not taken for
    true), the numbers strict integers in range: code bad-options, the option named."""
    with pytest.raises(InvalidOptions) as err:
        ENGINE.load_options(2, options)
    assert err.value.code == "bad-options" and words in err.value.detail


def test_larger_map_is_a_flag_with_a_count_of_extra_tiles() -> None:
    """Larger map: "you can add any additional Map Tiles you have to the game. How many
    you add is up to you!": larger_map: true adds every extra tile of the box, and
    extra_tiles chooses how many (the rules read the count)."""
    assert ENGINE.setup(2, {"larger_map": True})["options"]["larger_map"] == 2
    assert ENGINE.setup(2, {"larger_map": True, "extra_tiles": 1})["options"]["larger_map"] == 1
    assert ENGINE.setup(2, {})["options"]["larger_map"] == 0


def test_options_load_twice_the_same() -> None:
    """Loaded options load again unchanged (the arbiter stores and replays them)."""
    for given in (
        {"timer": True, "larger_map": True},
        {"larger_map": True, "extra_tiles": 1},
        {"setup": "first-game", "reduced_blast": True},
    ):
        loaded = ENGINE.load_options(3, given)
        assert ENGINE.load_options(3, loaded) == loaded
    assert loaded["setup"] == "first-game" and loaded["timer_seconds"] is None


def test_version_3_games_keep_their_options() -> None:
    """A game created under version 3 stored larger_map as a count; it loads again on
    version 3 (same rules), and version 3 still reads its options as it did."""
    v3 = ENGINE.at_version("3")
    assert v3.version == "3" and ENGINE.version == "5"
    stored = v3.load_options(2, {"larger_map": 2})
    assert v3.setup(2, stored) == ENGINE.setup(2, {"larger_map": True})


def test_parting_gifts_blast_where_the_die_scatters_the_worm() -> None:
    """Parting Gifts: "When a worm is destroyed, resolve a Blast in its hex. If a worm is
    destroyed by Blast, roll for which hex they are Scattered into before resolving the
    death Blast.\""""
    s = blue_ready(options={"parting_gifts": True})
    s["things"]["R1"]["damaged"] = True
    s = roll(move(s, "play bazooka at 0,1"), 3, 3, 3, purpose="accuracy")  # onto 1,1
    s = roll(s, 1, purpose="blast")  # R1 destroyed; its die says 1: 1,0
    assert "R1" not in s["things"]
    assert [t for t in at(s, "1,0") if t.startswith("crater")]  # the death Blast at 1,0


def test_parting_gifts_damage_death_blasts_its_own_hex() -> None:
    """A worm destroyed by Damage (not a Blast) Blasts its own hex."""
    s = blue_ready(options={"parting_gifts": True}, cards=("baseball-bat",))
    s["things"]["B1"]["damaged"] = True
    s = move(s, "play baseball-bat at -2,1")  # own hex: B1 destroyed
    assert "B1" not in s["things"] and [t for t in at(s, "-2,1") if t.startswith("crater")]
    without = blue_ready(cards=("baseball-bat",))
    without["things"]["B1"]["damaged"] = True
    without = move(without, "play baseball-bat at -2,1")
    assert not [t for t in at(without, "-2,1") if t.startswith("crater")]


def test_true_elimination_plays_on_until_one_team_is_left() -> None:
    """True Elimination: "When a Team is eliminated, it does not trigger the end of the
    game. The game ends only when all but one player has been eliminated.\""""
    s = remove(start(3, options={"true_elimination": True}), "R2")
    s = move(move(move(s, "activate B1"), "skip"), "skip")
    s = roll(roll(move(s, "play bazooka at 0,1"), 3, 3, 3), 2, purpose="blast")  # R1 sinks
    assert "R1" not in s["things"]
    s = calm(s, until_seat=2)  # Yellow plays; no final round
    assert s["final"] is None and s["over"] is None
    s = calm(s, until_seat=0)  # Red is skipped: Blue again
    s = remove(s, *[w for w in ("Y1", "Y2") if w in s["things"]])
    s = calm(s)
    assert ENGINE.prompt(s).result["ranking"][0] == [0]


def test_sudden_death_draft_deal_choose_shuffle_keep_one() -> None:
    """Sudden Death Draft: "shuffle the Sudden Death Cards and deal them equally among the
    players, discarding any extra cards. Each player chooses one of the cards ... shuffle
    the chosen cards and discard all but one\""""
    s = ENGINE.setup(3, {"setup": "first-game", "sudden_death_draft": True})
    while not isinstance(ENGINE.prompt(s), Decision):
        s = shuffle_all(s)
    chosen = []
    for seat in range(3):
        p = ENGINE.prompt(s)
        assert p.kind == "draft" and p.seats == (seat,) and p.private
        dealt = ENGINE.view(s, seat)["draft"]
        assert len(dealt) == len([c for c in CARDS.values() if c["deck"] == "sudden_death"]) // 3
        for other in range(3):
            if other != seat:
                assert not set(ENGINE.secrets(s, seat)) & set(str(ENGINE.view(s, other)))
        mv = ENGINE.legal_moves(s, seat)[-1]
        chosen.append(mv["card"])
        s = ENGINE.play(s, seat, mv)
    assert ENGINE.prompt(s).spec == {"kind": "shuffle", "size": 3, "deck": "sudden_death_chosen"}
    s = shuffle_all(s, {"sudden_death_chosen": [1, 2, 0]})
    assert name(s["drop"][-1]) == chosen[1]
    assert CARDS[name(s["drop"][-1])]["deck"] == "sudden_death"


def test_no_sudden_death_uses_every_drop_card_and_reshuffles() -> None:
    """No Sudden Death: "do not add a Sudden Death Card ... Use all of the Drop Cards ...
    Whenever a player would draw a card from the Drop Deck and it is empty, shuffle
    together all the Drop Cards to form a new deck.\""""
    s = start(2, options={"no_sudden_death": True})
    drops = sum(c["copies"] for c in CARDS.values() if c["deck"] == "drop")
    assert len(s["drop"]) == drops
    assert all(CARDS[name(c)]["deck"] == "drop" for c in s["drop"])
    s["discard"] = s["drop"][1:]
    s["drop"] = []
    s = move(move(move(move(s, "activate B1"), "skip"), "skip"), "skip")
    p = ENGINE.prompt(s)
    assert p.spec["kind"] == "shuffle" and p.spec["size"] == drops - 1 and p.visible_to == ()
    s = ENGINE.resolve(s, list(range(drops - 1)))
    assert "the Drop Deck is reshuffled" in s["log"] and s["sudden_death"] is None


def test_late_superweapons_under_two_cards_per_player() -> None:
    """Late Superweapons: "shuffle all the Superweapon Cards together and place them
    facedown, then shuffle two non-Starter Weapon Cards per player and place them on
    top.\""""
    s = start(3, options={"late_superweapons": True})
    supers = sum(c["copies"] for c in CARDS.values() if c["deck"] == "supply" and c["super"])
    assert len(s["supply"]) == 2 * 3 + supers
    assert not any(CARDS[name(c)]["super"] for c in s["supply"][:6])
    assert all(CARDS[name(c)]["super"] for c in s["supply"][6:])


def test_longer_game_uses_every_drop_card() -> None:
    """Longer game: "Instead of adding two cards into the Drop Deck per player, use all
    the Drop Cards" (the Sudden Death card still at the bottom)."""
    s = start(2, options={"longer_game": True})
    drops = sum(c["copies"] for c in CARDS.values() if c["deck"] == "drop")
    assert len(s["drop"]) == drops + 1
    assert CARDS[name(s["drop"][-1])]["deck"] == "sudden_death"


def test_reduced_blast_no_damage_but_craters_and_scatter() -> None:
    """Reduced Blast: "Blasts deal no Damage (but still add Crater tokens and Scatter
    Things in a hex)": an Oil Drum is moved by its die, not destroyed."""
    s = blue_ready(options={"reduced_blast": True})
    s, drum = add(s, "drum", "1,1")  # with R1
    s = roll(move(s, "play bazooka at 0,1"), 3, 3, 3, purpose="accuracy")
    assert "crater1" in at(s, "1,1")
    s = roll(s, 1, purpose="blast")  # R1: moved to 1,0, not Damaged
    assert hex_of(s, "R1") == "1,0" and not s["things"]["R1"]["damaged"]
    s = roll(s, 1, purpose="blast")  # the drum too: moved, not exploded
    assert hex_of(s, drum) == "1,0"
    assert kind(s) != "oil-drum"


def test_larger_map_extra_tiles_by_the_youngest() -> None:
    """Larger map: "all players place one tile each as normal and then the youngest
    player adds any additional ones being used.\""""
    s = ENGINE.setup(2, {"youngest": 1, "larger_map": True})
    seats, tiles = [], set()
    while ENGINE.prompt(s).kind == "tile":
        seats.append(ENGINE.prompt(s).seats[0])
        tiles.add(ENGINE.legal_moves(s, seats[-1])[0]["tile"])
        s = first_choice(s)
    assert seats == [1, 0, 1, 1]
    assert len(s["land"]) == sum(len(board.MAP["tiles"][t]["hexes"]) for t in ("2", "3", "A", "B"))
    assert ENGINE.setup(2, {})["tiles_left"] == ["2", "3", "A", "B"]
    assert ENGINE.setup(2, {"larger_map": True})["tiles_left"] == ["2", "3", "A", "B", "E", "F"]
