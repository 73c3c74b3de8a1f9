"""End of the game: ranking, Goal cards revealed and scored, the winner
(rules/dark-horse.md, "End of the Game")."""

from __future__ import annotations

from engines.base import Over

from .support import BUGS, E, finish, in_play

TRACK = ["ladybug", "bee", "fly", "snail", "wasp", "grasshopper", "caterpillar"]


def last_card(goals: list[list[str]], players: int = 3) -> dict:
    """Return a game with one card left (seat 0's Caterpillar -3: the Caterpillar is on
    the stone already, so it stays) over TRACK with ``goals``."""
    hands = [["mv-caterpillar-3"]] + [[] for _ in range(players - 1)]
    return in_play(players, track=TRACK, hands=hands, goals=goals)


def over(goals: list[list[str]], players: int = 3) -> dict:
    """Return the result once the last card is played."""
    state = E.play(last_card(goals, players), 0, {"play": "mv-caterpillar-3"})
    prompt = E.prompt(state)
    assert isinstance(prompt, Over)
    return prompt.result


def test_book_example_steve_scores_sixteen() -> None:
    """Given Steve holds the Ladybug and the Fly, when the Ladybug finishes first and the
    Fly third, then he gets 10 and 6 points: 16 (rules/dark-horse.md, "End of the Game",
    Example)."""
    result = over(
        [
            ["goal-ladybug-1", "goal-fly-1"],
            ["goal-bee-1", "goal-wasp-1"],
            ["goal-snail-1", "goal-grasshopper-1"],
        ]
    )
    steve = result["details"][0]
    assert [(g["bug"], g["place"], g["points"]) for g in steve["goals"]] == [
        ("ladybug", 1, 10),
        ("fly", 3, 6),
    ]
    assert steve["total"] == 16 and result["scores"][0] == 16


def test_ranking_is_read_from_space_one() -> None:
    """Given the final Track, then space 1 (sugar cube) is first and the stone last: the
    book's "stone is first" is the contradiction the components page settles
    (rules/dark-horse.md, "End of the Game"; components page)."""
    result = over(
        [
            ["goal-ladybug-1", "goal-fly-1"],
            ["goal-bee-1", "goal-wasp-1"],
            ["goal-snail-1", "goal-caterpillar-1"],
        ]
    )
    assert [f["bug"] for f in result["finish"]] == TRACK
    assert result["finish"][0] == {"place": 1, "space": "sugar cube", "bug": "ladybug"}
    assert result["finish"][6] == {"place": 7, "space": "stone", "bug": "caterpillar"}
    assert result["details"][2]["goals"][1]["points"] == 1


def test_highest_score_wins() -> None:
    """Given three totals, then the ranking lists the seats from the highest total
    (rules/dark-horse.md, "End of the Game": "The player with the highest score wins")."""
    result = over(
        [
            ["goal-ladybug-1", "goal-fly-1"],
            ["goal-bee-1", "goal-wasp-1"],
            ["goal-snail-1", "goal-grasshopper-1"],
        ]
    )
    assert result["scores"] == [16, 11, 6]
    assert result["ranking"] == [[0], [1], [2]]
    assert result["reason"] == "all-cards-played"


def test_ties_share_a_place() -> None:
    """Given two players with equal totals, then they share one ranking group
    (rules/dark-horse.md, "End of the Game"; engines/base.py, Over)."""
    result = over(
        [
            ["goal-ladybug-1", "goal-caterpillar-1"],
            ["goal-ladybug-2", "goal-caterpillar-2"],
            ["goal-bee-1", "goal-fly-1"],
        ]
    )
    assert result["scores"] == [11, 11, 14]
    assert result["ranking"] == [[2], [0, 1]]


def test_two_player_games_score_three_bugs() -> None:
    """Given a two-player game, then each player scores their three Goal cards
    (rules/dark-horse.md, "End of the Game": "three Bugs in two-player games")."""
    result = over(
        [
            ["goal-ladybug-1", "goal-bee-1", "goal-fly-1"],
            ["goal-snail-1", "goal-wasp-1", "goal-caterpillar-1"],
        ],
        players=2,
    )
    assert result["scores"] == [24, 8]
    assert [len(d["goals"]) for d in result["details"]] == [3, 3]


def test_scores_add_up_and_goals_are_revealed() -> None:
    """Given a game played out, then each score is the sum of its Goal cards' points from
    the chart, and every view now shows every seat's Goal cards, the Goal deck and the
    cards set aside (rules/dark-horse.md, "End of the Game": "Players reveal their Goal
    cards now")."""
    from .support import dealt

    state = finish(dealt(4))
    result = E.prompt(state).result
    places = {b: i + 1 for i, b in enumerate(state["track"])}
    chart = [10, 8, 6, 4, 3, 2, 1]
    for seat, detail in enumerate(result["details"]):
        expected = sum(chart[places[g.split("-")[1]] - 1] for g in state["goals"][seat])
        assert detail["total"] == expected == result["scores"][seat]
    for seat in (None, 0, 3):
        view = E.view(state, seat)
        assert [[g["card"] for g in v] for v in view["revealed"]["goals"]] == state["goals"]
        assert view["revealed"]["set_aside"] == state["set_aside"]
        assert view["result"] == result
    assert sorted(state["track"]) == sorted(BUGS)
