"""The stack of pending steps and its asks: push and pop frames, stop for chance or
for a decision of the active player, write the turn log, and order simultaneous items.

Every other rules module builds on these; they import nothing of the rules.
"""

from __future__ import annotations

from itertools import permutations

from engines.worms.v1 import board as B

ORDER_LIMIT = 5
"""Up to this many simultaneous items are ordered by the active player (all the
permutations are listed); beyond it they resolve in id order (a documented limit)."""


# --------------------------------------------------------------------------- frames


def push(st: dict, *frames: dict) -> None:
    """Push frames so that the first one given resolves first."""
    st["stack"].extend(reversed(frames))


def done(st: dict, *frames: dict) -> None:
    """Pop the top frame, then push ``frames`` (the first given resolves first)."""
    st["stack"].pop()
    push(st, *frames)


def ask_chance(st: dict, spec: dict, visible_to: list[int] | None = None) -> None:
    """Stop for a chance outcome."""
    st["ask"] = {"type": "chance", "spec": spec, "visible_to": visible_to}


def ask_dice(st: dict, n: int, purpose: str) -> None:
    """Stop for ``n`` custom dice (public)."""
    ask_chance(st, {"kind": "dice", "faces": [B.DIE_FACES] * n, "for": purpose})


def ask_flipper(st: dict, purpose: str) -> None:
    """Stop for a flip of the Danger Flipper (public)."""
    ask_chance(st, {"kind": "dice", "faces": [B.FLIPPER_FACES], "for": purpose})


def ask_move(st: dict, kind: str, options: list[dict], **info) -> None:
    """Stop for a decision of the active player among ``options``."""
    st["ask"] = {
        "type": "decision",
        "seat": st["turn"]["seat"],
        "kind": kind,
        "options": options,
        **info,
    }


def note(st: dict, text: str) -> None:
    """Add a line to this turn's public log."""
    st["log"].append(text)


# --------------------------------------------------------------------------- simultaneous items


def order_frame(what: str, items: dict[str, list[dict]]) -> dict:
    """Return a frame resolving ``items`` (id -> frames) in an order the active
    player picks when there are several (General Rules; Blast)."""
    return {"op": "order", "what": what, "items": items}


def h_order(st: dict, fr: dict) -> None:
    """Ask the order of simultaneous items, then resolve them in it."""
    ids = list(fr["items"])
    if "answer" in fr:
        ids = fr["answer"]["ids"]
    elif 1 < len(ids) <= ORDER_LIMIT:
        ask_move(
            st,
            "order",
            [{"move": "order", "what": fr["what"], "ids": list(p)} for p in permutations(ids)],
        )
        return
    done(st, *[f for i in ids for f in fr["items"][i]])
