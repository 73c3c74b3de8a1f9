"""Bonuses unlocked during play (issue 15, 1).

rules/star-maps.md, "Bonuses": "During the course of the game, players unlock bonuses for
future use. This is done cooperatively and all bonuses unlocked are available for use by
all players." components/star-maps.md, "Known": "Filling the last star of a type unlocks a
bonus from the book's list". Decision (bonuses.json, ``unlocked_by``): the bonus keyed to
that type, for every player from the next round on, carried into the campaign.

Sheet ``plain``: the Diamonds (type 4, keyed to Reprise) are a4 (A4-A5) and b1 (B1-B2); the
Squares (type 3, keyed to Nudge) a3 (A3 + A4 via C1) and b5 (B5-B6).
"""

from __future__ import annotations

from engines.base import Over
from engines.star_maps import ENGINE

from .helpers import dice, given, marks, refused
from .test_bonuses import FULL, WINNER

LAST_DIAMOND = {"A4": 1, "A5": 3, "B1": 2}
FINDS_LAST_DIAMOND = dice(4, 6, "B2")
# b5 found (B5 1, B6 4) and C1 filled: star 3 write 5 at A3 then finds the last Square.
SQUARE_NEXT = {"B5": 1, "B6": 4}


def answer_all(state, move_of, engine=ENGINE):
    """Let every seat that owes an answer play ``move_of(seat)`` on ``engine``; return
    the state."""
    for seat in engine.to_act(state):
        state = engine.play(state, seat, move_of(seat))
    return state


def test_finding_the_last_star_of_a_type_unlocks_its_bonus_for_everyone():
    """Given two players and no bonus unlocked, when seat 0 finds the last Diamond, then
    Reprise (keyed to the Diamond) is unlocked once the round's answers are in, for both
    players, and the game says who unlocked it and when ("players unlock bonuses ...
    all bonuses unlocked are available for use by all players")."""
    state = given(players=2, seats=[marks(LAST_DIAMOND)], roll=[4, 6])
    state = ENGINE.play(state, 0, FINDS_LAST_DIAMOND)
    assert state["unlocked"] == []  # seat 1 answers the same roll, unaffected
    state = ENGINE.play(state, 1, dice(4, 6, "A4"))
    assert state["unlocked"] == ["reprise"]
    assert state["unlocks"] == [{"bonus": "reprise", "type": 4, "round": 1, "by": [0]}]
    view = ENGINE.view(state, 1)
    assert view["unlocked_bonuses"] == ["reprise"]
    assert view["unlocked_in_play"] == state["unlocks"]
    assert view["bonuses"]["reprise"]["unlocked_by"] == 4


def test_a_bonus_unlocked_now_is_for_future_use_not_the_move_that_unlocked_it():
    """ "players unlock bonuses for future use": given no bonus unlocked, then the move
    that finds the last Diamond offers no bonus, and naming Reprise in it is refused
    (``bonus-locked``)."""
    state = given(players=1, seats=[marks(LAST_DIAMOND)], roll=[4, 6])
    assert all("bonuses" not in m for m in ENGINE.legal_moves(state, 0))
    refused(
        state,
        0,
        dice(4, 6, "B2", {"bonus": "reprise", "star": 6, "write": 4, "box": "A6"}),
        "bonus-locked",
    )


def test_a_solo_player_uses_a_bonus_unlocked_earlier_in_the_game():
    """Given a solo game with no bonus unlocked (the first game of a campaign), when the
    last Diamond is found in round 1 and the last Square in round 2, then the round 2 move
    may use Reprise, unlocked in round 1 ("Using the Dice", step 4: "you may immediately
    use a bonus you have unlocked")."""
    state = given(players=1, seats=[marks({**LAST_DIAMOND, **SQUARE_NEXT}, ["C1"])], roll=[4, 6])
    state = ENGINE.play(state, 0, FINDS_LAST_DIAMOND)
    assert state["unlocked"] == ["reprise"] and state["round"] == 2
    state = ENGINE.resolve(state, [3, 5])
    with_reprise = [
        m for m in ENGINE.legal_moves(state, 0) if m.get("bonuses") and m["box"] == "A3"
    ]
    assert with_reprise and all(m["bonuses"][0]["bonus"] == "reprise" for m in with_reprise)
    state = ENGINE.play(state, 0, with_reprise[0])
    assert state["marks"][0]["bonuses_used"] == ["reprise"]
    assert state["unlocked"] == ["nudge", "reprise"]  # the Square keys Nudge


def test_two_seats_finding_one_type_in_a_round_unlock_it_once_in_any_order():
    """Given both seats find their last Diamond in one round, then Reprise is unlocked once,
    by both, whichever answer arrives first (the round's answers are simultaneous)."""
    seats = [marks(LAST_DIAMOND), marks(LAST_DIAMOND)]
    ends = []
    for order in ((0, 1), (1, 0)):
        state = given(players=2, seats=seats, roll=[4, 6])
        for seat in order:
            state = ENGINE.play(state, seat, FINDS_LAST_DIAMOND)
        ends.append(state)
    assert ends[0] == ends[1]
    assert ends[0]["unlocks"] == [{"bonus": "reprise", "type": 4, "round": 1, "by": [0, 1]}]


def test_a_type_whose_bonus_is_already_unlocked_unlocks_nothing_more():
    """Given Reprise is already unlocked (a campaign's), when the last Diamond is found,
    then nothing new is unlocked (decision: each type keys one bonus)."""
    state = given(players=1, bonuses=["reprise"], seats=[marks(LAST_DIAMOND)], roll=[4, 6])
    state = ENGINE.play(state, 0, FINDS_LAST_DIAMOND)
    assert state["unlocked"] == ["reprise"] and state["unlocks"] == []


def test_the_last_rounds_unlocks_are_in_the_result_and_carried_to_the_campaign():
    """Given a 2-player game whose seat 1 has a full sheet (it cannot move, so this round
    is the last), when seat 0 finds its last Diamond, then the result lists every bonus
    unlocked in that round (Reprise by both seats, the other types by seat 1) and
    ``unlocked_after`` has them all, which the campaign's next game starts with ("unlock
    bonuses for future use"); with nothing left to choose there is no vote."""
    state = given(players=2, seats=[marks(LAST_DIAMOND), FULL], roll=[4, 6])
    assert ENGINE.to_act(state) == [0]
    state = ENGINE.play(state, 0, FINDS_LAST_DIAMOND)
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Over)
    result = prompt.result
    assert {"bonus": "reprise", "type": 4, "round": 1, "by": [0, 1]} in result["unlocked_in_play"]
    assert [u["bonus"] for u in result["unlocked_in_play"]] == [
        "bridge",
        "echo",
        "nudge",
        "reprise",
        "comet",
        "leap",
    ]
    assert (
        result["unlocked_after"]
        == result["unlocked_bonuses"]
        == ["bridge", "echo", "nudge", "reprise", "comet", "leap"]
    )
    assert result["new_bonus"] is None
    assert ENGINE.campaign_options([result])["unlocked_bonuses"] == result["unlocked_after"]


def test_campaign_options_join_every_games_unlocks():
    """Given a campaign's results (a game unlocking in play, one whose losers chose, and a
    version 1 result with only ``new_bonus``), then the next game has all of them, once
    each, in list order."""
    results = [
        {"unlocked_after": ["reprise"], "new_bonus": None},
        {"unlocked_after": ["echo", "reprise"], "new_bonus": "echo"},
        {"new_bonus": "bridge"},
    ]
    assert ENGINE.campaign_options(results) == {"unlocked_bonuses": ["bridge", "echo", "reprise"]}


def test_version_1_games_unlock_nothing_in_play_and_their_losers_must_choose():
    """Given a game created under engine version 1, then finding the last Diamond
    unlocks nothing, the losers must choose one bonus (``none`` is ``bonus-required``),
    Leap (added in version 2) is not offered, and a loser who times out votes for the
    first bonus still locked, as version 1 did (issue 15: saved games keep their rules)."""
    old = ENGINE.at_version("1")
    assert old.version == "1" and ENGINE.at_version("3") is ENGINE
    state = old.resolve(old.setup(2, {"sheet": "plain"}), [4, 6])
    state = {**state, "marks": [marks(LAST_DIAMOND), state["marks"][1]]}
    state = old.play(old.play(state, 0, FINDS_LAST_DIAMOND), 1, dice(4, 6, "A4"))
    assert state["unlocked"] == [] and state["unlocks"] == []
    state = {
        **old.setup(2, {"sheet": "plain", "unlocked_bonuses": ["bridge"]}),
        "marks": [WINNER, marks()],
    }
    state = answer_all(old.resolve(state, [2, 5]), lambda seat: dice(2, 5, "A2"), old)
    assert "unlocked_in_play" not in state["result"]
    assert old.legal_moves(state, 1) == [
        {"act": "choose-bonus", "bonus": b} for b in ("echo", "nudge", "reprise", "comet")
    ]
    assert old.timeout_move(state, 1) == {"act": "choose-bonus", "bonus": "echo"}
    refused(state, 1, {"act": "choose-bonus", "bonus": "none"}, "bonus-required", old)
    refused(state, 1, {"act": "choose-bonus", "bonus": "leap"}, "no-such-bonus", old)
    state = old.play(state, 1, {"act": "choose-bonus", "bonus": "comet"})
    assert old.prompt(state).result["unlocked_after"] == ["bridge", "comet"]
