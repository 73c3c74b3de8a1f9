"""Reminders of deadlines that the outage policy extended (issue 16): each extended
deadline gets the reminders due for its new deadline, once each, quoting it."""

from __future__ import annotations

import time_machine

from tests.arbiter.clock_helpers import (
    T0,
    after,
    clocked_game,
    deadline_of,
    events,
    reminder_mails,
    sweep,
)

CLOCK = {"type": "per-move", "seconds": 3600, "reminders": [1800, 600]}


def sweeps(app, seconds: list[int]) -> list[dict]:
    """Run the clock sweep at each of ``seconds`` after T0, as beat would."""
    out = []
    for at in seconds:
        with time_machine.travel(after(T0, at), tick=False):
            out.append(sweep(app, after(T0, at)))
    return out


def test_reminders_whose_window_fell_in_the_outage_come_for_the_new_deadline(app, client):
    """Given the 1800 s reminder given at 1900 s, then the sweep stopped from 2900 s
    to 3700 s (over its 600 s reminder and its 3600 s deadline), the deadline moves to
    4400 s, and both reminders come again for it: the 1800 s one at once (its time,
    2600 s, has passed), the 600 s one at 3800 s; each once, each quoting 13:13."""
    with time_machine.travel(T0, tick=False):
        game_id, *_ = clocked_game(client, app, CLOCK, players=1, emails=True)
    counts = sweeps(app, [1900, 2900, 3700, 3710, 3790, 3810, 3900, 4300])
    assert [c["reminders"] for c in counts] == [1, 0, 1, 0, 0, 1, 0, 0]
    assert counts[2]["extended"] == 1
    assert deadline_of(client, game_id) == after(T0, 4400)
    first, *again = reminder_mails(app)
    assert "12:00" not in first.body and "13:00" in first.body  # the old deadline
    assert len(again) == 2 and all("13:13" in m.body for m in again)
    assert [e.kind for e in events(app, game_id)][-1] == "deadline-extended"


def test_no_reminder_is_given_twice_for_one_deadline_across_sweeps(app, client):
    """Given an extension and many sweeps after it, the extended deadline's two
    reminders are each given once, then the timeout comes once."""
    with time_machine.travel(T0, tick=False):
        clocked_game(client, app, CLOCK, players=1, emails=True)
    counts = sweeps(app, [100, 3700, *range(3750, 7300, 50)])
    assert sum(c["reminders"] for c in counts) == 2
    assert sum(c["timeouts"] for c in counts) == 1
