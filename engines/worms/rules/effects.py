"""What card texts do to the target hexes: Blast, Damage, Oil Drums, Place, Remove a
Crater, Knockback Scatter, Change Wind (Blast, Damage, Oil Drum, Place, Crater,
Knockback Scatter, Direction).
"""

from __future__ import annotations

from engines.hexgrid import Hex
from engines.worms import board as B
from engines.worms.rules.frames import ask_dice, done, note, order_frame
from engines.worms.rules.targets import target_hexes
from engines.worms.rules.things import damage, damage_all, destroy, flood, key_of, option


def place_thing(st: dict, thing: str, key: str) -> None:
    """Place a Thing from the pool in a hex (Place); three Craters flood it."""
    if B.add_thing(st, thing, key):
        note(st, f"place {thing} at {key}")
        if thing == "crater" and len(B.things_in(st, key, ("crater",))) >= 3:
            flood(st, key)


class Effects:
    """The handlers of what card texts do to the target hexes, as methods of the engine
    (rules versions override some)."""

    def h_blast(self, st: dict, fr: dict) -> None:
        """Blast every target hex in order."""
        done(st, *[{"op": "blast-hex", "hex": k} for k in target_hexes(st)])

    def h_blast_hex(self, st: dict, fr: dict) -> None:
        """Blast: Water -> nothing; else a Crater, then one die per Thing, worms first,
        each group ordered by the active player (Blast). Oil Drums, Supply Crates and
        Mines get their die too; Craters and Fire are immoveable and indestructible, so
        no die of theirs could matter."""
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
        others = B.things_in(st, key, B.MOVABLE[1:])
        done(
            st,
            order_frame("worms", {w: [self.blast_frame(st, w, key)] for w in worms}),
            order_frame("things", {t: [self.blast_frame(st, t, key)] for t in others}),
            {"op": "settle"},
        )

    def blast_frame(self, st: dict, thing: str, key: str) -> dict:
        """Return the frame of one Thing in a Blast in hex ``key``: its die."""
        return {"op": "blast-thing", "id": thing, "hex": key}

    def h_blast_thing(self, st: dict, fr: dict) -> None:
        """One Thing in a Blast: roll a die, Damage it, then move it the rolled way (Blast).
        Reduced Blast: no Damage, the Thing still moves (Optional Rules). Parting Gifts:
        the die is rolled before a destroyed worm's death Blast, which goes off in the hex
        the die Scatters it into."""
        t = st["things"].get(fr["id"])
        if t is None or t["hex"] != fr["hex"]:
            done(st)
            return
        if "answer" not in fr:
            ask_dice(st, 1, "blast")
            return
        direction = B.direction_of(st, B.face_label(fr["answer"][0]))
        here = Hex.parse(key_of(st, fr["id"]))
        dest = here if direction is None else here.neighbor(direction)
        follow = [] if option(st, "reduced_blast") else damage(st, fr["id"], dest.key())
        if fr["id"] in st["things"] and direction is not None:
            follow = self.move_thing(st, fr["id"], dest.key()) + follow
        done(st, *follow)

    def h_damage(self, st: dict, fr: dict) -> None:
        """Damage: every Thing in each target hex at once, hex by hex in order (an Air
        Strike's three hexes: Air Strike targets); what that sets off is ordered by the
        active player (General Rules)."""
        done(st, *[{"op": "damage-hex", "hex": k} for k in target_hexes(st)])

    def h_damage_hex(self, st: dict, fr: dict) -> None:
        """Damage every Thing in one hex."""
        done(st, *damage_all(st, B.things_in(st, fr["hex"])))

    def h_damage_worms(self, st: dict, fr: dict) -> None:
        """Damage every worm on the map (a Sudden Death Drop text)."""
        worms = sorted(i for i, t in st["things"].items() if t["kind"] == "worm")
        done(st, *damage_all(st, worms))

    def h_explode(self, st: dict, fr: dict) -> None:
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

    def h_place_fires(self, st: dict, fr: dict) -> None:
        """Place a Fire in each hex an Oil Drum hit (Water: it sinks)."""
        for k in fr["hexes"]:
            B.add_thing(st, "fire", k)
        done(st)

    def h_place(self, st: dict, fr: dict) -> None:
        """Place a Thing from the pool in each target hex, hex by hex (Place); a full hex
        is prodded after each."""
        done(st, *[{"op": "place-hex", "hex": k, "thing": fr["thing"]} for k in target_hexes(st)])

    def h_place_hex(self, st: dict, fr: dict) -> None:
        """Place one Thing from the pool in one hex (Place), then the full hex check."""
        place_thing(st, fr["thing"], fr["hex"])
        done(st, {"op": "settle"})

    def h_remove_crater(self, st: dict, fr: dict) -> None:
        """Remove a Crater from each target hex (the Girder's exception, Crater)."""
        for k in target_hexes(st):
            craters = B.things_in(st, k, ("crater",))
            if craters:
                destroy(st, craters[0])
                note(st, f"crater removed at {k}")
        done(st)

    def h_knockback(self, st: dict, fr: dict) -> None:
        """Knockback Scatter every worm in the target hexes (ordered by the player)."""
        frames = []
        for k in target_hexes(st):
            worms = B.things_in(st, k, ("worm",))
            frames.append(
                order_frame(
                    "worms",
                    {w: [{"op": "scatter-thing", "id": w, "knockback": True}] for w in worms},
                )
            )
        done(st, *frames)

    def h_change_wind(self, st: dict, fr: dict) -> None:
        """Change Wind: a number sets the dial, Wind or Bullseye leaves it (Direction)."""
        if "answer" not in fr:
            ask_dice(st, 1, "wind")
            return
        label = B.face_label(fr["answer"][0])
        if isinstance(label, int):
            st["wind"] = label
        note(st, f"wind {st['wind']}")
        done(st)

    def h_sentries(self, st: dict, fr: dict) -> None:
        """Sentry Guns fire at End turn: each Damages every worm in the six hexes around
        it, all at once (an invented token rule, data/cards.json "sentry-gun")."""
        guns = [Hex.parse(t["hex"]) for t in st["things"].values() if t["kind"] == "sentry"]
        around = {h.key() for g in guns for h in g.neighbors()}
        worms = sorted(
            i for i, t in st["things"].items() if t["kind"] == "worm" and t["hex"] in around
        )
        if worms:
            note(st, "sentry guns fire")
        done(st, *damage_all(st, worms))
