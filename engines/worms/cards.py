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
    "sentry gun": "sentry",
}


def _target(m: re.Match) -> dict:
    """Return the step of "Target a (New) (Direct | Empty | Non-full) hex (within X)"."""
    words = m.group(1).split()
    return {
        "do": "target",
        "new": "new" in words,
        "direct": "direct" in words,
        "empty": "empty" in words,
        "nonfull": "non-full" in words,
        "within": int(m.group(3)) if m.group(3) else None,
    }


GRAMMAR: list[tuple[str, object]] = [
    # (regex over one lower-case sentence without its full stop, step or builder)
    (r"target an? ((?:new |direct |empty |non-full )*)hex( within (\d+))?", _target),
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
        r"place an? (crater|mine|supply crate|oil drum|fire|sentry gun)",
        lambda m: {"do": "place", "thing": THING_WORDS[m.group(1)]},
    ),
    (r"remove a crater", lambda m: {"do": "remove-crater"}),
    (r"inch or jump", lambda m: {"do": "move", "ways": ["inch", "jump"]}),
    (r"inch", lambda m: {"do": "move", "ways": ["inch"]}),
    (r"jump", lambda m: {"do": "move", "ways": ["jump"]}),
    (r"move your worm to the target", lambda m: {"do": "move-to-target"}),
    (r"change wind", lambda m: {"do": "change-wind"}),
    (r"play another card", lambda m: {"do": "play-another"}),
    (r"draw a card", lambda m: {"do": "draw", "super": False}),
    (r"draw a superweapon", lambda m: {"do": "draw", "super": True}),
    (r"at end turn", lambda m: {"do": "at-end-turn", "always": False}),
    (r"from now on at end turn", lambda m: {"do": "at-end-turn", "always": True}),
]
"""Every sentence a card text may use. "At End turn." and "From now on at End turn."
take the sentences after them as their own steps (an effect of step 6 of this turn,
or of every later turn: a rule added for the rest of the game)."""


class UnknownKeyword(ValueError):
    """A card sentence that no GRAMMAR line reads."""


def read_text(text: str) -> list[dict]:
    """Return the steps of a card text (sentences ending in a full stop).

    :raises UnknownKeyword: a sentence is not in :data:`GRAMMAR`.
    """
    steps: list[dict] = []
    sentences = [s.strip().lower() for s in text.split(".") if s.strip()]
    for i, sentence in enumerate(sentences):
        for pattern, build in GRAMMAR:
            m = re.fullmatch(pattern, sentence)
            if m:
                step = build(m)
                break
        else:
            raise UnknownKeyword(f"no keyword reads {sentence!r}")
        if step["do"] == "at-end-turn":
            step["steps"] = read_text(". ".join(sentences[i + 1 :]))
            return steps + [step]
        steps.append(step)
    return steps


class CardSet:
    """A game's cards, read from a data file: each card by id with its ``deck`` and the
    ``steps`` of its text (a rules version that played other cards has its own set).

    :param path: the JSON file (``data/cards.json``'s shape).
    """

    def __init__(self, path: Path) -> None:
        self.cards: dict[str, dict] = self._load(path)
        self.fixed_starters = [c["id"] for c in self.cards.values() if c["deck"] == "starter"]
        """The four Starter cards every player takes one of (Setup 5)."""

    def __getitem__(self, card_id: str) -> dict:
        """Return the card ``card_id`` (``bazooka``): its data, ``deck`` and ``steps``."""
        return self.cards[card_id]

    def read(self, text: str) -> list[dict]:
        """Return the steps of a card text (:func:`read_text`)."""
        return read_text(text)

    def _load(self, path: Path) -> dict:
        """Return every card by id, with its parsed steps and its deck."""
        raw = json.loads(path.read_text())
        cards = {}
        for deck in ("starter", "starter_pool", "supply", "drop", "sudden_death"):
            for card in raw[deck]:
                card = dict(card, deck=deck, steps=self.read(card["text"]))
                card.setdefault("line", ["text"])
                card.setdefault("sourced", False)
                card.setdefault("copies", 1)
                card.setdefault("super", False)
                cards[card["id"]] = card
        return cards

    def catalogue(self) -> list[dict]:
        """Return every card as players read it: id, name, deck, copies, Superweapon,
        Action Line, text, sourced (for ``GET /v1/engines/worms``)."""
        return [
            {
                "id": c["id"],
                "name": c["name"],
                "deck": c["deck"],
                "copies": c["copies"],
                "super": c["super"],
                "line": c["line"] if c["deck"] not in ("drop", "sudden_death") else [],
                "text": c["text"],
                "sourced": c.get("sourced", False),
                **({"note": c["note"]} if "note" in c else {}),
            }
            for c in self.cards.values()
        ]

    def deck_list(self, deck: str) -> list[str]:
        """Return the card ids of ``deck`` with one entry per copy, in data order."""
        return [
            c["id"] for c in self.cards.values() if c["deck"] == deck for _ in range(c["copies"])
        ]

    def first_target(self, card_id: str) -> dict | None:
        """Return the target step a "play" move answers up front (the first step of the
        text when the Action Line starts with Text), or None."""
        card = self.cards[card_id]
        if card["line"] and card["line"][0] == "text" and card["steps"]:
            step = card["steps"][0]
            if step["do"] in ("target", "air-strike"):
                return step
        return None


DEFAULT = CardSet(DATA / "cards.json")
"""Today's cards (``data/cards.json``)."""

CARDS: dict[str, dict] = DEFAULT.cards
"""Card id (``bazooka``) -> card data plus ``deck`` and ``steps`` (today's cards)."""
