"""What card texts do to the target hexes: Blast, Damage, Oil Drums, Place, Remove a
Crater, Knockback Scatter, Change Wind (Blast, Damage, Oil Drum, Place, Crater,
Knockback Scatter, Direction).
"""

from __future__ import annotations

from engines.hexgrid import Hex
from engines.worms.v1 import board as B
from engines.worms.v1.rules.frames import ask_dice, done, note, order_frame
from engines.worms.v1.rules.targets import target_hexes
from engines.worms.v1.rules.things import damage, damage_all, destroy, flood, key_of, move_thing


def h_blast(st: dict, fr: dict) -> None:
    """Blast every target hex in order."""
    done(st, *[{"op": "blast-hex", "hex": k} for k in target_hexes(st)])


def h_blast_hex(st: dict, fr: dict) -> None:
    """Blast: Water -> nothing; else a Crater, then one die per Thing, worms first,
    each group ordered by the active player (Blast)."""
    key = fr["hex"]
    if not B.is_land(st, key):
        done(st)
        return
    note(st, f"blast {key}")
    if B.add_thing(st, "crater", key) and len(B.things_in(st, key, ("crater",))) >= 3:
        flood(st, key)
        done(st)
        return
    worms = B.things_in(st, key, ("worm",))
    others = B.things_in(st, key, ("drum", "crate", "mine"))
    done(
        st,
        order_frame("worms", {w: [{"op": "blast-worm", "id": w, "hex": key}] for w in worms}),
        order_frame("things", {t: [{"op": "damage-thing", "id": t, "hex": key}] for t in others}),
        {"op": "settle"},
    )


def h_blast_worm(st: dict, fr: dict) -> None:
    """One worm in a Blast: Damage it, then move it the rolled way (Blast)."""
    t = st["things"].get(fr["id"])
    if t is None or t["hex"] != fr["hex"]:
        done(st)
        return
    if "answer" not in fr:
        ask_dice(st, 1, "blast")
        return
    direction = B.direction_of(st, B.face_label(fr["answer"][0]))
    follow = damage(st, fr["id"])
    if fr["id"] in st["things"] and direction is not None:
        follow += move_thing(
            st, fr["id"], Hex.parse(key_of(st, fr["id"])).neighbor(direction).key()
        )
    done(st, *follow)


def h_damage_thing(st: dict, fr: dict) -> None:
    """Damage one Thing still in its hex."""
    t = st["things"].get(fr["id"])
    if t is None or t["hex"] != fr["hex"]:
        done(st)
        return
    done(st, *damage(st, fr["id"]))


def h_damage(st: dict, fr: dict) -> None:
    """Damage: every Thing in the target hexes, at once; what that sets off is ordered
    by the active player (General Rules)."""
    hit = [i for k in target_hexes(st) for i in B.things_in(st, k)]
    done(st, *damage_all(st, hit))


def h_damage_worms(st: dict, fr: dict) -> None:
    """Damage every worm on the map (a Sudden Death Drop text)."""
    worms = sorted(i for i, t in st["things"].items() if t["kind"] == "worm")
    done(st, *damage_all(st, worms))


def h_explode(st: dict, fr: dict) -> None:
    """Oil Drum: five dice; each direction once (Bullseye: the drum's hex, Wind: the
    Wind Direction); Damage everything there, then a Fire in each (Oil Drum)."""
    if "answer" not in fr:
        ask_dice(st, 5, "oil-drum")
        return
    here = Hex.parse(fr["hex"])
    hexes = []
    for o in fr["answer"]:
        d = B.direction_of(st, B.face_label(o))
        k = here.key() if d is None else here.neighbor(d).key()
        if k not in hexes:
            hexes.append(k)
    note(st, f"oil drum at {fr['hex']} hits {' '.join(hexes)}")
    hit = [i for k in hexes for i in B.things_in(st, k)]
    done(st, *damage_all(st, hit), {"op": "place-fires", "hexes": hexes}, {"op": "settle"})


def h_place_fires(st: dict, fr: dict) -> None:
    """Place a Fire in each hex an Oil Drum hit (Water: it sinks)."""
    for k in fr["hexes"]:
        B.add_thing(st, "fire", k)
    done(st)


def h_place(st: dict, fr: dict) -> None:
    """Place a Thing from the pool in each target hex (Place); a full hex is prodded."""
    for k in target_hexes(st):
        if B.add_thing(st, fr["thing"], k):
            note(st, f"place {fr['thing']} at {k}")
            if fr["thing"] == "crater" and len(B.things_in(st, k, ("crater",))) >= 3:
                flood(st, k)
    done(st, {"op": "settle"})


def h_remove_crater(st: dict, fr: dict) -> None:
    """Remove a Crater from each target hex (the Girder's exception, Crater)."""
    for k in target_hexes(st):
        craters = B.things_in(st, k, ("crater",))
        if craters:
            destroy(st, craters[0])
            note(st, f"crater removed at {k}")
    done(st)


def h_knockback(st: dict, fr: dict) -> None:
    """Knockback Scatter every worm in the target hexes (ordered by the player)."""
    frames = []
    for k in target_hexes(st):
        worms = B.things_in(st, k, ("worm",))
        frames.append(
            order_frame(
                "worms", {w: [{"op": "scatter-thing", "id": w, "knockback": True}] for w in worms}
            )
        )
    done(st, *frames)


def h_change_wind(st: dict, fr: dict) -> None:
    """Change Wind: a number sets the dial, Wind or Bullseye leaves it (Direction)."""
    if "answer" not in fr:
        ask_dice(st, 1, "wind")
        return
    label = B.face_label(fr["answer"][0])
    if isinstance(label, int):
        st["wind"] = label
    note(st, f"wind {st['wind']}")
    done(st)
