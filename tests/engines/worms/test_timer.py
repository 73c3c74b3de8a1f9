"""The Timer (rulebook, "Timer"): a per-turn clock started before the worm is
activated; when it runs out the turn jumps to step 6, a card text being resolved is
finished first, nothing else of the card is done."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.worms import ENGINE
from tests.engines.worms.helpers import BULLSEYE, WIND, kind, move, roll, start

TIMER = {"timer": True, "timer_seconds": 30}


def test_no_timer_no_turn_clock() -> None:
    s = start(2)
    assert ENGINE.prompt(s).turn_clock is None
    assert {"move": "time-up"} not in ENGINE.legal_moves(s, 0)
    with pytest.raises(IllegalMove) as err:
        ENGINE.play(s, 0, {"move": "time-up"})
    assert err.value.code == "no-timer"


def test_every_decision_of_steps_1_to_5_carries_the_same_turn_clock() -> None:
    """ "Once started, the Active player must reach step 6 of their turn (End turn)
    before the time runs out": the turn clock covers steps 1-5, not the Drop card."""
    s = start(2, options=TIMER)
    clock = {"turn": 1, "seat": 0, "seconds": 30}
    assert ENGINE.prompt(s).turn_clock == clock
    assert ENGINE.legal_moves(s, 0)[-1] == {"move": "time-up"}
    assert ENGINE.timeout_move(s, 0) == {"move": "time-up"}
    s = move(move(s, "activate B1"), "skip")
    assert ENGINE.prompt(s).turn_clock == clock
    s = move(move(s, "skip"), "skip")  # no card: step 6, then the Drop
    assert kind(s) == "target" and ENGINE.prompt(s).turn_clock is None
    assert {"move": "time-up"} not in ENGINE.legal_moves(s, 0)


def test_time_up_before_activating_jumps_to_step_6() -> None:
    """ "their turn immediately Jumps to step 6, so they miss any chance to perform steps
    they didn't get to"."""
    s = move(start(2, options=TIMER), "time-up")
    assert "time is up" in s["log"] and s["turn"]["worm"] is None
    assert "drop supply-drop" in s["log"]


def test_time_up_during_a_card_text_finishes_the_text_only() -> None:
    """ "If a card has been played and any text is still being resolved, the player can
    complete it, but must then immediately proceed to step 6. They cannot perform any
    other actions on the card": the Bazooka's Accuracy pick and Blast are still done,
    its Movement symbol is not."""
    s = move(move(move(start(2, options=TIMER), "activate B1"), "skip"), "skip")
    s = roll(move(s, "play bazooka at 0,1"), 4, WIND, BULLSEYE, purpose="accuracy")
    assert kind(s) == "pick" and {"move": "time-up"} in ENGINE.legal_moves(s, 0)
    s = move(s, "time-up")
    assert kind(s) == "pick" and {"move": "time-up"} not in ENGINE.legal_moves(s, 0)
    assert ENGINE.prompt(s).turn_clock is None
    s = move(s, "pick die bullseye")  # the text goes on: Blast at 0,1
    assert kind(s) == "blast"
    s = roll(s, BULLSEYE, purpose="blast")  # the mine at 0,1 ...
    while kind(s) in ("mine", "blast", "oil-drum"):
        s = roll(s, *[2] * len(ENGINE.prompt(s).spec["faces"]))
    assert "B1 inches" not in " ".join(s["log"])  # no Movement symbol
    assert "drop supply-drop" in s["log"]
