"""A Dark Horse state rebuilt from one seat's view, for the search bots.

What a seat cannot see (``view.py``): the other seats' Goal cards and Move cards, the
Goal deck and the Move cards set aside. It knows how many each holds, its own cards and
every card played. :func:`unseen` lists the two pools of cards it cannot place (the Goal
cards not its own; the Move cards neither its own nor played); :func:`complete` deals
one order of each pool: the Goal cards to the other seats, seat by seat, as many as each
holds, then to the Goal deck, top first; the Move cards to the other seats' hands (each
kept in the deck's printed order, as dealt), then to the cards set aside. Everything
else is public and read back from the view. Once the game is over the view shows all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import rules as r
from .cards import Components


def unseen(c: Components, view: Mapping[str, Any], seat: int) -> dict[str, list[str]]:
    """Return ``{"goals": [...], "moves": [...]}``, the card ids ``seat`` cannot place
    (nothing before the deal of that deck, and nothing once the game is over)."""
    if view["phase"] == r.OVER:
        return {}
    out = {}
    if view["phase"] != r.DEAL_GOALS:
        own = {g["card"] for g in view["you"]["goals"]}
        out["goals"] = [g.id for g in c.goal_cards if g.id not in own]
    if _dealt_moves(view):
        known = {h["card"] for h in view["you"]["hand"]} | {p["card"] for p in view["played"]}
        out["moves"] = [m.id for m in c.move_cards if m.id not in known]
    return out


def complete(
    c: Components, view: Mapping[str, Any], seat: int, dealt: Mapping[str, Sequence[str]]
) -> dict:
    """Return a state ``seat``'s ``view`` could come from, the hidden cards dealt from
    ``dealt`` (one order of each pool of :func:`unseen`; see the module docstring)."""
    n = view["players"]
    state: dict[str, Any] = {
        "players": n,
        "dilly_dally": view["options"]["dilly_dally"],
        "goals": None,
        "goal_deck": None,
        "first": view["first_player"],
        "track": [b["bug"] for b in (view["row"] or view["track"] or [])],
        "black_base": view["black_base"],
        "hands": None,
        "set_aside": None,
        "ant_choices": _ant_choices(view),
        "played": [{k: v for k, v in p.items() if k != "label"} for p in view["played"]],
        "pending": dict(view["pending_bad_encounter"]) if view["pending_bad_encounter"] else None,
    }
    if view["phase"] == r.OVER:
        revealed = view["revealed"]
        state["goals"] = [[g["card"] for g in goals] for goals in revealed["goals"]]
        state["goal_deck"] = list(revealed["goal_deck"])
        state["hands"] = [[] for _ in range(n)]
        state["set_aside"] = list(revealed["set_aside"])
        return state
    if view["phase"] != r.DEAL_GOALS:
        own = [g["card"] for g in view["you"]["goals"]]
        counts = [s["goal_count"] for s in view["seats"]]
        state["goals"], state["goal_deck"] = _deal(seat, own, counts, dealt["goals"])
    if _dealt_moves(view):
        order = {m.id: i for i, m in enumerate(c.move_cards)}
        own = [h["card"] for h in view["you"]["hand"]]
        counts = [s["hand_count"] for s in view["seats"]]
        hands, rest = _deal(seat, own, counts, dealt["moves"])
        state["hands"] = [sorted(h, key=order.__getitem__) for h in hands]
        state["set_aside"] = rest
    return state


def _dealt_moves(view: Mapping[str, Any]) -> bool:
    """Return True once the Move cards are dealt."""
    return view["phase"] not in (r.DEAL_GOALS, r.START_PLAYER, r.PLACE, r.DEAL_MOVES)


def _deal(
    seat: int, own: list[str], counts: list[int], cards: Sequence[str]
) -> tuple[list[list[str]], list[str]]:
    """Return each seat's cards (``seat``'s own, the others ``counts[s]`` from ``cards``
    in order) and the cards left over."""
    held, at = [], 0
    for s, count in enumerate(counts):
        if s == seat:
            held.append(list(own))
        else:
            held.append(list(cards[at : at + count]))
            at += count
    return held, list(cards[at:])


def _ant_choices(view: Mapping[str, Any]) -> list[str]:
    """Return the Ant choices made so far, in turn order from the start player, from the
    public holders (rules/dark-horse.md, "Dilly Dally Variant" 3: tokens are taken
    "fully visible"): as many as the seat to choose is past the start player, or, once
    the round is over, up to the last token taken or every seat."""
    ants = view.get("ants")
    first, n = view["first_player"], view["players"]
    if not ants or first is None or not _dealt_moves(view):
        return []
    taken = {(s - first) % n for s in ants["holders"]}
    if view["phase"] == r.ANTS:
        made = (view["to_act"][0] - first) % n
    elif len(taken) >= ants["tokens"]:
        made = max(taken) + 1
    else:
        made = n
    return [r.TAKE if i in taken else r.PASS for i in range(made)]
