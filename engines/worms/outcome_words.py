"""Worms' rolls, flips and shuffles in the rulebook's words, for people (pages, mails,
the replay). The log keeps :meth:`engines.worms.engine.Worms.describe_outcome`'s text,
which records carry and ``arbiter verify`` checks; these words are only shown.

Sources: rules/worms.md, "Dice" (5 custom dice: directions 1 to 6 as on the Wind Dial,
a Wind symbol, a Bullseye symbol), "Danger Flipper" (Danger or safe), "Scatter",
"Knockback Scatter", "Accuracy X", "Oil Drum", "Wind" and "Setup".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.worms import board as B

ROLLED_FOR = {
    "accuracy": "The Accuracy dice",
    "scatter": "The die to Scatter",
    "knockback": "The die for a Knockback Scatter",
    "blast": "The die for the Blast",
    "oil-drum": "The dice for the exploding Oil Drum",
    "wind": "The die for the Wind",
    "starting-wind": "The die for the starting Wind Direction",
}

FLIPPED_FOR = {
    "mine": "The Danger Flipper for the Mine",
    "fire": "The Danger Flipper for the Fire",
}

DECKS = {
    "reference-cards": "The Reference Cards (which team plays which colour)",
    "starter_pool": "The Starter cards",
    "supply": "The Supply Deck",
    "supply_super": "The Superweapon cards of the Supply Deck",
    "drop": "The Drop Deck",
    "sudden_death": "The Sudden Death cards",
    "sudden_death_deal": "The Sudden Death cards to deal",
    "sudden_death_chosen": "The chosen Sudden Death cards",
}


def face_words(outcome: int) -> str:
    """Return a custom die's face in words: ``direction N``, ``a Wind symbol`` or
    ``a Bullseye symbol`` (rules/worms.md, "Dice")."""
    face = B.face(outcome)
    return f"direction {face}" if face.isdigit() else f"a {face.capitalize()} symbol"


def words(spec: Mapping[str, Any], outcome: Any) -> str | None:
    """Return the sentence for one chance step of Worms, or None for a spec this module
    does not know (the log's text is shown then)."""
    if spec.get("kind") == "shuffle":
        deck = DECKS.get(str(spec.get("deck")), "A deck")
        return f"{deck} were shuffled."
    if not isinstance(outcome, list | tuple) or not outcome:
        return None
    purpose = str(spec.get("for"))
    if spec.get("faces") == [B.FLIPPER_FACES]:
        result = B.FLIPPER_RESULTS[outcome[0] - 1]
        landed = "Danger" if result == "danger" else "safety side up"
        return f"{FLIPPED_FOR.get(purpose, 'The Danger Flipper')} landed {landed}."
    faces = [face_words(o) for o in outcome]
    rolled = ROLLED_FOR.get(purpose, "The dice")
    verb = "shows" if len(faces) == 1 else "show"
    listed = faces[0] if len(faces) == 1 else ", ".join(faces[:-1]) + " and " + faces[-1]
    return f"{rolled} {verb} {listed}."
