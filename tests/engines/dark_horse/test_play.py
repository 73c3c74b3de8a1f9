"""Turns and the Move cards (rules/dark-horse.md, "Gameplay")."""

from __future__ import annotations

import copy

import pytest

from engines.base import Decision, IllegalMove, InvalidMove, Over

from .support import BUGS, E, dealt, finish, in_play

HANDS = [
    ["mv-fly+2", "mv-grasshopper-1", "mv-bee-pm1", "mv-positions-6-7"],
    ["mv-wasp+1", "mv-ladybug-pm1", "mv-position-5", "mv-fly-1"],
    ["mv-caterpillar+2", "mv-grasshopper+1", "mv-positions-1-2", "mv-bee+1"],
]
# Track from space 1: fly, snail, grasshopper, bee, ladybug, wasp, caterpillar


def scenario(**kw) -> dict:
    """Return a 3-player game in play, seat 0 to play, with HANDS and the BUGS Track."""
    return in_play(3, hands=HANDS, **kw)


def test_each_player_in_turn_clockwise_from_the_first() -> None:
    """Given seat 0 starts, when each plays one card, then the turn goes 0, 1, 2, 0, ...
    (rules/dark-horse.md, "Gameplay": "The next clockwise player does the same")."""
    state = scenario()
    order = []
    for card in ["mv-fly+2", "mv-wasp+1", "mv-bee+1", "mv-grasshopper-1"]:
        seat = E.to_act(state)[0]
        order.append(seat)
        state = E.play(state, seat, {"play": card})
    assert order == [0, 1, 2, 0] and E.to_act(state) == [1]


def test_a_played_card_is_face_up_for_everyone() -> None:
    """Given seat 0 plays a card, then it leaves seat 0's hand and every view, spectator
    included, shows it in front of seat 0 (rules/dark-horse.md, "Gameplay": "places it
    face-up in front of them")."""
    state = E.play(scenario(), 0, {"play": "mv-fly+2"})
    assert "mv-fly+2" not in state["hands"][0]
    for seat in (None, 0, 1, 2):
        view = E.view(state, seat)
        assert view["seats"][0]["played"] == ["mv-fly+2"]
        assert view["played"] == [{"seat": 0, "card": "mv-fly+2", "label": "Fly +2"}]
        assert view["seats"][0]["hand_count"] == 3


def test_plain_number_moves_the_pictured_bug_forward() -> None:
    """Given the Bee on space 4, when Bee +1 is played, then it moves one space forward
    and the Grasshopper it passes one back (rules/dark-horse.md, "Gameplay": a card
    showing "1" moves the pictured Bug one space forward)."""
    state = E.play(E.play(scenario(), 0, {"play": "mv-fly+2"}), 1, {"play": "mv-wasp+1"})
    before = list(state["track"])
    state = E.play(state, 2, {"play": "mv-bee+1"})
    b = before.index("bee")
    assert state["track"][b - 1] == "bee" and state["track"][b] == before[b - 1]


def test_minus_one_moves_the_pictured_bug_backward() -> None:
    """Given the Grasshopper on space 3, when Grasshopper -1 is played, then it is on
    space 4 and the Bee on space 3 (rules/dark-horse.md, "Gameplay": "a card showing
    "-1" moves it one space backward")."""
    state = E.play(scenario(), 0, {"play": "mv-grasshopper-1"})
    assert state["track"][:4] == ["fly", "snail", "bee", "grasshopper"]


@pytest.mark.parametrize(
    "direction, track",
    [
        ("forward", ["fly", "snail", "bee", "grasshopper"]),
        ("backward", ["fly", "snail", "grasshopper", "ladybug", "bee"]),
    ],
)
def test_pictured_bug_plus_minus_one_in_the_chosen_direction(direction: str, track) -> None:
    """Given the Bee on space 4, when Bee ±1 is played forward or backward, then it moves
    one space that way (rules/dark-horse.md, "Gameplay": "must be moved forward or
    backward one space")."""
    state = E.play(scenario(), 0, {"play": "mv-bee-pm1", "direction": direction})
    assert state["track"][: len(track)] == track


@pytest.mark.parametrize(
    "card, direction, track",
    [
        (
            "mv-positions-6-7",
            "forward",
            ["fly", "snail", "grasshopper", "bee", "wasp", "caterpillar", "ladybug"],
        ),
        (
            "mv-positions-1-2",
            "backward",
            ["grasshopper", "fly", "snail", "bee", "ladybug", "wasp", "caterpillar"],
        ),
    ],
)
def test_two_board_positions_move_the_same_way(card: str, direction: str, track) -> None:
    """Given Positions 6 and 7 (or 1 and 2) ±1, when played, then the Bugs on both
    spaces move one space in the one chosen direction, the Bug they pass going the
    other way (rules/dark-horse.md, "Gameplay": "the Bugs on the indicated positions
    must be moved forward OR backward one space. However, each Bug must move in the
    same direction")."""
    state = in_play(3, hands=[[card], [], []])
    state = E.play(state, 0, {"play": card, "direction": direction})
    assert state["track"] == track


@pytest.mark.parametrize(
    "card, offered, refused",
    [
        ("mv-positions-1-2", "backward", "forward"),
        ("mv-positions-6-7", "forward", "backward"),
    ],
)
def test_two_positions_card_offers_no_direction_a_bug_cannot_move(card, offered, refused):
    """Given a card naming space 1 and 2 (or 6 and 7), then only the direction in which
    both Bugs can move is offered: the Bug on space 1 cannot go forward, the Bug on
    space 7 cannot go back, and playing that way is refused with ``direction-blocked``
    and changes nothing (rules/dark-horse.md, "Gameplay": "each Bug must move in the
    same direction"; shared/components/dark-horse.md, "Decisions")."""
    state = in_play(3, hands=[[card], [], []])
    assert E.legal_moves(state, 0) == [{"play": card, "direction": offered}]
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        E.play(state, 0, {"play": card, "direction": refused})
    assert err.value.code == "direction-blocked" and f"play it {offered}" in err.value.detail
    assert state == before
    assert E.timeout_move(state, 0) == {"play": card, "direction": offered}
    assert E.view(state, 0)["you"]["hand"][0]["directions"] == [offered]
    assert f"({offered} only)" in E.brief(state, 0)


@pytest.mark.parametrize(
    "card, bug, offered, refused",
    [
        ("mv-fly-pm1", "fly", "backward", "forward"),
        ("mv-caterpillar-pm1", "caterpillar", "forward", "backward"),
    ],
)
def test_pictured_bug_plus_minus_offers_no_direction_it_cannot_move(card, bug, offered, refused):
    """Given the Fly on space 1 (or the Caterpillar on space 7, the last) and its ±1
    card, then only the direction in which it can move is offered, in the legal moves,
    the view, the brief and the timeout move; the other is refused with
    ``direction-blocked`` and changes nothing, and the card played always moves its Bug
    (rules/dark-horse.md, "Gameplay": "A card showing a pictured Bug with a "±1" symbol:
    the pictured Bug must be moved forward or backward one space")."""
    state = in_play(3, hands=[[card], [], []])
    end = state["track"].index(bug)
    assert end in (0, len(state["track"]) - 1)
    assert E.legal_moves(state, 0) == [{"play": card, "direction": offered}]
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        E.play(state, 0, {"play": card, "direction": refused})
    assert err.value.code == "direction-blocked" and f"play it {offered}" in err.value.detail
    assert f"space {end + 1}" in err.value.detail
    assert state == before
    timed_out = E.timeout_move(state, 0)
    assert timed_out == {"play": card, "direction": offered}
    assert E.play(state, 0, timed_out)["track"].index(bug) != end
    assert E.view(state, 0)["you"]["hand"][0]["directions"] == [offered]
    assert f"({offered} only)" in E.brief(state, 0)


def test_pictured_bug_plus_minus_off_the_ends_offers_both_directions() -> None:
    """Given the Bee on space 4, then Bee ±1 offers both directions (rules/dark-horse.md,
    "Gameplay": "forward or backward one space")."""
    state = in_play(3, hands=[["mv-bee-pm1"], [], []])
    assert E.legal_moves(state, 0) == [
        {"play": "mv-bee-pm1", "direction": d} for d in ("forward", "backward")
    ]


@pytest.mark.parametrize("version", ["2", "1"])
def test_older_versions_keep_both_directions_on_a_pictured_bug_at_the_end(version) -> None:
    """Given a game created under engine version 2 or 1, then Fly ±1 with the Fly on
    space 1 still offers both directions, forward leaving it where it is, as those
    versions played it (engines/base.py, "Rules versions"; rules/dark-horse.md,
    "Gameplay")."""
    old = E.at_version(version)
    state = in_play(3, hands=[["mv-fly-pm1"], [], []])
    assert old.legal_moves(state, 0) == [
        {"play": "mv-fly-pm1", "direction": d} for d in ("forward", "backward")
    ]
    assert old.timeout_move(state, 0) == {"play": "mv-fly-pm1", "direction": "forward"}
    assert (
        old.play(state, 0, {"play": "mv-fly-pm1", "direction": "forward"})["track"]
        == (state["track"])
    )
    assert E.at_version("2").legal_moves(in_play(3, hands=[["mv-positions-1-2"], [], []]), 0) == [
        {"play": "mv-positions-1-2", "direction": "backward"}
    ]


def test_version_1_games_keep_both_directions_on_positions_cards() -> None:
    """Given a game created under engine version 1 (whose states record no version, as
    before versions existed), then its positions cards still offer both directions, the
    Bug at the end of the Track staying put (and the other passing it), as version 1
    played them (issue 15, 3: saved games keep their rules), where version 2 offers
    only backward."""
    old = E.at_version("1")
    state = in_play(3, hands=[["mv-positions-1-2"], [], []])
    assert old.legal_moves(state, 0) == [
        {"play": "mv-positions-1-2", "direction": d} for d in ("forward", "backward")
    ]
    after = old.play(state, 0, {"play": "mv-positions-1-2", "direction": "forward"})
    assert after["track"][:2] == ["snail", "fly"]
    assert E.legal_moves(state, 0) == [{"play": "mv-positions-1-2", "direction": "backward"}]


@pytest.mark.parametrize(
    "direction, track",
    [
        ("forward", ["fly", "snail", "grasshopper", "ladybug", "bee", "wasp", "caterpillar"]),
        ("backward", ["fly", "snail", "grasshopper", "bee", "wasp", "ladybug", "caterpillar"]),
    ],
)
def test_one_position_card_moves_the_bug_on_that_space(direction: str, track) -> None:
    """Given Position 5 ±1, when played, then the Bug on space 5 moves one space the
    chosen way (rules/dark-horse.md, "Gameplay": "A card showing ... board positions";
    components page, "cards naming one Track position ±1")."""
    state = in_play(3, hands=[["mv-position-5"], [], []])
    assert E.legal_moves(state, 0) == [
        {"play": "mv-position-5", "direction": d} for d in ("forward", "backward")
    ]
    assert E.play(state, 0, {"play": "mv-position-5", "direction": direction})["track"] == track


def test_legal_moves_list_both_directions_only_for_plus_minus_cards() -> None:
    """Given a hand, then fixed cards are listed once and ± cards once per direction
    (rules/dark-horse.md, "Gameplay")."""
    assert E.legal_moves(scenario(), 0) == [
        {"play": "mv-fly+2"},
        {"play": "mv-grasshopper-1"},
        {"play": "mv-bee-pm1", "direction": "forward"},
        {"play": "mv-bee-pm1", "direction": "backward"},
        {"play": "mv-positions-6-7", "direction": "forward"},
    ]
    assert E.legal_moves(scenario(), 1) == []


@pytest.mark.parametrize(
    "move, code",
    [
        ({"play": "mv-wasp+1"}, "card-not-in-hand"),
        ({"play": "mv-no-such-card"}, "card-not-in-hand"),
        ({"play": "mv-fly+2", "direction": "forward"}, "no-direction-on-card"),
        ({"play": "mv-bee-pm1"}, "direction-required"),
        ({"play": "mv-positions-6-7"}, "direction-required"),
        ({"play": "mv-positions-6-7", "direction": "backward"}, "direction-blocked"),
        ({"play": "mv-fly+2", "swap": 1}, "not-bad-encounter"),
        ({"place": "fly", "end": "back"}, "wrong-phase"),
        ({"ant": "take"}, "wrong-phase"),
        ({"swap": 1}, "wrong-phase"),
    ],
)
def test_illegal_plays_are_refused_with_a_stable_code(move: dict, code: str) -> None:
    """Given seat 0 to play, when its move breaks a rule, then it is refused with a stable
    code and a sentence, and the state is unchanged (rules/dark-horse.md, "Gameplay";
    issue 3, "Bad input")."""
    state = scenario()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        E.play(state, 0, move)
    assert err.value.code == code
    assert len(err.value.detail) > 20 and err.value.detail != code
    assert state == before


@pytest.mark.parametrize(
    "move",
    [
        None,
        [],
        "play 1",
        {"play": 3},
        {"play": "mv-fly+2", "speed": 9},
        {"play": "mv-bee-pm1", "direction": "up"},
        {},
        {"place": "fly", "ant": "take"},
    ],
)
def test_malformed_moves_are_bad_moves(move) -> None:
    """Given seat 0 to play, when the move is not a Dark Horse move at all, then it is
    refused as ``bad-move`` (InvalidMove; engines/base.py)."""
    with pytest.raises(InvalidMove) as err:
        E.play(scenario(), 0, move)
    assert err.value.code == "bad-move"


def test_acting_out_of_turn_is_refused() -> None:
    """Given seat 0 to play, when seat 1 plays its own card, then ``not-your-turn``
    (rules/dark-horse.md, "Gameplay": each player in turn)."""
    with pytest.raises(IllegalMove) as err:
        E.play(scenario(), 1, {"play": "mv-wasp+1"})
    assert err.value.code == "not-your-turn" and "seat 0" in err.value.detail


def test_play_never_changes_the_state_given() -> None:
    """Given a state, when a card is played, then a new state comes back and the old one
    is unchanged (DESIGN.md, "Engines: pure functions of state and input")."""
    state = scenario()
    before = copy.deepcopy(state)
    E.play(state, 0, {"play": "mv-positions-6-7", "direction": "forward"})
    assert state == before


def test_the_game_ends_when_every_hand_is_played_out() -> None:
    """Given a deal, when every player has played all their cards, then the game is over
    and every dealt card was played once (rules/dark-horse.md, "Gameplay": "until all
    the players have played the cards they have in hand"; "End of the Game")."""
    state = dealt(4)
    dealt_cards = sorted(sum(state["hands"], []))
    state = finish(state)
    assert isinstance(E.prompt(state), Over)
    assert sorted(e["card"] for e in state["played"]) == dealt_cards
    assert [sum(e["seat"] == s for e in state["played"]) for s in range(4)] == [6] * 4
    assert sorted(state["track"]) == sorted(BUGS)
    with pytest.raises(IllegalMove) as err:
        E.play(state, 0, {"play": "mv-fly+1"})
    assert err.value.code == "game-over"
    assert E.legal_moves(state, 0) == []


def test_last_card_resolved_before_the_end() -> None:
    """Given one card left in the game, when it is played, then its movement is resolved
    and only then is the game over (rules/dark-horse.md, "End of the Game": "the last
    one has been resolved")."""
    state = in_play(3, hands=[["mv-caterpillar+2"], [], []])
    assert E.prompt(state) == Decision((0,), "play-card")
    state = E.play(state, 0, {"play": "mv-caterpillar+2"})
    result = E.prompt(state).result
    assert [f["bug"] for f in result["finish"]][4] == "caterpillar"
