"""Copies of Worms states: every play and chance outcome works on a fresh copy, so
the search bots' playouts spend much of their time here.

A state is JSON data (dicts with string keys, lists, strings, numbers, booleans and
None); a copy shares no list or dict with the state it copies.
"""

from __future__ import annotations

from engines.base import clone


def answered_copy(state: dict) -> dict:
    """Return a deep copy of a state about to take its answer, keys in the same order:
    its ``ask`` is None and not copied (an answer clears it before anything reads it),
    the parts of a known flat shape are copied by :data:`SHAPED`, the rest by
    :func:`engines.base.clone` in one go (each call of it has a fixed cost)."""
    out, rest = dict(state), {}
    for k, v in state.items():
        copy = SHAPED.get(k)
        if copy is None:
            rest[k] = v
        else:
            out[k] = copy(v)
    out.update(clone(rest))
    return out


def _none(value) -> None:
    """Return None (the ask an answer clears)."""
    return None


def _lists(lists: list[list[str]]) -> list[list[str]]:
    """Return a copy of a list of lists of strings (the hands)."""
    return [list(x) for x in lists]


def _things(things: dict[str, dict]) -> dict[str, dict]:
    """Return a copy of the Things (id -> a dict of strings and booleans)."""
    return {i: dict(t) for i, t in things.items()}


SHAPED = {
    "ask": _none,
    "teams": list,
    "options": dict,
    "tiles_left": list,
    "pile": dict,
    "land": list,
    "supply": list,
    "drop": list,
    "discard": list,
    "log": list,
    "hands": _lists,
    "things": _things,
    "pool": dict,
    "next_id": dict,
}
"""State key -> the copy of its value, for the values of a known flat shape: lists of
strings, lists of lists of strings, the Things, the options and dicts of numbers (a copy
of the containers is a deep copy: their strings, numbers, booleans and None never
change)."""
