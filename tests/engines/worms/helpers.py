"""Drive a Worms game by hand: fixed chance outcomes and moves in notation."""

from __future__ import annotations

from engines.base import Chance, Decision
from engines.worms import ENGINE

FIRST_GAME = {"setup": "first-game"}


def start(players: int = 4, shuffles: dict | None = None, options: dict | None = None) -> dict:
    """Return a first game past its setup shuffles (identity order unless given): Blue's
    first decision (rulebook, Setting up your first game)."""
    state = ENGINE.setup(players, {**FIRST_GAME, **(options or {})})
    return shuffle_all(state, shuffles)


def shuffle_all(state: dict, shuffles: dict | None = None) -> dict:
    """Answer every pending hidden shuffle (identity order unless given by deck)."""
    while (
        isinstance(ENGINE.prompt(state), Chance) and ENGINE.prompt(state).spec["kind"] == "shuffle"
    ):
        spec = ENGINE.prompt(state).spec
        order = (shuffles or {}).get(spec["deck"], list(range(spec["size"])))
        state = ENGINE.resolve(state, order)
    return state


def move(state: dict, text: str, seat: int | None = None) -> dict:
    """Play a move written in notation for the seat on turn."""
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Decision), f"expected a decision, got {prompt}"
    seat = prompt.seats[0] if seat is None else seat
    return ENGINE.play(state, seat, ENGINE.parse(text, state, seat))


def roll(state: dict, *outcome: int, purpose: str | None = None) -> dict:
    """Answer the pending chance with fixed outcomes (dice 1-6, 7 Wind, 8 Bullseye;
    flipper 1 Danger, 2 Safe)."""
    prompt = ENGINE.prompt(state)
    assert isinstance(prompt, Chance), f"expected chance, got {prompt}"
    if purpose:
        assert prompt.spec["for"] == purpose, prompt.spec
    return ENGINE.resolve(state, list(outcome))


def kind(state: dict) -> str:
    """Return the pending decision kind or chance purpose."""
    prompt = ENGINE.prompt(state)
    return prompt.kind if isinstance(prompt, Decision) else prompt.spec.get("for", "?")


def hex_of(state: dict, thing: str) -> str | None:
    """Return the hex of a Thing, None when it is gone."""
    t = state["things"].get(thing)
    return t["hex"] if t else None


def at(state: dict, key: str) -> list[str]:
    """Return the ids of the Things in a hex."""
    return sorted(i for i, t in state["things"].items() if t["hex"] == key)


WIND, BULLSEYE = 7, 8
DANGER, SAFE = 1, 2


def put(state: dict, thing: str, key: str) -> dict:
    """Return a copy of ``state`` with a Thing moved to a hex by hand (a test setup)."""
    s = json_copy(state)
    s["things"][thing]["hex"] = key
    return s


def add(state: dict, kind_: str, key: str) -> tuple[dict, str]:
    """Return (a copy of ``state`` with a Thing of ``kind_`` taken from the pool into
    ``key``, its id)."""
    from engines.worms import board

    s = json_copy(state)
    thing = board.add_thing(s, kind_, key)
    assert thing, "pool empty or Water"
    return s, thing


def remove(state: dict, *things: str) -> dict:
    """Return a copy with Things taken off the map (back to the pool)."""
    s = json_copy(state)
    for t in things:
        gone = s["things"].pop(t)
        if gone["kind"] != "worm":
            s["pool"][gone["kind"]] += 1
    return s


def json_copy(state: dict) -> dict:
    import json

    return json.loads(json.dumps(state))


def blue_ready(
    *, remove_things: tuple[str, ...] = (), cards: tuple[str, ...] = (), options: dict | None = None
) -> dict:
    """Return a 4-player game (the whole first-game map) at Blue's card step (5. Play a Weapon
    Card) with B1
    active at -2,1, both moves skipped, minus ``remove_things``."""
    s = remove(start(4, options=options), *remove_things)
    s["hands"][0] += [f"w{90 + i}-{c}" for i, c in enumerate(cards)]
    s = move(s, "activate B1")
    return move(move(s, "skip"), "skip")
