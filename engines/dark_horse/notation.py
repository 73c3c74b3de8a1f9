"""The Dark Horse move notation, for mails and logs.

One line, case-insensitive, words separated by spaces (rules/dark-horse.md, "Setup" 3,
"Gameplay", "Special Cards", "Dilly Dally Variant" 3):

- ``place BUG`` (the first Bug), ``place BUG front`` / ``place BUG back``;
- ``ant take`` / ``ant pass`` (or just ``take`` / ``pass``);
- ``play CARD`` and ``play CARD forward`` / ``play CARD backward`` for a ± card, where
  CARD is the card's number in your hand (``play 3``), its name (``play fly+2``,
  ``play fly-pm1``, ``play positions-1-2``, ``play run-for-your-life``) or its id;
- ``bad-encounter swap N`` (swap your Goal card N) or ``bad-encounter choose SEAT``
  (seats are numbered from 0, as everywhere in the API);
- ``swap N``: the answer of a player chosen by Bad encounter! (N may also be the
  Bug's name on the Goal card).

:func:`describe` writes cards by name, so a log reads without the hands; :func:`parse`
reads numbers against the writer's hand. ``parse(describe(m)) == m`` for every legal
move ``m``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import IllegalMove, InvalidMove, shown

from . import rules as r
from . import track as tr
from .cards import BAD_ENCOUNTER_CARD, MOVE_PREFIX, Components

HELP = """\
place BUG | place BUG front | place BUG back   (the first Bug takes no end)
ant take | ant pass                           (Dilly Dally Variant)
play N | play N forward | play N backward     (N: card number in your hand, or its name: play fly+2)
bad-encounter swap N                          (swap your Goal card N with the top of the Goal deck)
bad-encounter choose SEAT                     (that seat swaps one of its Goal cards; seats from 0)
swap N                                        (your answer when Bad encounter! chose you)"""
"""The notation help text for the API and mails."""

FORWARD_WORDS = {"forward", "forwards", "fwd"}
BACKWARD_WORDS = {"backward", "backwards", "back", "bwd"}


def describe(c: Components, move: Any) -> str:
    """Return ``move`` in the notation (``play ladybug+2``, ``bad-encounter swap 2``).

    :raises InvalidMove: ``bad-move``: not a Dark Horse move.
    """
    if isinstance(move, dict):
        if set(move) == {"place"}:
            return f"place {move['place']}"
        if set(move) == {"place", "end"}:
            return f"place {move['place']} {move['end']}"
        if set(move) == {"ant"}:
            return f"ant {move['ant']}"
        if set(move) == {"swap"}:
            return f"swap {move['swap']}"
        card = c.move_by_id.get(move.get("play"))
        if card is not None:
            rest = {k: v for k, v in move.items() if k != "play"}
            if set(rest) in ({"swap"}, {"choose"}):
                ((key, value),) = rest.items()
                return f"{card.code} {key} {value}"
            if set(rest) == {"direction"}:
                return f"play {card.code} {rest['direction']}"
            if not rest:
                return f"play {card.code}"
    raise InvalidMove("bad-move", f"Not a Dark Horse move: {shown(move)}.")


def words(c: Components, move: Any, past: bool = True) -> str:
    """Return ``move`` as a person says it after the player's name: ``placed the Fly
    at the front``, ``played Ladybug ±1 forward``, ``took an Ant token``, ``played Bad
    encounter! and swapped Goal card 2``, ``swapped Goal card 1`` (without ``past``:
    ``place the Fly at the front``, ``play Ladybug ±1 forward``...).

    :raises InvalidMove: ``bad-move``: not a Dark Horse move.
    """
    verb = {v: (v if past else now) for v, now in _PRESENT.items()}
    if not isinstance(move, dict):
        return describe(c, move)
    if "place" in move:
        bug = c.bug_name(move["place"]) if move["place"] in c.bug_by_id else move["place"]
        return f"{verb['placed']} the {bug}" + (f" at the {move['end']}" if "end" in move else "")
    if "ant" in move:
        if move["ant"] == r.TAKE:
            return f"{verb['took']} an Ant token"
        return f"{verb['passed']} on the Ant token"
    card = c.move_by_id.get(move.get("play"))
    if card is None:
        if "swap" in move:
            return f"{verb['swapped']} Goal card {move['swap']}"
        return describe(c, move)
    text = f"{verb['played']} {c.label(card.id)}"
    if "direction" in move:
        text += f" {move['direction']}"
    if "swap" in move:
        text += f" and {verb['swapped']} Goal card {move['swap']}"
    if "choose" in move:
        text += f" and {verb['chose']} seat {move['choose']} to swap a Goal card"
    return text


_PRESENT = {
    "placed": "place",
    "took": "take",
    "passed": "pass",
    "played": "play",
    "swapped": "swap",
    "chose": "choose",
}


def parse(c: Components, text: Any, state: Mapping[str, Any], seat: int) -> dict:
    """Read one move written in the notation by ``seat`` (see the module docstring).

    :raises InvalidMove: ``bad-move``: the text cannot be read.
    :raises IllegalMove: ``card-not-in-hand`` / ``goal-not-held``: a number names no
        card of the writer's; ``wrong-phase``: a hand number before the deal.
    """
    if not isinstance(text, str):
        raise InvalidMove("bad-move", "Write the move as a line of text.")
    words = text.lower().replace(",", " ").strip().rstrip(".!").split()
    if not words:
        raise InvalidMove("bad-move", "The move is empty. " + _hint())
    head, rest = words[0], words[1:]
    if head == "place" and len(rest) in (1, 2):
        bug = rest[0]
        if len(rest) == 1:
            return {"place": bug}
        if rest[1] in (tr.FRONT, tr.BACK):
            return {"place": bug, "end": rest[1]}
        raise InvalidMove(
            "bad-move", f"Place a Bug at the front or the back, not {shown(rest[1])}."
        )
    if head == "ant" and len(rest) == 1 and rest[0] in (r.TAKE, r.PASS):
        return {"ant": rest[0]}
    if head in (r.TAKE, r.PASS) and not rest:
        return {"ant": head}
    if head == "swap":
        return {"swap": _goal_slot(c, rest, state, seat)}
    if head == "play":
        words = rest
    return _play(c, words, state, seat)


def _play(c: Components, words: list[str], state: Mapping[str, Any], seat: int) -> dict:
    """Read ``CARD [direction] [swap N | choose SEAT]`` into a ``play`` move."""
    card_id, words = _card(c, words, state, seat)
    move: dict[str, Any] = {"play": card_id}
    if words and words[0] in FORWARD_WORDS | BACKWARD_WORDS:
        move["direction"] = r.FORWARD if words[0] in FORWARD_WORDS else r.BACKWARD
        words = words[1:]
    if words and words[0] == "swap":
        move["swap"] = _goal_slot(c, words[1:], state, seat)
        words = []
    elif words and words[0] == "choose":
        target = [w for w in words[1:] if w != "seat"]
        if len(target) != 1 or not target[0].isdigit():
            raise InvalidMove("bad-move", "Write 'bad-encounter choose SEAT' with a seat number.")
        move["choose"] = int(target[0])
        words = []
    if words:
        raise InvalidMove("bad-move", f"Cannot read {shown(' '.join(words))}. " + _hint())
    if (
        c.move_by_id[card_id].kind == BAD_ENCOUNTER_CARD
        and set(move) == {"play", "swap"}
        and r.phase(c, state) == r.BAD_ENCOUNTER
        and state["pending"]["seat"] == seat
    ):
        return {"swap": move["swap"]}  # the chosen player wrote the card's name too
    return move


def _card(
    c: Components, words: list[str], state: Mapping[str, Any], seat: int
) -> tuple[str, list[str]]:
    """Return the Move card named first in ``words`` and the words after it."""
    if not words:
        raise InvalidMove("bad-move", "Say which card to play: 'play N'. " + _hint())
    if words[0].isdigit():
        hand = _own(state, "hands", seat)
        if hand is None:
            raise IllegalMove("wrong-phase", "The Move cards are not dealt yet.")
        number = int(words[0])
        if not 1 <= number <= len(hand):
            raise IllegalMove(
                "card-not-in-hand",
                f"You hold {len(hand)} Move cards; there is no card number {number}.",
            )
        return hand[number - 1], words[1:]
    for size in (1, 2):
        card_id = _card_id(c, "".join(words[:size]))
        if card_id is not None and len(words) >= size:
            return card_id, words[size:]
    raise InvalidMove("bad-move", f"There is no Move card called {shown(words[0])}. " + _hint())


def _card_id(c: Components, name: str) -> str | None:
    """Return the id of the Move card called ``name`` (code or id), else None."""
    name = name.replace("+/-", "-pm").replace("+-", "-pm").replace("±", "-pm")
    if not name.startswith(MOVE_PREFIX):
        name = MOVE_PREFIX + name
    return name if name in c.move_by_id else None


def _goal_slot(c: Components, words: list[str], state: Mapping[str, Any], seat: int) -> int:
    """Return the Goal card number named by ``words``: a number, a Goal card id or a
    Bug's name (the first Goal card showing it)."""
    words = [w for w in words if w != "goal"]
    if len(words) != 1:
        raise InvalidMove("bad-move", "Say which Goal card to swap: 'swap N'.")
    word = words[0]
    if word.isdigit():
        return int(word)
    goals = _own(state, "goals", seat) or []
    for i, goal_id in enumerate(goals, 1):
        if word in (goal_id, c.goal_by_id[goal_id].bug):
            return i
    if word in c.goal_by_id or word in c.bug_by_id:
        raise IllegalMove("goal-not-held", f"You hold no Goal card {shown(word)}.")
    raise InvalidMove("bad-move", f"Say which Goal card to swap by its number, not {shown(word)}.")


def _own(state: Mapping[str, Any], key: str, seat: int) -> list[str] | None:
    """Return ``state[key][seat]`` (a hand or Goal cards), None before the deal."""
    rows = state.get(key)
    if rows is None or not (type(seat) is int and 0 <= seat < len(rows)):
        return None
    return rows[seat]


def _hint() -> str:
    """Return a one-line reminder of the notation."""
    return (
        "Examples: 'play 3', 'play 5 forward', 'bad-encounter swap 2', "
        "'bad-encounter choose 1', 'swap 1', 'place fly front', 'ant take'."
    )
