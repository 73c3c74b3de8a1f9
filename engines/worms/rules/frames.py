"""The stack of pending steps and its asks: push and pop frames, stop for chance or
for a decision of the active player, write the turn log, and order simultaneous items.

Every other rules module builds on these; they import nothing of the rules.
"""

from __future__ import annotations

from itertools import permutations

from engines.worms import board as B

ORDER_LIMIT = 3
"""Up to this many simultaneous items are ordered by the active player in one
decision listing every permutation; with more, the player picks the next item one at
a time (each pick resolves before the next is asked), so the list stays short."""


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


TIME_UP = {"move": "time-up"}
"""The Timer's move: the turn jumps to End turn (listed while the Timer runs)."""


def turn_clock(st: dict) -> dict | None:
    """Return the Timer of the turn while it runs (Timer: started "before they Activate
    their worm", it runs until step 6), as the arbiter's turn clock ``{"turn", "seat",
    "seconds"}``; None without the Timer, during setup, after step 5 or once time is
    up, and for a decision another seat owes."""
    turn, ask = st["turn"], st["ask"]
    if (
        not st["options"].get("timer")
        or not st.get("started")
        or turn["number"] < 1
        or turn.get("time_up")
        or turn.get("ended")
        or not ask
        or ask["type"] != "decision"
        or ask["seat"] != turn["seat"]
    ):
        return None
    return {
        "turn": turn["number"],
        "seat": turn["seat"],
        "seconds": st["options"].get("timer_seconds") or 60,
    }


def ask_move(st: dict, kind: str, options: list[dict], **info) -> None:
    """Stop for a decision of the active player among ``options`` (``private=True``:
    the answer stays hidden from the other seats until the game is over); while the
    Timer runs, ``time-up`` is listed too."""
    st["ask"] = {
        "type": "decision",
        "seat": st["turn"]["seat"],
        "kind": kind,
        "options": options,
        **info,
    }
    if turn_clock(st):
        st["ask"]["options"] = options + [dict(TIME_UP)]


def note(st: dict, text: str) -> None:
    """Add a line to this turn's public log."""
    st["log"].append(text)


# --------------------------------------------------------------------------- simultaneous items


def order_frame(what: str, items: dict[str, list[dict]]) -> dict:
    """Return a frame resolving ``items`` (id -> frames) in an order the active
    player picks when there are several (General Rules; Blast)."""
    return {"op": "order", "what": what, "items": items}


def permutation_moves(what: str, ids: list[str]) -> list[dict]:
    """Return an ``order`` move for every order of ``ids``."""
    return [{"move": "order", "what": what, "ids": list(p)} for p in permutations(ids)]


class Frames:
    """Ordering simultaneous items, as methods of the engine (rules versions override
    :meth:`order_options`)."""

    def h_order(self, st: dict, fr: dict) -> None:
        """Ask the order of simultaneous items, then resolve them in it (General Rules):
        the active player answers one of :meth:`order_options` (with none, they resolve
        in id order); items not yet named resolve after, ordered again."""
        ids = list(fr["items"])
        if "answer" in fr:
            ids = fr["answer"]["ids"]
        elif len(ids) > 1 and (options := self.order_options(fr["what"], ids)):
            ask_move(st, "order", options)
            return
        rest = {i: f for i, f in fr["items"].items() if i not in ids}
        done(
            st,
            *[f for i in ids for f in fr["items"][i]],
            *([order_frame(fr["what"], rest)] if rest else []),
        )

    def order_options(self, what: str, ids: list[str]) -> list[dict]:
        """Return the ``order`` moves for several simultaneous items: up to
        :data:`ORDER_LIMIT` items every permutation, more one item at a time (each pick
        resolves before the next is asked, so the list stays short)."""
        if len(ids) > ORDER_LIMIT:
            return [{"move": "order", "what": what, "ids": [i]} for i in ids]
        return permutation_moves(what, ids)
