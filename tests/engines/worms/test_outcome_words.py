"""Worms' rolls, flips and shuffles in the rulebook's words (rules/worms.md, "Dice",
"Danger Flipper", "Scatter", "Setup"), while the log keeps describe_outcome's text."""

from __future__ import annotations

import engines
from engines.worms import board as B


def test_a_scatter_die_says_its_direction_and_symbols_by_name():
    """rules/worms.md, "Dice": faces 1 to 6 are the Wind Dial's directions, then a Wind
    symbol and a Bullseye symbol."""
    worms = engines.get("worms")
    scatter = {"kind": "dice", "faces": [B.DIE_FACES], "for": "scatter"}
    assert worms.outcome_words(scatter, [5]) == "The die to Scatter shows direction 5."
    assert worms.outcome_words(scatter, [7]) == "The die to Scatter shows a Wind symbol."
    accuracy = {"kind": "dice", "faces": [B.DIE_FACES] * 3, "for": "accuracy"}
    assert worms.outcome_words(accuracy, [1, 8, 3]) == (
        "The Accuracy dice show direction 1, a Bullseye symbol and direction 3."
    )
    assert worms.describe_outcome(scatter, [5]) == "scatter: 5"  # the log's text stays


def test_a_flip_and_a_shuffle_in_words():
    """rules/worms.md, "Moving into a Mine" (safety side up: a dud) and "Setup"."""
    worms = engines.get("worms")
    mine = {"kind": "dice", "faces": [B.FLIPPER_FACES], "for": "mine"}
    safe = B.FLIPPER_RESULTS.index("safe") + 1
    danger = B.FLIPPER_RESULTS.index("danger") + 1
    assert (
        worms.outcome_words(mine, [safe])
        == "The Danger Flipper for the Mine landed safety side up."
    )
    assert worms.outcome_words(mine, [danger]) == "The Danger Flipper for the Mine landed Danger."
    shuffle = {"kind": "shuffle", "size": 8, "deck": "starter_pool"}
    assert worms.outcome_words(shuffle, list(range(8))) == "The Starter cards were shuffled."


def test_other_engines_show_the_logs_text():
    assert engines.get("space-worm").outcome_words({"kind": "dice"}, [3]) is None
