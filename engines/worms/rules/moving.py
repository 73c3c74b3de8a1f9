"""What a moving Thing sets off: Supply Crates, Mines, Fire, the full hex check and
its prods, Scatter and Knockback Scatter of a Thing, moving a worm to the target
(Moving, Supply Crate, Mine, Fire, Full hex, Scatter, Knockback Scatter).
"""

from __future__ import annotations

from engines.hexgrid import Hex
from engines.worms import board as B
from engines.worms.rules.frames import ask_dice, ask_flipper, ask_move, done, note, order_frame
from engines.worms.rules.things import active_worm, damage_all, destroy, key_of


class Moving:
    """The handlers of what a moving Thing sets off, as methods of the engine."""

    def h_enter(self, st: dict, fr: dict) -> None:
        """What a Thing sets off by moving into a hex: Supply Crates, Mines and Fire,
        ordered by the active player when several (Moving; General Rules); then the full
        hex check (Full hex)."""
        t = st["things"].get(fr["id"])
        if t is None or t["hex"] != fr["hex"]:
            done(st, {"op": "settle"})
            return
        key, effects = fr["hex"], {}
        for other in B.things_in(st, key):
            kind = st["things"][other]["kind"]
            if kind == "fire":
                effects[other] = [{"op": "fire", "id": other, "victim": fr["id"], "hex": key}]
            elif t["kind"] == "worm" and kind == "crate":
                effects[other] = [
                    {"op": "collect", "id": other, "seat": B.seat_of_team(st, t["team"])}
                ]
            elif t["kind"] == "worm" and kind == "mine":
                effects[other] = [{"op": "mine", "id": other, "hex": key}]
        if t["kind"] == "mine" and B.things_in(st, key, ("worm",)):
            effects[fr["id"]] = [{"op": "mine", "id": fr["id"], "hex": key}]
        done(st, order_frame("effects", effects), {"op": "settle"})

    def h_collect(self, st: dict, fr: dict) -> None:
        """Supply Crate: remove it, its worm's player draws a Supply card (Supply Crate)."""
        if fr["id"] not in st["things"]:
            done(st)
            return
        destroy(st, fr["id"])
        if st["supply"]:
            st["hands"][fr["seat"]].append(st["supply"].pop(0))
        note(st, f"{st['teams'][fr['seat']]} takes a Supply Crate")
        done(st)

    def h_mine(self, st: dict, fr: dict) -> None:
        """Mine: destroy it, flip the Danger Flipper; Danger: Blast its hex (Mine)."""
        if "answer" not in fr:
            if fr["id"] not in st["things"]:
                done(st)
                return
            destroy(st, fr["id"])
            ask_flipper(st, "mine")
            return
        result = B.FLIPPER_RESULTS[fr["answer"][0] - 1]
        note(st, f"mine at {fr['hex']}: {result}")
        done(st, *([{"op": "blast-hex", "hex": fr["hex"]}] if result == "danger" else []))

    def h_fire(self, st: dict, fr: dict) -> None:
        """Fire: destroy it, flip the Danger Flipper; Danger: Damage the Thing (Fire)."""
        if "answer" not in fr:
            if fr["id"] not in st["things"]:
                done(st)
                return
            destroy(st, fr["id"])
            ask_flipper(st, "fire")
            return
        result = B.FLIPPER_RESULTS[fr["answer"][0] - 1]
        note(st, f"fire at {fr['hex']}: {result}")
        victim = st["things"].get(fr["victim"])
        if result == "danger" and victim is not None and victim["hex"] == fr["hex"]:
            done(st, *damage_all(st, [fr["victim"]]))
            return
        done(st)

    def h_settle(self, st: dict, fr: dict) -> None:
        """Full hex: four or more Things -> prod a worm there (Knockback Scatter); with no
        worm the player may prod a non-Crater Thing (Fire is immoveable) (Full hex)."""
        declined = fr.setdefault("declined", [])
        if "answer" in fr:
            mv = fr.pop("answer")
            if mv["move"] == "skip":
                declined.append(fr.pop("hex"))
            else:
                done(
                    st,
                    {"op": "scatter-thing", "id": mv["id"], "knockback": True},
                    {"op": "settle", "declined": declined},
                )
                return
        for key in B.full_hexes(st):
            if key in declined:
                continue
            worms = B.things_in(st, key, ("worm",))
            if len(worms) == 1:
                done(
                    st,
                    {"op": "scatter-thing", "id": worms[0], "knockback": True},
                    {"op": "settle", "declined": declined},
                )
                return
            options = [{"move": "prod", "id": w} for w in worms]
            if not worms:
                options = [{"move": "prod", "id": t} for t in B.things_in(st, key, B.MOVABLE[1:])]
                if not options:
                    declined.append(key)
                    continue
                options.append({"move": "skip"})
            fr["hex"] = key
            ask_move(st, "prod", options, hex=key)
            return
        done(st)

    def h_scatter_thing(self, st: dict, fr: dict) -> None:
        """Scatter or Knockback Scatter a Thing (a Bullseye on a Knockback: the active
        player chooses the direction) (Scatter, Knockback Scatter)."""
        if fr["id"] not in st["things"]:
            done(st)
            return
        here = Hex.parse(key_of(st, fr["id"]))
        if "rolled" not in fr:
            if "answer" not in fr:
                ask_dice(st, 1, "knockback" if fr["knockback"] else "scatter")
                return
            fr["rolled"] = B.face_label(fr.pop("answer")[0])
        direction = B.direction_of(st, fr["rolled"])
        if direction is None and fr["knockback"]:
            if "answer" not in fr:
                ask_move(
                    st,
                    "direction",
                    [{"move": "direction", "dir": d} for d in range(1, 7)],
                    thing=fr["id"],
                )
                return
            direction = fr["answer"]["dir"]
        if direction is None:
            done(st)
            return
        done(st, *self.move_thing(st, fr["id"], here.neighbor(direction).key()))

    def h_move_to_target(self, st: dict, fr: dict) -> None:
        """Move your worm to the target (no Scatter)."""
        worm = active_worm(st)
        if worm is None or st["target"] is None:
            done(st)
            return
        done(st, *self.move_thing(st, worm, st["target"]["hex"]))
