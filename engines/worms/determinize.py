"""A Worms state rebuilt from one seat's view, for the search bots.

What a seat cannot see while the game runs (``WormsEngine.view``): the other seats'
hands (only their sizes), the order of the Supply and Drop decks (only their sizes) and
the cards left in the box. Everything else is public: the map, Things, wind, Target, the
turn and its pending steps (``machine``: the rules' stack, which holds only cards
already played), the discard and the Sudden Death card once drawn.

:func:`unseen` lists the card instances of the game (as the setup made them for these
options) that the seat has not seen, by deck: ``supply`` (Weapon cards), ``drop``,
``sudden_death`` and ``starter_pool``. :func:`complete` deals one order of each: the
Supply deck from ``supply``; the Drop deck from ``drop``, with a Sudden Death card at
its bottom while one is still in it; each other seat's hand its own Starter cards not
seen elsewhere (every seat starts with them), then Starter-pool and Weapon cards left
over; the rest stays in the box. A state is rebuilt only once the setup is over (the
bot plays the setup without search).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from engines.base import clone

PREFIXES = {"s": "starter", "p": "starter_pool", "w": "supply", "d": "drop", "x": "sudden_death"}
"""A card instance's id prefix -> the deck it was made for (``setup_decks``)."""


def searchable(view: Mapping[str, Any]) -> bool:
    """Return True when a state can be rebuilt from ``view``: the setup is over and the
    game is not."""
    machine = view.get("machine")
    return bool(machine) and not machine["in_setup"] and view["over"] is None


def all_cards(game: Any, view: Mapping[str, Any]) -> list[str]:
    """Return every card instance of a game of these players and options, as the setup
    makes them (Starter cards per seat, then the decks)."""
    start = game.start_state(view["players"], dict(view["options"]))
    decks = start["setup"]
    return [
        *(c for hand in start["hands"] for c in hand),
        *(c for deck in decks.values() if isinstance(deck, list) for c in deck),
    ]


def unseen(game: Any, view: Mapping[str, Any], seat: int) -> dict[str, list[str]]:
    """Return the card instances ``seat`` has not seen, by deck (module docstring)."""
    if not searchable(view):
        return {}
    seen = set(_seen(view, seat))
    out: dict[str, list[str]] = {deck: [] for deck in PREFIXES.values()}
    for card in all_cards(game, view):
        if card not in seen:
            out[PREFIXES[card[0]]].append(card)
    out.pop("starter")  # dealt to their owners by complete
    return out


def complete(
    game: Any, view: Mapping[str, Any], seat: int, dealt: Mapping[str, Sequence[str]]
) -> dict:
    """Return a state ``seat``'s ``view`` could come from, the hidden cards dealt from
    ``dealt`` (module docstring).

    :raises NotImplementedError: during the setup, or without ``machine`` in the view.
    """
    if not searchable(view):
        raise NotImplementedError("Worms states are rebuilt only after the setup")
    machine, n = view["machine"], view["players"]
    supply, drop = view["decks"]["supply"], view["decks"]["drop"]
    bottom = (
        drop > 0
        and machine["sudden_death_card"] is None
        and not view["options"].get("no_sudden_death")
    )
    spare = list(dealt["drop"])
    deck_drop = spare[: drop - 1] + list(dealt["sudden_death"][:1]) if bottom else spare[:drop]
    weapons = list(dealt["supply"])
    extra = weapons[supply:] + list(dealt["starter_pool"])
    seen = set(_seen(view, seat))
    starters = _starters(game, view, seen)
    hands = []
    for s in range(n):
        if s == seat:
            hands.append([c["id"] for c in view["hand"]])
            continue
        own = starters[s][: view["hand_sizes"][s]]
        need = view["hand_sizes"][s] - len(own)
        hands.append(own + extra[:need])
        extra = extra[need:]
    state = {
        "players": n,
        "teams": list(view["teams"]),
        "options": dict(view["options"]),
        "dial": view["map"]["dial"],
        "radius": view["map"]["radius"],
        "land": list(view["map"]["land"]),
        "wind": view["wind"],
        "things": {t["id"]: {k: v for k, v in t.items() if k != "id"} for t in view["things"]},
        "pool": dict(view["pool"]),
        "hands": hands,
        "supply": weapons[:supply],
        "drop": deck_drop,
        "sudden_death": machine["sudden_death_card"],
        "discard": list(machine["discard_cards"]),
        "target": view["target"],
        "turn": dict(view["turn"]),
        "end_triggered": view["end_triggered"],
        "final": clone(view["final_round"]),
        "log": list(view["log"]),
        "ask": clone(machine["chance"]),
        "over": None,
        **clone(machine["rest"]),
    }
    return game.run(state) if state["ask"] is None else state


def _seen(view: Mapping[str, Any], seat: int) -> Iterator[str]:
    """Yield the card instances ``seat`` has seen where they are now: its hand, the
    discard, the Sudden Death card and the cards named in the pending steps."""
    machine = view["machine"]
    yield from (c["id"] for c in view.get("hand") or [])
    yield from machine["discard_cards"]
    if machine["sudden_death_card"]:
        yield machine["sudden_death_card"]
    yield from _strings(machine["rest"]["stack"])


def _starters(game: Any, view: Mapping[str, Any], seen: set[str]) -> list[list[str]]:
    """Return each seat's Starter cards not seen elsewhere (still in its hand)."""
    hands = _start_hands(game, view["players"], tuple(view["options"].items()))
    return [[c for c in hand if c not in seen] for hand in hands]


@lru_cache(maxsize=64)
def _start_hands(game: Any, players: int, options: tuple) -> tuple[tuple[str, ...], ...]:
    """Return each seat's hand as the setup deals it for these players and options
    (``(name, value)`` pairs), remembered: a search rebuilds a state on every walk."""
    start = game.start_state(players, dict(options))
    return tuple(tuple(hand) for hand in start["hands"])


def _strings(value: Any) -> Iterator[str]:
    """Yield every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
