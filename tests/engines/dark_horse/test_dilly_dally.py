"""The Dilly Dally Variant: Ant tokens, the black base, the take-or-pass round and its
scoring (rules/dark-horse.md, "Dilly Dally Variant")."""

from __future__ import annotations

import pytest

from engines.base import Decision, IllegalMove, InvalidMove, Over

from .support import E, dealt, finish, place_all, placing

TRACK = ["ladybug", "bee", "fly", "snail", "wasp", "grasshopper", "caterpillar"]


@pytest.mark.parametrize("players, tokens", [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_ant_tokens_by_player_count(players: int, tokens: int) -> None:
    """Given the variant, then 1, 2, 2, 3, 3 Ant tokens are on the table for 2 to 6
    players (rules/dark-horse.md, "Dilly Dally Variant" 1)."""
    view = E.view(dealt(players, dilly=True), None)
    assert view["ants"]["tokens"] == tokens and view["ants"]["left"] == tokens


@pytest.mark.parametrize("end, on_stone", [("front", "wasp"), ("back", "caterpillar")])
def test_black_base_on_the_bug_on_the_last_space(end: str, on_stone: str) -> None:
    """Given the variant, when the seventh Bug is placed (at the front or at the back),
    then the black base goes on the Bug standing on the last space, the stone (space
    7), whichever Bug was chosen last, and the Track shows it there (rules/dark-horse.md,
    "Dilly Dally Variant" 2: "after having placed the Bugs on their corresponding space,
    put a black base on the last Bug instead of its translucent base")."""
    six = ["fly", "snail", "grasshopper", "bee", "ladybug", "wasp"]
    state = place_all(placing(3, dilly=True), six)
    assert state["black_base"] is None
    state = E.play(state, E.to_act(state)[0], {"place": "caterpillar", "end": end})
    assert state["track"][-1] == on_stone and state["black_base"] == on_stone
    track = E.view(state, None)["track"]
    assert track[6] == {
        "space": 7,
        "name": "stone",
        "bug": on_stone,
        "bug_name": E.components.bug_name(on_stone),
        "black_base": True,
    }
    assert [t["black_base"] for t in track].count(True) == 1


def test_version_1_games_keep_the_black_base_on_the_last_bug_placed() -> None:
    """Given a game created under engine version 1, when its seventh Bug is placed at
    the front (space 1), then that Bug carries the black base as version 1 decided, so
    games recorded under it replay unchanged (issue 15, 2: saved games keep their
    rules)."""
    old = E.at_version("1")
    assert old.version == "1"
    state = old.resolve(old.setup(3, {"dilly_dally": True}), list(range(14)))
    state = old.resolve(state, [1])
    for i, bug in enumerate(["fly", "snail", "grasshopper", "bee", "ladybug", "wasp"]):
        state = old.play(
            state, old.to_act(state)[0], {"place": bug} if i == 0 else {"place": bug, "end": "back"}
        )
    state = old.play(state, old.to_act(state)[0], {"place": "caterpillar", "end": "front"})
    assert state["track"][0] == "caterpillar" and state["black_base"] == "caterpillar"
    assert E.black_base(state["track"], "caterpillar") != "caterpillar"  # version 2's


def test_no_black_base_or_ants_without_the_variant() -> None:
    """Given the plain game, then no Bug has the black base, no Ant round is held, and an
    Ant move is out of place (rules/dark-horse.md, "Dilly Dally Variant": a variant)."""
    state = dealt(3, dilly=False)
    assert state["black_base"] is None and "ants" not in E.view(state, None)
    assert E.prompt(state) == Decision((0,), "play-card")
    with pytest.raises(IllegalMove) as err:
        E.play(state, 0, {"ant": "take"})
    assert err.value.code == "wrong-phase"


def test_the_round_comes_after_dealing_from_the_first_player() -> None:
    """Given the variant and seat 1 starting, when the Move cards are dealt, then seat 1
    is asked to take an Ant token or pass, before any card is played
    (rules/dark-horse.md, "Dilly Dally Variant" 3)."""
    state = dealt(3, dilly=True, first=1)
    assert E.prompt(state) == Decision((1,), "ant-token")
    assert E.legal_moves(state, 1) == [{"ant": "take"}, {"ant": "pass"}]
    assert len(state["hands"][1]) == 7


def test_round_ends_when_the_tokens_are_gone() -> None:
    """Given 2 tokens and 4 players, when the first two take one each, then the round is
    over and the first player plays (rules/dark-horse.md, "Dilly Dally Variant" 3:
    "until all the tokens have been taken")."""
    state = dealt(4, dilly=True)
    state = E.play(E.play(state, 0, {"ant": "take"}), 1, {"ant": "take"})
    assert E.prompt(state) == Decision((0,), "play-card")
    view = E.view(state, 3)
    assert view["ants"]["holders"] == [0, 1] and view["ants"]["left"] == 0
    assert [s["ant_token"] for s in view["seats"]] == [True, True, False, False]


def test_round_ends_when_everyone_has_chosen() -> None:
    """Given 3 tokens and 5 players, when one takes and the others pass, then each was
    asked once and the rest go back to the box (rules/dark-horse.md, "Dilly Dally
    Variant" 3: "or all the players have decided to pass")."""
    state = dealt(5, dilly=True, first=3)
    asked = []
    for choice in ["pass", "take", "pass", "pass", "pass"]:
        asked.append(E.to_act(state)[0])
        state = E.play(state, asked[-1], {"ant": choice})
    assert asked == [3, 4, 0, 1, 2]
    assert E.prompt(state) == Decision((3,), "play-card")
    assert E.view(state, None)["ants"] == {
        "tokens": 3,
        "left": 0,
        "holders": [4],
        "round_over": True,
    }


def test_ant_answer_errors() -> None:
    """Given the round, when a seat answers out of turn or with neither take nor pass,
    then it is refused (rules/dark-horse.md, "Dilly Dally Variant" 3)."""
    state = dealt(3, dilly=True)
    with pytest.raises(IllegalMove) as err:
        E.play(state, 1, {"ant": "take"})
    assert err.value.code == "not-your-turn"
    with pytest.raises(InvalidMove):
        E.play(state, 0, {"ant": "two"})
    with pytest.raises(IllegalMove) as err:
        E.play(state, 0, {"play": state["hands"][0][0]})
    assert err.value.code == "wrong-phase"


def ant_game(black_place: int) -> dict:
    """Return the result of a 3-player variant game where seat 0 took a token, seat 1
    passed and seat 2 took one, the black base finishing in ``black_place``."""
    state = dealt(3, dilly=True)
    for seat, choice in [(0, "take"), (1, "pass"), (2, "take")]:
        state = E.play(state, seat, {"ant": choice})
    goals = [
        ["goal-ladybug-1", "goal-fly-1"],
        ["goal-bee-1", "goal-wasp-1"],
        ["goal-snail-1", "goal-grasshopper-1"],
    ]
    state = {
        **state,
        "track": TRACK,
        "black_base": TRACK[black_place - 1],
        "goals": goals,
        "hands": [["mv-caterpillar-3"], [], []],
    }
    state = finish(state)
    assert isinstance(E.prompt(state), Over)
    return E.prompt(state).result


@pytest.mark.parametrize("place, points", [(1, 5), (3, 5), (4, -3), (6, -3)])
def test_ant_holders_score_plus_five_or_minus_three(place: int, points: int) -> None:
    """Given Ant tokens taken by seats 0 and 2, when the black-based Bug finishes within
    the first three, then they score 5 more points; otherwise they lose 3; seat 1, who
    passed, is unaffected (rules/dark-horse.md, "Dilly Dally Variant" 5)."""
    result = ant_game(place)
    details = result["details"]
    assert details[0]["ant"] == {"bug": TRACK[place - 1], "place": place, "points": points}
    assert details[1]["ant"] is None
    assert details[0]["total"] == 16 + points
    assert result["scores"] == [16 + points, 11, 6 + points]


def test_variant_games_play_out_with_timeouts() -> None:
    """Given the variant, when every seat times out, then the round is all passes and the
    game ends with no Ant points (rules/dark-horse.md, "Dilly Dally Variant" 4: "Play
    the game as usual")."""
    state = finish(dealt(6, dilly=True))
    assert state["ant_choices"] == ["pass"] * 6
    assert all(d["ant"] is None for d in E.prompt(state).result["details"])
