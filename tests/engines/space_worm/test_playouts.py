"""Space Worm invariants over random games (STYLE.md, "What we take from all of them", 2).

``ARBITER_PLAYOUTS`` (default 200) sets the number of games, so a soak run can use
thousands: ``ARBITER_PLAYOUTS=5000 pytest tests/engines/space_worm/test_playouts.py``.
"""

from __future__ import annotations

import os
import random

from arbiter.playout import random_game
from engines.space_worm import ENGINE
from engines.space_worm.scoring import planet_penalty
from engines.space_worm.sheet import SHEETS, STEPS

GAMES = int(os.environ.get("ARBITER_PLAYOUTS", "200"))


def _check_step(before: dict, after: dict, item) -> None:
    sheet = SHEETS[after["sheet"]]
    for old, new in zip(before["sheets"], after["sheets"]):
        assert 0 <= new["hearts"] <= sheet.hearts
        assert new["hearts"] >= old["hearts"]
        assert new["path"][: len(old["path"])] == old["path"], "a path never changes"
        assert len(set(new["path"])) == len(new["path"]), "a worm never revisits a space"
        assert new["planets"] == sorted(
            {sheet.planet_at[c] for c in new["path"] if c in sheet.planet_at}
        )
        for fruit in sheet.fruits:
            mine = new["fruit"][fruit.type]
            assert mine["eaten"] == len(fruit.spaces & set(new["path"]))
            assert (mine["scored"] is not None) == (mine["eaten"] == len(fruit.spaces))
            assert mine["plus"] <= mine["eaten"]
    for fruit_type, open_ in after["tracks"].items():
        old = before["tracks"][fruit_type]
        assert old[len(old) - len(open_) :] == open_, "tracks only lose their top numbers"
    if item.kind != "move":
        return
    seat, die = item.seat, item.value["die"]
    assert before["taken"][die] is None and after["taken"][die] == seat
    old, new = before["sheets"][seat], after["sheets"][seat]
    added = new["path"][len(old["path"]) :]
    if item.value.get("heart"):
        assert added == [] and new["hearts"] == old["hearts"] + 1
        return
    pips, (d_row, d_col) = before["dice"][die], STEPS[item.value["direction"]]
    assert len(added) == pips, "a line is exactly the die's pips long"
    row, col = divmod(old["path"][-1], sheet.width)
    for step, cell in enumerate(added, start=1):
        assert cell == (row + step * d_row) * sheet.width + col + step * d_col
        r, c = row + step * d_row, col + step * d_col
        assert 0 <= r < sheet.height and 0 <= c < sheet.width and sheet.rows[r][c] != "#"


def _check_result(state: dict, result: dict) -> None:
    sheet = SHEETS[state["sheet"]]
    for seat, player in enumerate(state["sheets"]):
        detail = result["details"][seat]
        missed = len(sheet.planets) - len(player["planets"])
        fruit = sum(
            f["scored"] + f["plus"] for f in player["fruit"].values() if f["scored"] is not None
        )
        expected = fruit + 2 * (sheet.hearts - player["hearts"]) - planet_penalty(missed)
        assert result["scores"][seat] == expected == detail["score"]
        assert detail["score"] == (
            detail["fruit_points"] + detail["heart_points"] - detail["planet_penalty"]
        )
    ended = state["sheets"][result["ended_by"]]
    if result["reason"] == "all-hearts":
        assert ended["hearts"] == sheet.hearts
    else:
        assert all(f["scored"] is not None for f in ended["fruit"].values())


def test_random_games_keep_the_space_worm_invariants() -> None:
    """Given random legal games on every sheet with 1 to 6 players, then at every step:
    Hearts stay within 0..4 and never go down, a path only grows, never revisits a
    space and each line is straight and exactly the die's pips long, eaten Planets and
    fruit match the path, fruit tracks only lose their top numbers; and at the end each
    score is the sum of its parts (rules/space-worm.md, "Turns", "Fruit", "Scoring")."""
    rng = random.Random("space-worm-invariants")
    names = sorted(SHEETS)
    for i in range(GAMES):
        players, sheet = rng.randint(1, 6), names[i % len(names)]
        options = {
            "sheet": sheet,
            "start_roll": ("each", "shared")[i % 2],
            "hungriest_seat": rng.randrange(players),
        }
        played = random_game(ENGINE, players, options, rng, keep_states=True)
        before = ENGINE.setup(players, ENGINE.load_options(players, options))
        for item, after in zip(played.inputs, played.states):
            _check_step(before, after, item)
            before = after
        _check_result(played.state, played.result)
        _check_start(played, players, options)


def _check_start(played, players: int, options: dict) -> None:
    """The start rolls: one per seat (``each``) or one for all (``shared``), each worm
    on the Planet of its roll; the hungriest seat rolls round 1 and moves first."""
    starts = 1 if options["start_roll"] == "shared" else players
    assert [i.kind for i in played.inputs[: starts + 1]] == ["chance"] * (starts + 1)
    assert played.inputs[starts + 1].seat == options["hungriest_seat"]
    sheet = SHEETS[options["sheet"]]
    rolls = played.state["start_rolls"]
    for seat, player in enumerate(played.state["sheets"]):
        assert player["path"][0] == sheet.planet_cell[sheet.start_by_sum[sum(rolls[seat])]]
