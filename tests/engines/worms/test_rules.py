"""Rules of Worms, section by section (rulebook: engines/rules/worms.md).

First-game map (engines/worms/data/map.json), 2 players: Blue B1 at -2,1, B2 at -3,3;
Red R1 at 1,1, R2 at 1,-1. Directions: 1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW.
"""

from __future__ import annotations

import random

import pytest

from arbiter.playout import random_game
from engines.base import Decision, Over
from engines.worms import ENGINE, board
from engines.worms.rules import accuracy_dice
from tests.engines.worms.helpers import (
    BULLSEYE,
    DANGER,
    SAFE,
    WIND,
    add,
    at,
    blue_ready,
    hex_of,
    kind,
    move,
    put,
    remove,
    roll,
    start,
)

# ---------------------------------------------------------------- Accuracy X


@pytest.mark.parametrize("distance,dice", [(0, 4), (1, 4), (2, 3), (3, 2), (4, 1), (7, 1)])
def test_accuracy_example(distance: int, dice: int) -> None:
    """Accuracy 4: 4 dice in or next to the worm's hex, 3 one further, 2 further still,
    then 1, never below 1 (Accuracy X, the blue/purple/red example)."""
    assert accuracy_dice(4, distance) == dice


@pytest.mark.parametrize(
    "target,dice", [("-2,1", 4), ("-1,1", 4), ("0,1", 3), ("1,1", 2), ("2,1", 1), ("3,1", 1)]
)
def test_accuracy_counts_phantom_water(target: str, dice: int) -> None:
    """Given B1 at -2,1 firing the Bazooka (Accuracy 4) along direction 3, the dice
    follow the distance, Water and phantom hexes counted (Accuracy X)."""
    s = move(blue_ready(), f"play bazooka at {target}")
    assert ENGINE.prompt(s).spec["faces"] == [8] * dice


def test_accuracy_one_distinct_face_needs_no_pick() -> None:
    """Given every Accuracy die shows the same face, there is nothing to choose."""
    s = move(blue_ready(), "play bazooka at 0,1")
    s = roll(s, 3, 3, 3, purpose="accuracy")
    assert s["target"]["hex"] == "1,1"
    assert kind(s) == "blast"


def test_pick_die_must_be_rolled() -> None:
    """Choosing a die that was not rolled is refused with ``no-such-die``."""
    from engines.base import IllegalMove

    s = roll(move(blue_ready(), "play bazooka at 0,1"), 1, 2, 3, purpose="accuracy")
    with pytest.raises(IllegalMove) as err:
        move(s, "pick die 5")
    assert err.value.code == "no-such-die"


# ---------------------------------------------------------------- Blast, Damage


def test_blast_worms_first_in_the_players_order() -> None:
    """A Blast rolls a die per Thing, worms first, the active player ordering each group
    (Blast; components: Clarifications)."""
    s = put(blue_ready(), "R2", "1,1")  # R1 and R2 together at 1,1
    s, drum = add(s, "drum", "1,1")
    s = move(s, "play bazooka at 0,1")
    s = roll(s, 3, 3, 3, purpose="accuracy")  # onto 1,1
    assert kind(s) == "order"
    assert ENGINE.legal_moves(s, 0) == [
        {"move": "order", "what": "worms", "ids": ["R1", "R2"]},
        {"move": "order", "what": "worms", "ids": ["R2", "R1"]},
    ]
    s = move(s, "order worms R2 R1")
    s = roll(s, 1, purpose="blast")  # R2 first: Damaged, moves to 1,0
    assert hex_of(s, "R2") == "1,0" and s["things"]["R2"]["damaged"]
    s = roll(s, BULLSEYE, purpose="blast")  # R1: Damaged, stays
    assert hex_of(s, "R1") == "1,1" and s["things"]["R1"]["damaged"]
    assert kind(s) == "blast" and drum in s["things"]  # then a die for the drum too
    s = roll(s, 4, purpose="blast")
    assert drum not in s["things"]  # Damaged -> destroyed, explodes
    assert kind(s) == "oil-drum"


def test_damaged_worm_is_destroyed_by_more_damage() -> None:
    """A Damaged worm that is Damaged again is destroyed (Damage)."""
    s = blue_ready()
    s["things"]["R1"]["damaged"] = True
    s = roll(roll(move(s, "play bazooka at 0,1"), 3, 3, 3), 1, purpose="blast")
    assert "R1" not in s["things"]


def test_blast_on_water_does_nothing() -> None:
    """If the Target hex is a Water hex, nothing happens (Blast)."""
    s = roll(move(blue_ready(), "play bazooka at 0,1"), 4, 4, 4)  # onto 0,2: Water
    assert kind(s) == "move" and not [t for t in s["things"] if t.startswith("crater")]


def test_three_craters_make_water() -> None:
    """Three Craters in a hex destroy everything there, Craters too, and it becomes
    Water (Crater); the Craters go back to the pool."""
    s = blue_ready()
    s, _ = add(s, "crater", "1,1")
    s, _ = add(s, "crater", "1,1")
    s = roll(move(s, "play bazooka at 0,1"), 3, 3, 3)
    assert "1,1" not in s["land"] and "R1" not in s["things"] and at(s, "1,1") == []
    assert s["pool"]["crater"] == board.BOX["crater"]
    assert s["pool"]["water"] == board.BOX["water"] - 1


def test_oil_drum_five_dice_duplicates_once_then_fire() -> None:
    """A Damaged Oil Drum rolls five dice; each direction once (Bullseye its own hex,
    Wind the Wind Direction); Damage all Things there, then Fire in each (Oil Drum)."""
    s = blue_ready()  # drum1 at -1,1, next to B1 (dir 3)
    s = move(s, "play uzi at -1,1")
    s = roll(s, BULLSEYE, BULLSEYE, purpose="accuracy")
    assert kind(s) == "oil-drum"
    s = roll(s, BULLSEYE, 6, 6, WIND, 4, purpose="oil-drum")
    # hexes: -1,1 (own), -2,1 (6: B1 there), 0,0 (wind 2: the dial, Water), -1,2 (4: Water)
    assert s["things"]["B1"]["damaged"] and s["turn"]["hurt"]
    fires = sorted(t["hex"] for t in s["things"].values() if t["kind"] == "fire")
    assert fires == ["-1,1", "-2,1"]
    assert s["pool"]["fire"] == board.BOX["fire"] - 2
    # B1 was Damaged during its own card: the card text finishes (Knockback finds no
    # worm at -1,1), then the turn goes to End turn: the Drop card comes next.
    assert "drop supply-drop" in s["log"] and "B1 inches" not in " ".join(s["log"])


def test_mine_damaged_blasts() -> None:
    """If a Mine is Damaged, destroy it and Blast its hex (Mine)."""
    s = put(blue_ready(), "B2", "0,1")  # a worm with mine2 at 0,1
    s = move(s, "play bazooka at 0,1")
    s = roll(s, BULLSEYE, BULLSEYE, BULLSEYE)
    s = roll(s, BULLSEYE, purpose="blast")  # B2 Damaged, stays; then the mine
    s = roll(s, 3, purpose="blast")  # its die: Damaged -> destroyed
    assert "mine2" not in s["things"]
    assert kind(s) == "blast"  # the mine's Blast: B2 again
    s = roll(s, BULLSEYE, purpose="blast")
    assert "B2" not in s["things"]
    assert sorted(t for t in at(s, "0,1")) == ["crater1", "crater2"]


# ---------------------------------------------------------------- Moving into Things


@pytest.mark.parametrize("flip,blast", [(SAFE, False), (DANGER, True)])
def test_moving_into_a_mine(flip: int, blast: bool) -> None:
    """A worm moving into a Mine destroys it and flips: Danger -> Blast (Mine)."""
    s = move(start(4), "activate B1")
    s = move(remove(s, "crate1"), "inch 4")  # only mine1 at -2,2
    s = roll(s, flip, purpose="mine")
    assert "mine1" not in s["things"]
    assert (kind(s) == "blast") is blast


@pytest.mark.parametrize("flip,damaged", [(SAFE, False), (DANGER, True)])
def test_moving_into_fire(flip: int, damaged: bool) -> None:
    """A Thing moving into Fire destroys it and flips: Danger -> Damage (Fire); a worm
    Damaged in its own turn skips to End turn (Damage)."""
    s = move(start(4), "activate B1")
    s, fire = add(s, "fire", "-1,1")
    s = move(s, "inch 3")  # into drum1 + fire at -1,1
    s = roll(s, flip, purpose="fire")
    assert fire not in s["things"] and s["things"]["B1"]["damaged"] is damaged
    assert kind(s) == ("target" if damaged else "move")  # hurt: straight to the Drop


def test_supply_crate_taken_on_activation() -> None:
    """A worm that begins its activation on a Supply Crate takes it (1. Activate)."""
    s = put(start(4), "B1", "-2,2")
    s = remove(s, "mine1")
    s = move(s, "activate B1")
    assert "crate1" not in s["things"] and len(s["hands"][0]) == 6


def test_activation_heals() -> None:
    """2. Heal worm if Damaged."""
    s = start(4)
    s["things"]["B1"]["damaged"] = True
    s = move(s, "activate B1")
    assert not s["things"]["B1"]["damaged"]


def test_jump_takes_crate_before_scatter() -> None:
    """A Jump moves the worm, takes the crate there, then Scatters it (Movement;
    components: Clarifications)."""
    s = move(remove(start(4), "mine1"), "activate B2")  # B2 at -3,3; crate2 at -3,2
    s = move(s, "jump -3,2")
    assert "crate2" not in s["things"] and len(s["hands"][0]) == 6
    assert kind(s) == "scatter"
    s = roll(s, 1, purpose="scatter")  # -3,1: Water -> sinks
    assert "B2" not in s["things"]


def test_full_hex_prods_the_worm() -> None:
    """Four Things in a hex after a move: prod a worm there with a Knockback Scatter; a
    Bullseye lets the player choose the direction (Full hex, Knockback Scatter)."""
    s = move(remove(start(4), "crate1", "mine1"), "activate B1")
    for thing in ("crater", "crater", "drum"):
        s, _ = add(s, thing, "-2,2")
    s = move(s, "inch 4")  # B1 is the fourth Thing
    assert kind(s) == "knockback"
    s = roll(s, BULLSEYE, purpose="knockback")
    assert kind(s) == "direction"
    assert ENGINE.timeout_move(s, 0) == {"move": "direction", "dir": 1}  # -2,1 is Land
    s = move(s, "direction 6")
    assert hex_of(s, "B1") == "-3,2" and "crate2" not in s["things"]  # crate taken
    assert len(at(s, "-2,2")) == 3


def test_full_hex_without_worms_may_prod_a_thing() -> None:
    """With no worm to prod, the player may prod a non-Crater Thing, or not (Full hex);
    a Mine moved onto a worm goes off as if the worm had moved onto it (Mine)."""
    s = blue_ready(cards=("mine-layer",))
    for thing in ("crater", "fire"):
        s, _ = add(s, thing, "-2,0")  # with drum4: 3 Things
    s = move(s, "play mine-layer at -2,0")  # a Mine makes 4
    assert kind(s) == "prod"
    mine = [t for t in at(s, "-2,0") if t.startswith("mine")][0]
    assert ENGINE.legal_moves(s, 0) == [
        {"move": "prod", "id": "drum4"},
        {"move": "prod", "id": mine},
        {"move": "skip"},
    ]
    assert ENGINE.timeout_move(s, 0) == {"move": "skip"}
    assert kind(move(s, "skip")) == "move"  # declined: the Movement symbol
    s = move(s, f"prod {mine}")
    s = roll(s, 4, purpose="knockback")  # onto B1 at -2,1
    assert mine not in s["things"] and kind(s) == "mine"  # destroyed, then the flip
    s = roll(s, 1, purpose="mine")  # Danger: Blast -2,1
    assert kind(s) == "blast" and "crater2" in at(s, "-2,1")


# ---------------------------------------------------------------- the turn


def test_damaged_during_own_card_finishes_text_then_end_turn() -> None:
    """If your worm is Damaged during your turn, finish the card text, then go to End
    turn: the Bazooka's Movement symbol is skipped (Damage)."""
    s = move(blue_ready(), "play bazooka at -2,1")
    s = roll(s, BULLSEYE, BULLSEYE, BULLSEYE, BULLSEYE)
    s = roll(s, 1, purpose="blast")  # B1 Damaged, moves to -2,0 (tile 3)
    assert s["things"]["B1"]["damaged"]
    assert kind(s) == "target"  # no Movement: the Drop card


def test_change_wind_numbers_only() -> None:
    """Change Wind: a number turns the dial, Wind or Bullseye leave it (Direction)."""
    s = through_targets(move(blue_ready(), "skip"))  # no card; the Supply Drop
    assert roll(s, WIND)["wind"] == 2
    assert roll(s, BULLSEYE)["wind"] == 2
    assert roll(s, 6)["wind"] == 6


def test_air_strike_three_hexes_keep_direction() -> None:
    """Air Strike: the token and two hexes in its direction; Scatter keeps the
    direction (Target, Air Strike targets)."""
    s = blue_ready(cards=("air-strike",))
    s = move(s, "play air-strike at 1,-1 dir 4")
    s = roll(s, 4, purpose="scatter")  # to 1,0: hexes 1,0 1,1 1,2
    assert s["target"] == {"hex": "1,0", "dir": 4}
    assert kind(s) == "blast"  # R1 at 1,1 blasted (1,0 empty)
    assert "crater1" in at(s, "1,0")


def test_new_hex_for_the_second_shot() -> None:
    """A Shotgun's second shot must target a New hex (Target, New hex)."""
    from engines.base import IllegalMove

    s = blue_ready(cards=("shotgun",))
    s = move(s, "play shotgun at -3,1")
    s = roll(s, BULLSEYE, BULLSEYE)  # stays on -3,1: Water, no Damage
    assert kind(s) == "target"
    with pytest.raises(IllegalMove) as err:
        move(s, "target -3,1")
    assert err.value.code == "not-new"
    assert move(s, "target -3,2")["target"]["hex"] == "-3,2"


def test_pool_limits_place() -> None:
    """If you run out of a component, you cannot place more (Place)."""
    s = blue_ready()
    s["pool"]["crate"] = 0
    crates = {t for t in s["things"] if t.startswith("crate")}
    s = through_targets(move(s, "skip"))
    assert {t for t in s["things"] if t.startswith("crate")} == crates
    assert kind(s) == "wind"


def through_targets(s: dict) -> dict:
    """Answer target decisions with their first choice until something else is asked."""
    while kind(s) == "target":
        s = ENGINE.play(s, 0, ENGINE.legal_moves(s, 0)[0])
    return s


def test_sudden_death_is_last_and_repeats() -> None:
    """The last Drop card is the Sudden Death card; after it, every Drop step resolves
    its Drop text again (Draw a Drop Card, Sudden Death)."""
    s = start(4, {"sudden_death": [1, 0, 2, 3, 4, 5, 6, 7]})
    assert len(s["drop"]) == 2 * 4 + 2 + 1 and s["drop"][-1].endswith("nuclear-test")
    s["drop"] = s["drop"][-1:]
    s = move(move(move(s, "activate B1"), "skip"), "skip")
    s = move(s, "skip")
    assert s["sudden_death"].endswith("nuclear-test")
    assert all(t["damaged"] for t in s["things"].values() if t["kind"] == "worm")


# ---------------------------------------------------------------- end of the game


def calm(s: dict, until_seat: int | None = None) -> dict:
    """Play timeout moves, Bullseyes and Safe flips until ``until_seat``'s turn starts
    (or the game ends)."""
    while True:
        p = ENGINE.prompt(s)
        if isinstance(p, Over):
            return s
        if isinstance(p, Decision):
            if s["turn"]["seat"] == until_seat:
                return s
            s = ENGINE.play(s, p.seats[0], ENGINE.timeout_move(s, p.seats[0]))
        elif p.spec["kind"] == "shuffle":
            s = ENGINE.resolve(s, list(range(p.spec["size"])))
        else:
            s = ENGINE.resolve(s, [f for f in p.spec["faces"]])  # Bullseye / Safe


def test_elimination_final_round_and_ranking() -> None:
    """When a team has no worm left the current turn finishes, then every player takes
    one more turn; most worms wins (Elimination and Winning)."""
    s = remove(start(3), "R2", "Y2")  # Red: R1 only; Yellow: Y1 only
    s = move(s, "activate B1")
    s = move(move(s, "skip"), "skip")
    s = move(s, "play bazooka at 0,1")
    s = roll(roll(s, 3, 3, 3), 2, purpose="blast")  # R1 Damaged into 2,0: Water
    assert "R1" not in s["things"] and s["end_triggered"]
    s = move(s, "skip")  # Blue still finishes the turn
    assert kind(s) == "target"  # its Drop card
    s = calm(s, until_seat=2)
    assert s["final"] == [0] and s["turn"]["worm"] == "Y1"  # Red is out: Yellow, Blue
    s = calm(s, until_seat=0)
    assert s["final"] == [] and s["over"] is None  # Blue's final turn
    s = calm(s)
    result = ENGINE.prompt(s).result
    assert result["scores"] == [2, 0, 1]
    assert result["ranking"] == [[0], [2], [1]]


def test_ties_broken_by_undamaged_then_draw() -> None:
    """Equal worms: most undamaged wins, else a draw (Elimination and Winning)."""
    from engines.worms.rules import finish

    s = start(2)
    finish(s, "test")
    assert s["over"]["ranking"] == [[0, 1]]
    s = start(2)
    s["things"]["R1"]["damaged"] = True
    finish(s, "test")
    assert s["over"]["ranking"] == [[0], [1]]


@pytest.mark.parametrize("setup", ["standard", "first-game"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_only_one_round_after_the_first_elimination(setup, players) -> None:
    """Random games are short (a random worm often jumps into the Water), but each ends
    only as the book says (Elimination and Winning): never before a team has no worm
    left; the turn that eliminated it finishes, then every player takes exactly one more
    turn, the eliminated ones skipped, and the game ends after the last of them; the
    result counts the worms left."""
    rng = random.Random(f"final-round-{setup}-{players}")
    for _ in range(6):
        game = random_game(ENGINE, players, {"setup": setup}, rng, keep_states=True)
        trigger = next(i for i, st in enumerate(game.states) if st["end_triggered"])
        assert all(st["over"] is None for st in game.states[:trigger])
        first = game.states[trigger]
        eliminated = [s for s, team in enumerate(first["teams"]) if not board.worms_of(first, team)]
        assert eliminated, "the end was triggered with every team on the map"
        turn = game.states[trigger - 1]["turn"]  # the turn of the input that eliminated
        after = {}  # turn number -> its seat, for the turns begun after that one
        for st in game.states[trigger:]:
            if st["turn"]["number"] > turn["number"]:
                after[st["turn"]["number"]] = st["turn"]["seat"]
        seats = list(after.values())
        assert len(seats) == len(set(seats)) <= players  # at most one more turn each
        n, seat = players, turn["seat"]
        order = [(seat + k) % n for k in range(1, n + 1)]  # the trigger's seat last
        assert seats == [s for s in order if s in seats]  # clockwise
        last = game.state
        standing = [len(board.worms_of(last, team)) for team in last["teams"]]
        assert game.result["scores"] == standing
        for s in range(players):  # every team still on the map had its final turn
            if standing[s]:
                assert s in seats, (s, seats)
        assert game.result["reason"] in ("elimination", "all-destroyed")
