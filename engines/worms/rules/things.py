"""What happens to a Thing: it moves into a hex, is Damaged or Destroyed; three
Craters flood a hex (Moving, Damage, Destroy, Crater, Water hex).

These change the state at once and return the frames of what follows; the handlers
that stop for chance live in ``effects.py`` and ``moving.py``.
"""

from __future__ import annotations

from engines.worms import board as B
from engines.worms.rules.frames import note, order_frame


def active_worm(st: dict) -> str | None:
    """Return the active worm's id while it is on the map."""
    w = st["turn"]["worm"]
    return w if w in st["things"] else None


def cut(st: dict) -> bool:
    """Return True when the rest of the turn up to End turn is skipped: the active
    worm was Damaged during its turn (Damage) or the Timer ran out (Timer). A card
    text being resolved still finishes; the Action Line and the steps do not."""
    turn = st["turn"]
    return bool(turn["hurt"] or turn.get("time_up"))


def option(st: dict, name: str):
    """Return the value of a game option (absent in old states: off)."""
    return st["options"].get(name)


def key_of(st: dict, thing: str) -> str:
    """Return the hex of a Thing."""
    return st["things"][thing]["hex"]


def damage_all(st: dict, ids: list[str]) -> list[dict]:
    """Damage several Things at once; return the frames ordering what they set off."""
    effects = {}
    for i in ids:
        if i in st["things"]:
            follow = damage(st, i)
            if follow:
                effects[i] = follow
    return [order_frame("effects", effects), {"op": "settle"}] if effects else []


def damage(st: dict, thing: str, death_hex: str | None = None) -> list[dict]:
    """Damage a Thing now; return the frames of what follows (Damage). With Parting
    Gifts a worm destroyed by the Damage is followed by a Blast in its hex, or in
    ``death_hex``, the hex a Blast's die Scatters it into (Optional Rules)."""
    t = st["things"][thing]
    kind = t["kind"]
    if kind == "worm":
        if thing == st["turn"]["worm"]:
            st["turn"]["hurt"] = True
        if t["damaged"]:
            destroy(st, thing)
            note(st, f"{thing} destroyed")
            if option(st, "parting_gifts"):
                return [{"op": "blast-hex", "hex": death_hex or t["hex"]}]
        else:
            t["damaged"] = True
            note(st, f"{thing} damaged")
        return []
    if kind in ("fire", "crater"):
        return []
    destroy(st, thing)
    if kind == "drum":
        return [{"op": "explode", "hex": t["hex"]}]
    if kind == "mine":
        return [{"op": "blast-hex", "hex": t["hex"]}]
    return []


def destroy(st: dict, thing: str) -> None:
    """Remove a Thing from play: back to the pool, or a worm gone for good (Destroy);
    a team left with no worm triggers the end of the game."""
    t = st["things"].pop(thing)
    if t["kind"] == "worm":
        if thing == st["turn"]["worm"]:
            st["turn"]["hurt"] = True
        if not B.has_worms(st, t["team"]):
            st["end_triggered"] = True
            note(st, f"{t['team']} eliminated")
    else:
        st["pool"][t["kind"]] += 1


def flood(st: dict, key: str) -> None:
    """Three Craters: destroy everything in the hex, then it becomes Water (Crater)."""
    for thing in B.things_in(st, key):
        destroy(st, thing)
    st["land"] = [k for k in st["land"] if k != key]
    st["pool"]["water"] = max(0, st["pool"]["water"] - 1)
    note(st, f"{key} floods")


class Things:
    """Moving a Thing into a hex, as a method of the engine (rules versions override
    it)."""

    def move_thing(self, st: dict, thing: str, key: str) -> list[dict]:
        """Move a Thing into a hex: Water sinks it (Water hex); else return the frame that
        resolves what it finds there. A Thing "moved" into its own hex stays and sets
        nothing off."""
        if thing == st["turn"]["worm"]:
            st["turn"]["worm_hex"] = key
        if st["things"][thing]["hex"] == key and B.is_land(st, key):
            return []
        if not B.is_land(st, key):
            destroy(st, thing)
            note(st, f"{thing} sinks at {key}")
            return []
        st["things"][thing]["hex"] = key
        return [{"op": "enter", "id": thing, "hex": key}]
