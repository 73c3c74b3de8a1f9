"""What a finished game is worth to each seat."""

from __future__ import annotations

from arbiter.bots.rewards import rewards


def test_two_seats_win_draw_loss() -> None:
    win, loss = rewards({"scores": [3, 1], "ranking": [[0], [1]]}, 2)
    assert 0.8 < win <= 1 and 0 <= loss < 0.2
    draw = rewards({"scores": [2, 2], "ranking": [[0, 1]]}, 2)
    assert draw[0] == draw[1] and loss < draw[0] < 0.5 * (win + loss)  # a draw is not a win


def test_a_wide_win_is_worth_more_than_a_narrow_one() -> None:
    wide = rewards({"scores": [30, 1], "ranking": [[0], [1]]}, 2)
    narrow = rewards({"scores": [30, 29], "ranking": [[0], [1]]}, 2)
    assert wide[0] > narrow[0] and wide[1] < narrow[1] < 0.5


def test_four_seats_by_seats_beaten() -> None:
    first, last, mid, mid2 = rewards({"scores": [9, 1, 5, 5], "ranking": [[0], [2, 3], [1]]}, 4)
    assert first > mid == mid2 > last
    assert 0.4 < mid < 0.5


def test_the_ranking_comes_from_the_scores_when_missing() -> None:
    low, high, middle = rewards({"scores": [1, 4, 2]}, 3)
    assert low < middle < high


def test_one_seat_rises_with_its_score() -> None:
    low, high = rewards({"scores": [5]}, 1), rewards({"scores": [40]}, 1)
    assert 0.5 < low[0] < high[0] < 1
