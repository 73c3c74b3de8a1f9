"""Scoring from places (issue 11, "scoring per game from the engine's ranking"): ties share
the average of the places they span; the default scoring per table size."""

import pytest

from arbiter.tournaments.formats import GameResult, Scoring, default_scoring
from arbiter.tournaments.formats.scoring import game_points


def test_two_player_default_is_win_one_loss_zero_bye_one():
    assert default_scoring(2) == Scoring(place_points=(1.0, 0.0), bye_points=1.0)


def test_multiplayer_default_runs_from_one_to_zero_and_a_bye_scores_the_mean():
    assert default_scoring(3) == Scoring(place_points=(1.0, 0.5, 0.0), bye_points=0.5)
    four = default_scoring(4)
    assert four.place_points == pytest.approx((1.0, 2 / 3, 1 / 3, 0.0))
    assert four.bye_points == pytest.approx(sum(four.place_points) / 4)


def test_a_table_below_two_is_refused():
    with pytest.raises(ValueError):
        default_scoring(1)


def test_a_two_player_draw_scores_half_each():
    result = GameResult(round=1, players=("a", "b"), places=(1, 1))
    assert game_points(result, default_scoring(2)) == {"a": 0.5, "b": 0.5}


def test_a_win_scores_by_place_not_by_seat():
    result = GameResult(round=1, players=("a", "b"), places=(2, 1))
    assert game_points(result, default_scoring(2)) == {"a": 0.0, "b": 1.0}


def test_tied_places_share_the_average_of_the_places_they_span():
    scoring = Scoring(place_points=(6.0, 3.0, 1.0, 0.0), bye_points=2.0)
    result = GameResult(round=1, players=("a", "b", "c", "d"), places=(2, 1, 2, 4))
    assert game_points(result, scoring) == {"b": 6.0, "a": 2.0, "c": 2.0, "d": 0.0}


def test_dense_and_competition_ranking_score_alike():
    scoring = default_scoring(3)
    dense = GameResult(round=1, players=("a", "b", "c"), places=(1, 1, 2))
    competition = GameResult(round=1, players=("a", "b", "c"), places=(1, 1, 3))
    assert (
        game_points(dense, scoring)
        == game_points(competition, scoring)
        == {"a": 0.75, "b": 0.75, "c": 0.0}
    )


def test_all_tied_share_everything():
    result = GameResult(round=1, players=("a", "b", "c"), places=(1, 1, 1))
    assert game_points(result, default_scoring(3)) == {"a": 0.5, "b": 0.5, "c": 0.5}


@pytest.mark.parametrize(
    "result",
    [
        GameResult(round=1, players=("a", "b"), places=(1,)),
        GameResult(round=1, players=("a", "a"), places=(1, 2)),
        GameResult(round=1, players=("a", "b", "c"), places=(1, 2, 3)),
    ],
)
def test_malformed_results_are_refused(result):
    with pytest.raises(ValueError):
        game_points(result, default_scoring(2))
