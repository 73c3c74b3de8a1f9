"""Setup: Goal deal, start player, Bug placement draft, Move card deal
(rules/dark-horse.md, "Setup")."""

from __future__ import annotations

import pytest

from engines.base import BadOutcome, Chance, Decision, IllegalMove, InvalidMove, InvalidOptions

from .support import BUGS, GOALS, MOVES, E, after_goals, dealt, place_all, placing


@pytest.mark.parametrize("players, each", [(2, 3), (3, 2), (4, 2), (5, 2), (6, 2)])
def test_goal_cards_dealt_two_each_three_with_two_players(players: int, each: int) -> None:
    """Given a new game, when the Goal deck is shuffled, then each player is dealt two
    Goal cards, three in a two-player game, and the rest is the Goal deck
    (rules/dark-horse.md, "Setup" 1)."""
    state = after_goals(players)
    assert [len(g) for g in state["goals"]] == [each] * players
    assert len(state["goal_deck"]) == 14 - each * players
    assert sorted(sum(state["goals"], []) + state["goal_deck"]) == sorted(GOALS)


def test_the_goal_shuffle_is_seen_by_nobody_and_deals_from_it() -> None:
    """Given a new game, then the first prompt is a shuffle of the 14 Goal cards nobody
    sees; when it is resolved, then the deal follows the shuffled order, one card at a
    time from seat 0 (rules/dark-horse.md, "Setup" 1; package docstring)."""
    state = E.setup(3, {})
    prompt = E.prompt(state)
    assert isinstance(prompt, Chance)
    assert prompt.spec["kind"] == "shuffle" and prompt.spec["size"] == 14
    assert prompt.visible_to == ()
    order = list(range(13, -1, -1))
    state = E.resolve(state, order)
    deck = [GOALS[i] for i in order]
    assert state["goals"] == [[deck[0], deck[3]], [deck[1], deck[4]], [deck[2], deck[5]]]
    assert state["goal_deck"] == deck[6:]


def test_goal_cards_stay_secret() -> None:
    """Given the Goal deal, then each player sees their own Goal cards and only the count
    of the others'; the Goal deck is seen by nobody (rules/dark-horse.md, "Setup" 1)."""
    state = after_goals(3)
    mine = E.view(state, 0)
    assert [g["card"] for g in mine["you"]["goals"]] == state["goals"][0]
    assert [s["goal_count"] for s in mine["seats"]] == [2, 2, 2]
    text = str(mine)
    for goal in state["goals"][1] + state["goals"][2] + state["goal_deck"]:
        assert goal not in text
    assert mine["goal_deck_count"] == 8


def test_track_has_seven_spaces_numbered_one_to_seven() -> None:
    """Given the Bugs placed, then the Track shows seven spaces numbered 1 to 7 from the
    finish, one Bug each (rules/dark-horse.md, "Setup" 2)."""
    track = E.view(dealt(3), None)["track"]
    assert [t["space"] for t in track] == [1, 2, 3, 4, 5, 6, 7]
    assert sorted(t["bug"] for t in track) == sorted(BUGS)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_start_player_is_chosen_by_a_public_die(players: int) -> None:
    """Given the Goal cards dealt, then the start player is chosen at random: a public
    die with one face per player, face k giving seat k-1 (rules/dark-horse.md, "Setup"
    3)."""
    state = after_goals(players)
    prompt = E.prompt(state)
    assert isinstance(prompt, Chance)
    assert prompt.spec == {"kind": "dice", "faces": [players], "for": "Choose the start player"}
    assert prompt.visible_to is None
    state = E.resolve(state, [players])
    assert state["first"] == players - 1
    assert E.prompt(state) == Decision((players - 1,), "place-bug")


def test_placement_goes_clockwise_from_the_start_player() -> None:
    """Given seat 2 of 3 starts, when Bugs are placed, then seats 2, 0, 1, 2, ... place
    them in turn (rules/dark-horse.md, "Setup" 3: "The next clockwise player")."""
    state = placing(3, first=2)
    seats = []
    for i, bug in enumerate(BUGS):
        seats.append(E.to_act(state)[0])
        move = {"place": bug} if i == 0 else {"place": bug, "end": "front"}
        state = E.play(state, seats[-1], move)
    assert seats == [2, 0, 1, 2, 0, 1, 2]


def test_first_bug_then_just_before_or_after_never_between() -> None:
    """Given the first Bug placed, then the legal placements are every other Bug at the
    front or the back of the row, nothing between (rules/dark-horse.md, "Setup" 3)."""
    state = placing(3)
    assert E.legal_moves(state, 0) == [{"place": b} for b in BUGS]
    state = E.play(state, 0, {"place": "wasp"})
    moves = E.legal_moves(state, 1)
    assert {m["end"] for m in moves} == {"front", "back"}
    assert len(moves) == 12 and all(m["place"] != "wasp" for m in moves)
    state = E.play(state, 1, {"place": "bee", "end": "front"})
    state = E.play(state, 2, {"place": "fly", "end": "back"})
    assert state["track"] == ["bee", "wasp", "fly"]


def test_row_front_goes_on_space_one() -> None:
    """Given all seven Bugs placed, then the Bug at the front of the row is on space 1
    and the Bug at the back on space 7, the stone: the row read from the start of the
    Track gives spaces 7, 6, ..., 1, "the first Bug on the first space"
    (rules/dark-horse.md, "Setup" 2 and 3; package docstring)."""
    state = placing(3)
    state = E.play(state, 0, {"place": "fly"})
    for seat, bug, end in [
        (1, "bee", "front"),
        (2, "wasp", "back"),
        (0, "snail", "front"),
        (1, "ladybug", "back"),
        (2, "grasshopper", "front"),
        (0, "caterpillar", "back"),
    ]:
        state = E.play(state, seat, {"place": bug, "end": end})
    track = E.view(state, None)["track"]
    assert [t["bug"] for t in track] == [
        "grasshopper",
        "snail",
        "bee",
        "fly",
        "wasp",
        "ladybug",
        "caterpillar",
    ]
    assert (track[0]["name"], track[6]["name"]) == ("sugar cube", "stone")


@pytest.mark.parametrize(
    "row, move, code",
    [
        ([], {"place": "fly", "end": "front"}, "first-bug-has-no-end"),
        (["fly"], {"place": "fly", "end": "back"}, "bug-already-placed"),
        (["fly"], {"place": "dragonfly", "end": "back"}, "no-such-bug"),
        (["fly"], {"place": "bee"}, "end-required"),
    ],
)
def test_placement_errors(row: list[str], move: dict, code: str) -> None:
    """Given a row, when a placement breaks the draft, then it is refused with a stable
    code and a sentence (rules/dark-horse.md, "Setup" 3)."""
    state = placing(3)
    for _i, bug in enumerate(row):
        state = E.play(state, E.to_act(state)[0], {"place": bug})
    with pytest.raises(IllegalMove) as err:
        E.play(state, E.to_act(state)[0], move)
    assert err.value.code == code and err.value.detail != code


def test_placing_between_is_not_a_move() -> None:
    """Given a row, when a player names any end but front or back, then the move cannot
    be read (rules/dark-horse.md, "Setup" 3: never between)."""
    state = E.play(placing(3), 0, {"place": "fly"})
    with pytest.raises(InvalidMove) as err:
        E.play(state, 1, {"place": "bee", "end": "middle"})
    assert err.value.code == "bad-move"


@pytest.mark.parametrize("players, hand", [(2, 8), (3, 7), (4, 6), (5, 6), (6, 5)])
def test_move_cards_dealt_by_player_count_rest_aside(players: int, hand: int) -> None:
    """Given the Bugs placed, when the Move cards are shuffled, then each player gets
    8, 7, 6, 6 or 5 cards for 2 to 6 players and the rest is put aside
    (rules/dark-horse.md, "Setup" 4)."""
    state = place_all(placing(players))
    prompt = E.prompt(state)
    assert prompt.spec["kind"] == "shuffle" and prompt.spec["size"] == 34
    assert prompt.visible_to == ()
    state = E.resolve(state, list(range(34)))
    assert [len(h) for h in state["hands"]] == [hand] * players
    assert len(state["set_aside"]) == 34 - hand * players
    assert sorted(sum(state["hands"], []) + state["set_aside"]) == sorted(MOVES)


def test_move_cards_dealt_one_at_a_time_from_the_start_player() -> None:
    """Given seat 1 of 3 starts, when the shuffled deck is dealt, then seat 1 gets the
    1st, 4th, 7th ... cards and seat 2 the 2nd, 5th ...; set-aside cards are seen by
    nobody (rules/dark-horse.md, "Setup" 4; package docstring)."""
    state = dealt(3, first=1)
    assert state["hands"][1] == [MOVES[i] for i in range(0, 21, 3)]
    assert state["hands"][2] == [MOVES[i] for i in range(1, 21, 3)]
    assert state["set_aside"] == MOVES[21:]
    assert E.view(state, 1)["set_aside_count"] == 13
    for seat in (None, 0, 1, 2):
        text = str(E.view(state, seat))
        assert not any(card in text for card in state["set_aside"])


def test_play_starts_with_the_start_player() -> None:
    """Given seat 2 starts, when the cards are dealt, then seat 2 plays first
    (rules/dark-horse.md, "Gameplay": "Starting with the first player")."""
    state = dealt(3, first=2)
    assert E.prompt(state) == Decision((2,), "play-card")


@pytest.mark.parametrize("outcome", [[1, 2], [0], [4], ["1"], [True], 1])
def test_a_start_roll_that_does_not_fit_is_refused(outcome) -> None:
    """Given the start-player roll of a 3-player game, when the outcome is not one value
    1..3, then it is refused (engines/base.py, Chance)."""
    with pytest.raises(BadOutcome):
        E.resolve(after_goals(3), outcome)


@pytest.mark.parametrize("outcome", [list(range(13)), [0] * 14, list(range(1, 15)), "0123", None])
def test_a_shuffle_that_does_not_fit_is_refused(outcome) -> None:
    """Given the Goal shuffle, when the outcome is not a permutation of 0..13, then it is
    refused (engines/base.py, Chance)."""
    with pytest.raises(BadOutcome):
        E.resolve(E.setup(3, {}), outcome)


def test_no_chance_is_taken_while_a_player_must_decide() -> None:
    """Given a placement to make, when a chance outcome arrives, then it is refused."""
    with pytest.raises(BadOutcome) as err:
        E.resolve(placing(3), [1])
    assert err.value.code == "not-awaiting-chance"


@pytest.mark.parametrize("players", [1, 7, 0])
def test_two_to_six_players(players: int) -> None:
    """Given a player count outside 2..6, when a game is set up, then it is refused
    (rules/dark-horse.md, "Setup" 4 lists 2 to 6 players)."""
    with pytest.raises(InvalidOptions) as err:
        E.setup(players, {})
    assert err.value.code == "bad-player-count"


def test_unknown_options_are_refused() -> None:
    """Given an unknown option, when a game is set up, then it is refused; without
    options the variant is off (engine options schema)."""
    with pytest.raises(InvalidOptions) as err:
        E.setup(3, {"turbo": True})
    assert err.value.code == "bad-options"
    assert E.setup(3, {})["dilly_dally"] is False
    assert E.load_options(3, {"dilly_dally": True}) == {"dilly_dally": True}


def test_while_setting_up_moves_wait_for_chance() -> None:
    """Given a shuffle pending, when a seat moves, then it is told the game waits for
    chance (engines/base.py, check_turn codes)."""
    with pytest.raises(IllegalMove) as err:
        E.play(E.setup(3, {}), 0, {"place": "fly"})
    assert err.value.code == "awaiting-chance"
