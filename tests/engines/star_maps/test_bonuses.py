"""Bonuses: earned by finding the last star of a type, at most two per sheet, shared by
the campaign; after a multiplayer game the losers choose a new one.

rules/star-maps.md, "Using the Dice" (step 4 and its note), "Bonuses";
components/star-maps.md, "Known" and "Not known" (bonuses are invented, as data).
Sheet ``plain``: the Diamonds are a4 (A4-A5) and b1 (B1-B2); the Squares a3 (A3 + A4 via
C1) and b5 (B5-B6); the Hexagons a6 (A6 + A7 via C2) and b2 (B2-B3).
"""

from __future__ import annotations

import pytest

from engines.base import Decision, InvalidOptions, Over
from engines.star_maps import ENGINE
from engines.star_maps.bonuses import BONUS_IDS, CATALOG
from engines.star_maps.rules import AlreadyAnswered
from engines.star_maps.sheet import SHEETS

from .helpers import ALL_BONUSES, connect, dice, given, marks, refused

# a4 found; b1 waits for B2: star 4 write 6 at B2 finds the last Diamond.
LAST_DIAMOND = {"A4": 1, "A5": 3, "B1": 2}
FINDS_LAST_DIAMOND = dice(4, 6, "B2")
BRIDGE_C2 = {"bonus": "bridge", "connection": "C2"}


def diamond_game(bonuses=("bridge",), extra=None, used=(), connections=(), roll=(4, 6)):
    seat = marks({**LAST_DIAMOND, **(extra or {})}, connections, used)
    return given(bonuses=bonuses, seats=[seat], roll=roll)


def test_finding_the_last_star_of_a_type_lets_a_bonus_be_used_at_once():
    """Using the Dice, step 4: "IF the star you wrote a value in is the last of its shape on
    the game sheet, you may immediately use a bonus you have unlocked." Given Bridge is
    unlocked and b1 is the last Diamond, then the move finding it may add Bridge on any
    connection, and playing it records the bonus."""
    state = diamond_game()
    moves = ENGINE.legal_moves(state, 0)
    assert FINDS_LAST_DIAMOND in moves
    with_bonus = [m for m in moves if "bonuses" in m and m["star"] == 4]
    assert with_bonus == [
        dice(4, 6, "B2", {"bonus": "bridge", "connection": c}) for c in ("C1", "C2", "C3", "C4")
    ]
    after = ENGINE.play(state, 0, dice(4, 6, "B2", BRIDGE_C2))
    assert after["marks"][0]["connections"] == ["C2"]
    assert after["marks"][0]["bonuses_used"] == ["bridge"]


def test_finding_the_last_star_of_a_type_as_a_side_effect_also_earns_a_bonus():
    """Using the Dice, steps 3-4 (decision: every type a move completes earns a bonus use).
    Given b1 is the last Diamond, when star 6 write 4 goes in B2 for the Hexagon b2, the
    shared box also finds b1, so a bonus may follow."""
    move = dice(6, 4, "B2", {"bonus": "bridge", "connection": "C1"})
    assert move in ENGINE.legal_moves(diamond_game(), 0)


def test_a_bonus_is_optional():
    """Using the Dice, step 4: "you *may* immediately use a bonus". Given the trigger, when
    the move is played without a bonus, then it is accepted and no bonus is counted."""
    after = ENGINE.play(diamond_game(), 0, FINDS_LAST_DIAMOND)
    assert after["marks"][0]["bonuses_used"] == []


def test_a_bonus_without_finding_the_last_star_of_a_type_is_refused():
    """Using the Dice, step 4: a bonus only right after the last star of its shape. Given a
    move that completes no type, when it carries a bonus, then bonus-not-earned."""
    refused(diamond_game(), 0, connect("C1", BRIDGE_C2), "bonus-not-earned")
    assert all("bonuses" not in m for m in ENGINE.legal_moves(diamond_game(roll=(3, 3)), 0))


def test_a_bonus_that_is_not_unlocked_is_refused():
    """Bonuses: only "bonuses you have unlocked". Given only Echo is unlocked, when the
    trigger move adds Bridge, then bonus-locked."""
    err = refused(diamond_game(bonuses=["echo"]), 0, dice(4, 6, "B2", BRIDGE_C2), "bonus-locked")
    assert "echo" in err.detail


def test_an_unknown_bonus_is_refused():
    """Bonuses. Given the trigger, when the bonus is 'teleport', then no-such-bonus."""
    refused(
        diamond_game(), 0, dice(4, 6, "B2", {"bonus": "teleport", "box": "A1"}), "no-such-bonus"
    )


def test_no_more_than_two_bonuses_per_sheet():
    """Using the Dice, step 4: "You may only use two per game sheet". Given a sheet that has
    used two bonuses, when the trigger move adds Bridge, then bonus-limit, and no legal
    move carries a bonus."""
    state = diamond_game(used=["bridge", "bridge"])
    refused(state, 0, dice(4, 6, "B2", BRIDGE_C2), "bonus-limit")
    assert all("bonuses" not in m for m in ENGINE.legal_moves(state, 0))


def test_a_move_finding_the_last_star_of_two_types_earns_two_bonuses():
    """Using the Dice, step 4: each shape whose last star is found. Given B2 is the last box
    of both the last Diamond b1 and the last Hexagon b2 (a6 found), when star 4 write 6
    goes in B2, then two bonuses may follow."""
    state = diamond_game(extra={"B3": 1, "A6": 3, "A7": 5}, connections=["C2"])
    move = dice(
        4, 6, "B2", {"bonus": "bridge", "connection": "C1"}, {"bonus": "bridge", "connection": "C3"}
    )
    assert move in ENGINE.legal_moves(state, 0)
    assert ENGINE.play(state, 0, move)["marks"][0]["bonuses_used"] == ["bridge", "bridge"]


def test_a_bonus_may_trigger_another_within_the_limit():
    """Bonuses, note: "Using a bonus might trigger another bonus. This is allowed, but
    remember only two bonuses may be used per game sheet." Given Bridge on C1 finds the last
    Square a3 (b5 found), then a second bonus may follow; a third is over the limit; a
    second bonus without a new trigger is not earned."""
    state = diamond_game(extra={"A3": 6, "B5": 2, "B6": 4})
    chain = dice(4, 6, "B2", {"bonus": "bridge", "connection": "C1"}, BRIDGE_C2)
    assert chain in ENGINE.legal_moves(state, 0)
    three = {**chain, "bonuses": [*chain["bonuses"], {"bonus": "bridge", "connection": "C3"}]}
    refused(state, 0, three, "bonus-limit")
    no_chain = dice(4, 6, "B2", BRIDGE_C2, {"bonus": "bridge", "connection": "C1"})
    refused(state, 0, no_chain, "bonus-not-earned")


def test_echo_writes_the_same_value_in_a_second_box():
    """Bonuses (invented Echo): "write the same value in a second box". Given the trigger,
    when Echo follows, then the 6 is written again in a box next to an unfound star; after
    a connection (nothing written) Echo is not applicable."""
    state = diamond_game(bonuses=["echo"])
    after = ENGINE.play(state, 0, dice(4, 6, "B2", {"bonus": "echo", "box": "A1"}))
    assert after["marks"][0]["boxes"]["A1"] == 6
    refused(state, 0, dice(4, 6, "B2", {"bonus": "echo", "box": "A5"}), "box-filled")
    refused(state, 0, dice(4, 6, "B2", {"bonus": "echo", "box": "A7"}), "not-adjacent")
    # The rulebook's connection example finds the last Square by a connection.
    square = given(
        bonuses=["echo"], seats=[marks({"A3": 2, "A4": 5, "B5": 1, "B6": 1})], roll=[6, 6]
    )
    refused(square, 0, connect("C1", {"bonus": "echo", "box": "A1"}), "bonus-not-applicable")


def test_nudge_changes_one_die_by_one():
    """Bonuses (invented Nudge): "change one die by ±1 for your own use". Given the trigger
    with dice 4 and 6, then Nudge allows star 5 write 6 (4 -> 5) and star 4 write 5
    (6 -> 5), not the unchanged dice nor a change of 2."""
    state = diamond_game(bonuses=["nudge"])

    def nudge(s, w, b):
        return dice(4, 6, "B2", {"bonus": "nudge", "star": s, "write": w, "box": b})

    assert ENGINE.play(state, 0, nudge(5, 6, "A6"))["marks"][0]["boxes"]["A6"] == 6
    assert ENGINE.play(state, 0, nudge(6, 5, "A6"))["marks"][0]["boxes"]["A6"] == 5
    refused(state, 0, nudge(6, 4, "A6"), "not-rolled")
    refused(state, 0, nudge(2, 6, "A2"), "not-rolled")


def test_reprise_uses_the_dice_again_and_comet_writes_any_value():
    """Bonuses (invented Reprise and Comet). Given the trigger with dice 4 and 6, then
    Reprise writes star 6 write 4 in A6, and Comet writes any value next to a star whose
    type is on a die, but not for a type no die shows."""
    state = diamond_game(bonuses=["reprise", "comet"])
    move = dice(4, 6, "B2", {"bonus": "reprise", "star": 6, "write": 4, "box": "A6"})
    assert ENGINE.play(state, 0, move)["marks"][0]["boxes"]["A6"] == 4
    move = dice(4, 6, "B2", {"bonus": "comet", "star": 6, "write": 1, "box": "A6"})
    assert ENGINE.play(state, 0, move)["marks"][0]["boxes"]["A6"] == 1
    refused(
        state,
        0,
        dice(4, 6, "B2", {"bonus": "comet", "star": 3, "write": 1, "box": "A3"}),
        "not-rolled",
    )


def test_bonus_fields_must_fit_the_effect():
    """Bonuses. Given the trigger, when Bridge names a box instead of a connection, then
    InvalidMove bad-move."""
    refused(diamond_game(), 0, dice(4, 6, "B2", {"bonus": "bridge", "box": "A1"}), "bad-move")


def test_the_bonuses_are_invented_data():
    """Components, "Not known": bonuses are invented and labelled. Then every bonus in
    bonuses.json is marked invented and has a name, a text and an effect, and each is
    keyed to the star type whose last star unlocks it (one bonus per type, 1 to 6)."""
    assert BONUS_IDS == ("bridge", "echo", "nudge", "reprise", "comet", "leap")
    assert all(b["invented"] is True and b["name"] and b["text"] for b in CATALOG.values())
    assert {b: CATALOG[b]["unlocked_by"] for b in BONUS_IDS} == {
        "bridge": 1,
        "echo": 2,
        "nudge": 3,
        "reprise": 4,
        "comet": 5,
        "leap": 6,
    }


def test_unlocked_bonuses_is_an_option_shared_by_all_players():
    """Bonuses: "all bonuses unlocked are available for use by all players". Given the
    option lists bonuses in any order, then the game keeps them in list order; an
    unknown bonus, or one named twice (a bonus is unlocked once), is refused
    (``bad-options``); the default is none."""
    options = ENGINE.load_options(2, {"unlocked_bonuses": ["comet", "bridge"]})
    assert options["unlocked_bonuses"] == ["bridge", "comet"]
    assert ENGINE.setup(2, options)["unlocked"] == ["bridge", "comet"]
    assert ENGINE.load_options(2, {})["unlocked_bonuses"] == []
    for bad in (["teleport"], ["comet", "bridge", "comet"]):
        with pytest.raises(InvalidOptions) as refused:
            ENGINE.load_options(2, {"unlocked_bonuses": bad})
        assert refused.value.code == "bad-options"


# --------------------------------------------------------------------------- losers' choice

FULL = marks({b: 1 for b in SHEETS["plain"].boxes}, list(SHEETS["plain"].connections))
# Every connection filled and every Triangle (a2, b6) and Pentagon (a5, b4) found, each
# with 5; b5 (a Square) found with 5 too: 25 + 2 complete types x 5 = 35 points, and with
# the dice 2 and 5 nothing is left to do. Its complete types unlock Echo and Comet.
WINNER = marks(
    {"A2": 1, "A3": 6, "A5": 1, "A6": 6, "B6": 1, "B7": 6, "B5": 6, "B4": 1},
    list(SHEETS["plain"].connections),
)
VOTE = {"act": "choose-bonus"}


def ended(players, seats=None, bonuses=()):
    """A game where seat 0's WINNER sheet ends it (stuck with the dice 2 and 5); the other
    seats answer star 2 write 5 at A2."""
    state = given(players=players, bonuses=bonuses, seats=seats or [WINNER], roll=[2, 5])
    for seat in ENGINE.to_act(state):
        state = ENGINE.play(state, seat, dice(2, 5, "A2"))
    return state


def test_the_losers_choose_a_new_bonus_together():
    """Bonuses: "In a multiplayer game, losers of the game may cooperate to choose one new
    bonus to unlock." Given seat 0 won a 3-player game, then seats 1 and 2 are asked at
    once (kind choose-bonus) among the bonuses still locked (Bridge from the campaign,
    Echo and Comet unlocked in play are not), or none; the winner may not vote."""
    state = ended(3, bonuses=["bridge"])
    assert ENGINE.prompt(state) == Decision((1, 2), kind="choose-bonus")
    assert ENGINE.legal_moves(state, 1) == [
        {**VOTE, "bonus": b} for b in ("nudge", "reprise", "leap", "none")
    ]
    refused(state, 0, {**VOTE, "bonus": "nudge"}, "not-your-turn")
    refused(state, 1, {**VOTE, "bonus": "bridge"}, "already-unlocked")
    refused(state, 1, {**VOTE, "bonus": "echo"}, "already-unlocked")
    refused(state, 1, {**VOTE, "bonus": "teleport"}, "no-such-bonus")
    refused(state, 1, dice(2, 5, "A3"), "game-over")
    state = ENGINE.play(state, 1, {**VOTE, "bonus": "nudge"})
    with pytest.raises(AlreadyAnswered):
        ENGINE.play(state, 1, {**VOTE, "bonus": "reprise"})
    state = ENGINE.play(state, 2, {**VOTE, "bonus": "nudge"})
    result = ENGINE.prompt(state).result
    assert result["new_bonus"] == "nudge" and result["votes"] == [None, "nudge", "nudge"]
    assert result["unlocked_after"] == ["bridge", "echo", "nudge", "comet"]


def test_the_most_voted_bonus_wins_and_a_tie_goes_to_the_first_listed():
    """Bonuses: the losers choose together; decision: most votes, a tie goes to the bonus
    listed first in bonuses.json. Given votes nudge, leap, nudge, then nudge; given votes
    leap and reprise, then reprise."""
    state = ended(4)
    for seat, bonus in ((1, "nudge"), (2, "leap"), (3, "nudge")):
        state = ENGINE.play(state, seat, {**VOTE, "bonus": bonus})
    assert ENGINE.prompt(state).result["new_bonus"] == "nudge"
    state = ended(3)
    for seat, bonus in ((2, "leap"), (1, "reprise")):
        state = ENGINE.play(state, seat, {**VOTE, "bonus": bonus})
    assert ENGINE.prompt(state).result["new_bonus"] == "reprise"


@pytest.mark.parametrize(
    "players, votes, chosen",
    [
        (3, ["none", "none"], None),
        (4, ["none", "none", "leap"], None),
        (3, ["none", "leap"], "leap"),
        (4, ["none", "leap", "nudge"], "nudge"),
    ],
)
def test_the_losers_may_choose_no_bonus(players, votes, chosen):
    """Bonuses: the losers "may cooperate to choose one new bonus": they may also choose
    none (``choose none``). Decision: none wins only with more votes than every bonus;
    a tie goes to a bonus. Then ``new_bonus`` is null and nothing more is unlocked than
    what play unlocked."""
    state = ended(players)
    for seat, bonus in zip(range(1, players), votes):
        state = ENGINE.play(state, seat, {**VOTE, "bonus": bonus})
    result = ENGINE.prompt(state).result
    assert result["new_bonus"] == chosen and result["votes"] == [None, *votes]
    assert result["unlocked_after"] == [
        b for b in ("echo", "nudge", "comet", "leap") if b in ("echo", "comet", chosen)
    ]
    assert ENGINE.parse("choose none", state, 1) == {**VOTE, "bonus": "none"}
    assert ENGINE.describe({**VOTE, "bonus": "none"}) == "choose none"


def test_a_loser_who_times_out_chooses_no_bonus():
    """Bonuses ("may cooperate to choose"); decision: a loser who does not answer in time
    chooses none."""
    assert ENGINE.timeout_move(ended(2, bonuses=["bridge"]), 1) == {**VOTE, "bonus": "none"}


@pytest.mark.parametrize(
    "players, seats, bonuses",
    [
        (1, None, ()),  # a solo game has no losers
        (2, [FULL, FULL], ()),  # everyone tied: everyone wins
        (2, None, ALL_BONUSES),  # nothing left to unlock
    ],
)
def test_no_vote_without_losers_or_without_bonuses_left(players, seats, bonuses):
    """Bonuses: "In a multiplayer game, losers ... choose one new bonus". Given a solo game,
    a game where all tie, or a campaign with every bonus unlocked, then the game is over
    at once with new_bonus null."""
    if seats == [FULL, FULL]:
        state = given(players=2, seats=seats, roll=[2, 5])
    else:
        state = ended(players, seats, bonuses)
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Over) and prompt.result["new_bonus"] is None


def test_a_vote_is_not_a_move_during_a_round():
    """Bonuses: chosen after the game. Given a round, when a seat sends choose echo, then
    not-voting."""
    refused(given(roll=[2, 5]), 0, {"act": "choose-bonus", "bonus": "echo"}, "not-voting")
