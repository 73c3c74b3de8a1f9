"""Large decisions described by their parts instead of listed move by move (DESIGN.md,
"where a move space is too large to list, a description of its parts that a client
can fill").

A *part* is ``{"move": <template>, "fill": {<key>: [<value>, ...], ...}}``: every
combination of one value per ``fill`` key, merged into the template, is a legal move
(a cartesian product), and nothing else of that shape is. ``/legal-moves`` then lists
the short moves as they are, one example of each part (so that a client that reads
only ``moves`` still finds a legal move), and the parts. Pure data helpers: engines
use :func:`compress`, clients :func:`pick`, tests :func:`expand`.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

FILL_KEY = "at"
"""The key whose values a part lists (a hex, in the hex-map games)."""
MERGE_KEYS = ("dir", "thing")
"""Keys that may be folded into a part's fill as a second list when the parts differ
only in them (an Air Strike's direction, the Thing placed during setup)."""


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def compress(moves: list[dict], limit: int = 40, group: int = 6) -> dict | None:
    """Return ``{"moves": [...], "parts": [...], "count": N}`` for a list longer than
    ``limit`` (None when it is short enough to list): moves that share every key but
    :data:`FILL_KEY` become one part when there are more than ``group`` of them."""
    if len(moves) <= limit:
        return None
    groups: dict[str, list[dict]] = {}
    for move in moves:
        if isinstance(move, dict) and FILL_KEY in move:
            template = {k: v for k, v in move.items() if k != FILL_KEY}
            groups.setdefault(_key(template), []).append(move)
    parts, listed = [], []
    for members in groups.values():
        if len(members) > group:
            template = {k: v for k, v in members[0].items() if k != FILL_KEY}
            parts.append({"move": template, "fill": {FILL_KEY: [m[FILL_KEY] for m in members]}})
            listed += members
    parts = _merge(parts)
    inside = {_key(m) for m in listed}
    short = [m for m in moves if _key(m) not in inside]
    examples = [expand(p)[0] for p in parts]
    return {"moves": short + examples, "parts": parts, "count": len(moves)}


def _merge(parts: list[dict]) -> list[dict]:
    """Fold parts that differ only in one of :data:`MERGE_KEYS` (same fill) into one."""
    for key in MERGE_KEYS:
        merged: dict[str, dict] = {}
        for part in parts:
            template = part["move"]
            if key not in template or len(part["fill"]) != 1:
                merged[_key(part)] = part
                continue
            rest = {k: v for k, v in template.items() if k != key}
            sig = _key([rest, part["fill"], key])
            if sig in merged:
                merged[sig]["fill"][key].append(template[key])
            else:
                merged[sig] = {"move": rest, "fill": {key: [template[key]], **part["fill"]}}
        parts = list(merged.values())
    return parts


def expand(part: dict) -> list[dict]:
    """Return every move a part describes, in order."""
    keys = list(part["fill"])
    return [
        dict(part["move"], **dict(zip(keys, combo)))
        for combo in itertools.product(*(part["fill"][k] for k in keys))
    ]


def count(part: dict) -> int:
    """Return how many moves a part describes."""
    n = 1
    for values in part["fill"].values():
        n *= len(values)
    return n


def pick(legal: dict, rng: Any) -> Any:
    """Return a random legal move of a ``/legal-moves`` answer (``moves`` and, when
    present, ``parts``), each listed move or part combination about equally likely,
    drawn with ``rng`` (a ``random.Random`` the caller owns: engines hold no
    randomness); None when there is none."""
    moves, parts = legal.get("moves") or [], legal.get("parts") or []
    sizes = [count(p) for p in parts]
    total = len(moves) + sum(sizes)
    if total == 0:
        return None
    i = rng.randrange(total)
    if i < len(moves):
        return moves[i]
    i -= len(moves)
    for part, size in zip(parts, sizes):
        if i < size:
            return {**part["move"], **{k: rng.choice(v) for k, v in part["fill"].items()}}
        i -= size
    raise AssertionError("unreachable")
