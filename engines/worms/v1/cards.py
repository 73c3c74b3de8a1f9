"""Card data and the keyword reader: card text in the rulebook's words -> steps.

A card's text is a list of sentences written in the rulebook's keywords ("Keywords and
Terms", "Card Reference"). :data:`GRAMMAR` maps each sentence pattern to one step, a
small JSON dict ``{"do": ..., ...}`` that ``rules/`` resolves. A new card is a data
entry in ``data/cards.json``; a new *keyword* is one line here plus one step handler.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

DATA = Path(__file__).parent / "data"

THING_WORDS = {
    "crater": "crater",
    "mine": "mine",
    "supply crate": "crate",
    "oil drum": "drum",
    "fire": "fire",
}

GRAMMAR: list[tuple[str, object]] = [
    # (regex over one lower-case sentence without its full stop, step or builder)
    (
        r"target a (new )?(direct )?hex( within (\d+))?",
        lambda m: {
            "do": "target",
            "new": bool(m.group(1)),
            "direct": bool(m.group(2)),
            "within": int(m.group(4)) if m.group(4) else None,
        },
    ),
    (r"target your own hex", lambda m: {"do": "target-own"}),
    (r"target the emptiest hex", lambda m: {"do": "target-emptiest"}),
    (r"air strike", lambda m: {"do": "air-strike"}),
    (r"accuracy (\d+)", lambda m: {"do": "accuracy", "x": int(m.group(1))}),
    (r"knockback scatter", lambda m: {"do": "knockback"}),
    (r"scatter", lambda m: {"do": "scatter"}),
    (r"blast", lambda m: {"do": "blast"}),
    (r"damage every worm", lambda m: {"do": "damage-worms"}),
    (r"damage", lambda m: {"do": "damage"}),
    (
        r"place an? (crater|mine|supply crate|oil drum|fire)",
        lambda m: {"do": "place", "thing": THING_WORDS[m.group(1)]},
    ),
    (r"remove a crater", lambda m: {"do": "remove-crater"}),
    (r"inch or jump", lambda m: {"do": "move", "ways": ["inch", "jump"]}),
    (r"inch", lambda m: {"do": "move", "ways": ["inch"]}),
    (r"jump", lambda m: {"do": "move", "ways": ["jump"]}),
    (r"move your worm to the target", lambda m: {"do": "move-to-target"}),
    (r"change wind", lambda m: {"do": "change-wind"}),
    (r"play another card", lambda m: {"do": "play-another"}),
]


class UnknownKeyword(ValueError):
    """A card sentence that no GRAMMAR line reads."""


def read_text(text: str) -> list[dict]:
    """Return the steps of a card text (sentences ending in a full stop).

    :raises UnknownKeyword: a sentence is not in :data:`GRAMMAR`.
    """
    steps = []
    for sentence in [s.strip().lower() for s in text.split(".") if s.strip()]:
        for pattern, build in GRAMMAR:
            m = re.fullmatch(pattern, sentence)
            if m:
                steps.append(build(m))
                break
        else:
            raise UnknownKeyword(f"no keyword reads {sentence!r}")
    return steps


def _load() -> dict:
    """Return every card by id, with its parsed steps and its deck."""
    raw = json.loads((DATA / "cards.json").read_text())
    cards = {}
    for deck in ("starter", "starter_pool", "supply", "drop", "sudden_death"):
        for card in raw[deck]:
            card = dict(card, deck=deck, steps=read_text(card["text"]))
            card.setdefault("line", ["text"])
            card.setdefault("copies", 1)
            card.setdefault("super", False)
            cards[card["id"]] = card
    return cards


CARDS: dict[str, dict] = _load()
"""Card id (``bazooka``) -> card data plus ``deck`` and ``steps``."""

FIXED_STARTERS = [c["id"] for c in CARDS.values() if c["deck"] == "starter"]


def deck_list(deck: str) -> list[str]:
    """Return the card ids of ``deck`` with one entry per copy, in data order."""
    return [c["id"] for c in CARDS.values() if c["deck"] == deck for _ in range(c["copies"])]


def first_target(card_id: str) -> dict | None:
    """Return the target step a "play" move answers up front (the first step of the
    text when the Action Line starts with Text), or None."""
    card = CARDS[card_id]
    if card["line"] and card["line"][0] == "text" and card["steps"]:
        step = card["steps"][0]
        if step["do"] in ("target", "air-strike"):
            return step
    return None
