"""Final scoring, ties, and the result read by campaigns.

rules/star-maps.md, "Final Scoring", "How to Win", "Bonuses"; components/star-maps.md,
"Decisions on rules questions" (ties).
"""

from __future__ import annotations

from engines.base import Over
from engines.star_maps import ENGINE
from engines.star_maps.scoring import rank, score_marks
from engines.star_maps.sheet import SHEETS

from .helpers import given, marks

PLAIN = SHEETS["plain"]
FULL = marks({b: 1 for b in PLAIN.boxes}, list(PLAIN.connections))


def test_found_stars_are_added_by_type():
    """Final Scoring: "a player adds the value of all filled out stars of each type". Given
    a1 holds 4 (Circle), a2 holds 3 (Triangle) and b1 holds 5 (Diamond), then by type they
    add up, and the total is their sum (no type complete)."""
    score = score_marks(PLAIN, marks({"A1": 2, "A2": 6, "A3": 3, "B1": 1, "B2": 6}))
    assert score["stars"] == {"a1": 4, "a2": 3, "b1": 5}
    assert score["by_type"] == {"1": 4, "2": 3, "3": 0, "4": 5, "5": 0, "6": 0}
    assert score["sheet_points"] == 0 and score["total"] == 12


def test_the_plain_sheet_scores_five_per_complete_type():
    """Final Scoring: "special scoring rules are included on each game sheet" (plain:
    5 per complete type, invented). Given both Circles and nothing else found, then 5 more;
    given a full sheet of ones, every star holds 0 and the six types give 30."""
    circles = score_marks(PLAIN, marks({"A1": 1, "A2": 2, "B3": 3, "A4": 6}, ["C1"]))
    assert circles["complete_types"] == [1]
    assert circles["sheet_rules"] == [
        {"rule": "per-complete-type", "points": 5, "count": 1, "score": 5}
    ]
    assert circles["stars"] == {"a1": 1, "b3": 3}
    assert circles["total"] == 1 + 3 + 5
    full = score_marks(PLAIN, FULL)
    assert full["total"] == 30 and set(full["stars"].values()) == {0}


def test_the_arms_sheet_scores_five_per_unlocked_arm():
    """Final Scoring, sheet rule (arms: 5 per unlocked arm, invented). Given C3 is filled
    and the West lock's C4 without w1, then one arm scores 5."""
    score = score_marks(SHEETS["arms"], marks({}, ["C3", "C4"], sheet="arms"))
    assert score["unlocked_arms"] == ["east"] and score["sheet_points"] == 5


def test_the_highest_score_wins_and_a_tie_goes_to_fewer_bonuses_then_is_shared():
    """Final Scoring: "If there's a tie, the player who used the least Bonuses wins. If
    there's still a tie, all tied players win together." Given scores 10, 10, 10, 12 with
    1, 0, 0, 2 bonuses, then seat 3 first, seats 1 and 2 share second, seat 0 last."""
    assert rank([10, 10, 10, 12], [1, 0, 0, 2]) == [[3], [1, 2], [0]]


def test_the_result_has_scores_ranking_details_and_the_bonus_fields():
    """How to Win: "Players tally their scores and the player with the highest score wins."
    Given a solo game that ends at once, then the result holds scores, ranking, reason,
    per-seat details whose parts add up, and the campaign fields."""
    state = given(seats=[FULL], roll=[1, 1], bonuses=["echo"])
    result = ENGINE.prompt(state).result
    assert isinstance(ENGINE.prompt(state), Over)
    assert result["scores"] == [30] and result["ranking"] == [[0]]
    detail = result["details"][0]
    assert detail["seat"] == 0
    assert detail["total"] == sum(detail["by_type"].values()) + detail["sheet_points"]
    assert result["new_bonus"] is None and result["unlocked_bonuses"] == ["echo"]
    assert result["unlocked_after"] == ["echo"]
    assert result["winners"] == [0] and result["losers"] == []


def test_a_tie_on_score_goes_to_the_seat_that_used_fewer_bonuses_in_a_game():
    """Final Scoring, tie break. Given two full sheets (30 each) where seat 0 used one
    bonus, then seat 1 wins and seat 0 is the loser who chooses the new bonus."""
    used = {**FULL, "bonuses_used": ["bridge"]}
    state = given(players=2, seats=[used, FULL], roll=[3, 3], bonuses=["bridge"])
    prompt = ENGINE.prompt(state)
    assert state["result"]["ranking"] == [[1], [0]]
    assert prompt.seats == (0,) and prompt.kind == "choose-bonus"
