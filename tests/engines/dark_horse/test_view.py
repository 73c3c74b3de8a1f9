"""Views, secrets and the turn brief (rules/dark-horse.md, "Setup" 1 and 4:
hidden Goal cards and hands; issue 3, "Secrets hold everywhere")."""

from __future__ import annotations

import json

from engines.base import Chance

from .support import E, after_goals, dealt, finish, in_play, placing


def test_a_seat_sees_its_own_hand_and_goals_only() -> None:
    """Given a deal, then seat 1's view lists its own Move cards and Goal cards, numbered
    from 1, and only counts for the others (rules/dark-horse.md, "Setup" 1 and 4)."""
    state = dealt(3)
    view = E.view(state, 1)
    assert [h["card"] for h in view["you"]["hand"]] == state["hands"][1]
    assert [h["number"] for h in view["you"]["hand"]] == list(range(1, 8))
    assert [g["card"] for g in view["you"]["goals"]] == state["goals"][1]
    assert [(s["hand_count"], s["goal_count"]) for s in view["seats"]] == [(7, 2)] * 3
    text = json.dumps(view)
    for secret in E.secrets(state, 0) + E.secrets(state, 2) + E.secrets(state, None):
        assert secret not in text


def test_the_spectator_sees_no_card_of_anyone() -> None:
    """Given a deal, then the spectator view has no hand, no Goal card, no deck order, and
    the Track, counts and played cards are there (DESIGN.md, "view")."""
    state = E.play(dealt(3), 0, {"play": dealt(3)["hands"][0][0]})
    view = E.view(state, None)
    assert "you" not in view and view["seat"] is None
    text = json.dumps(view)
    for seat in (None, 0, 1, 2):
        for secret in E.secrets(state, seat):
            assert secret not in text
    assert view["track"] and len(view["played"]) == 1


def test_an_unknown_seat_gets_the_spectator_view() -> None:
    """Given a seat number that does not exist, then the view is the spectator's."""
    state = dealt(3)
    assert E.view(state, 7) == E.view(state, None)


def test_secrets_name_hand_and_goal_ids() -> None:
    """Given a deal, then a seat's secrets are its Move card ids and Goal card ids, and
    the secrets of nobody (None) are the Goal deck and the set-aside cards; after the
    game nothing is secret (issue 3, "Secrets hold everywhere")."""
    state = dealt(3)
    assert E.secrets(state, 2) == state["hands"][2] + state["goals"][2]
    assert E.secrets(state, None) == state["goal_deck"] + state["set_aside"]
    assert E.secrets(after_goals(3), 0) == after_goals(3)["goals"][0]
    assert E.secrets(E.setup(3, {}), 0) == []
    assert E.secrets(finish(state), 0) == [] and E.secrets(finish(state), None) == []


def test_the_row_is_public_while_placing() -> None:
    """Given Bugs being placed, then everyone sees the row, front first, and no Track
    yet (rules/dark-horse.md, "Setup" 3)."""
    state = E.play(E.play(placing(3), 0, {"place": "fly"}), 1, {"place": "bee", "end": "front"})
    view = E.view(state, None)
    assert [r["bug"] for r in view["row"]] == ["bee", "fly"] and view["track"] is None


def test_shuffle_outcomes_are_never_written_out() -> None:
    """Given the shuffles, then their description names no card and no order, and the
    start roll names the seat (engines/base.py, describe_outcome)."""
    spec = E.prompt(E.setup(3, {})).spec
    assert (
        E.describe_outcome(spec, list(range(14)))
        == "The Goal cards are shuffled and dealt face down."
    )
    assert E.describe_outcome({"kind": "dice", "faces": [3]}, [2]) == "Seat 1 is the start player."
    state = dealt(3)
    prompt = E.prompt({**state, "hands": None, "set_aside": None})
    assert isinstance(prompt, Chance)
    assert "0" not in E.describe_outcome(prompt.spec, list(range(34)))


def test_brief_names_own_cards_goals_and_track() -> None:
    """Given seat 0 to play, then its brief lists its numbered Move cards and Goal cards,
    the Track, and how to write a play; no other seat's card is in it
    (rules/dark-horse.md, "Gameplay")."""
    state = in_play(
        3,
        hands=[["mv-fly+2", "mv-bad-encounter"], ["mv-wasp+1"], ["mv-bee+1"]],
        goals=[
            ["goal-fly-1", "goal-bee-1"],
            ["goal-wasp-1", "goal-snail-1"],
            ["goal-ladybug-1", "goal-caterpillar-1"],
        ],
    )
    text = E.brief(state, 0)
    assert "Your Move cards: 1. Fly +2, 2. Bad encounter!." in text
    assert "Your Goal cards: 1. Fly, 2. Bee." in text
    assert "1 sugar cube: Fly" in text and "7 stone: Caterpillar" in text
    assert "bad-encounter choose SEAT" in text
    assert "Wasp +1" not in text and "Snail." not in text


def test_brief_for_each_decision() -> None:
    """Given each kind of decision, then the brief says what to write (rules/dark-horse.md,
    "Setup" 3, "Special Cards", "Dilly Dally Variant" 3)."""
    assert "place BUG front" in E.brief(E.play(placing(3), 0, {"place": "fly"}), 1)
    assert "ant take" in E.brief(dealt(3, dilly=True), 0)
    state = in_play(3, hands=[["mv-bad-encounter"], ["mv-wasp+1"], ["mv-bee+1"]])
    state = E.play(state, 0, {"play": "mv-bad-encounter", "choose": 2})
    assert "Seat 0 played Bad encounter! and chose you" in E.brief(state, 2)
    assert "nothing to decide" in E.brief(state, 1)
