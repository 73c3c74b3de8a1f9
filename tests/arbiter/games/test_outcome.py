"""A result in words: scores when there are any, who resigned when there are none."""

from __future__ import annotations

from arbiter.games.outcome import outcome_lines
from arbiter.web.game_page import result_lines

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}
RESIGNED = {
    "scores": [None, None, None],
    "ranking": [[0, 2], [1]],
    "reason": "resignation",
    "resigned": [1],
}
SCORED = {"scores": [12, 30, 30], "ranking": [[1, 2], [0]], "reason": "finished"}


def test_a_resignation_names_who_resigned_and_never_says_none():
    """Given a result without scores, the lines say who resigned and the ranking."""
    lines = outcome_lines(RESIGNED, NAMES)
    assert lines == [
        "Resigned: Bob.",
        "No scores: the game ended before it was scored.",
        "Ranking, best first: Ann, Cy; Bob",
    ]
    assert result_lines(RESIGNED, NAMES) == ["1. Ann", "1. Cy", "3. Bob (resigned)"]


def test_a_scored_result_lists_every_score_and_the_ranking():
    """Given scores, each seat's score is listed and tied seats share a place."""
    assert outcome_lines(SCORED, NAMES) == [
        "Scores:",
        "  Ann: 12",
        "  Bob: 30",
        "  Cy: 30",
        "Ranking, best first: Bob, Cy; Ann",
    ]
    assert result_lines(SCORED, NAMES) == ["1. Bob: 30", "1. Cy: 30", "3. Ann: 12"]
