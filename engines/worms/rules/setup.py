"""Setting up a game: the standard setup as the book runs it (Setup 1-7), the first-game
setup (Setting up your first game), and the decks with the optional rules that change
them (Sudden Death Draft, No Sudden Death, Late Superweapons, Longer game, Larger map).

Standard setup, as frames: one ``place-tile`` per player from the youngest, clockwise
(then the youngest again for each Larger map tile), one ``place-thing`` per Thing of
the common pile (4 worms per colour, an Oil Drum, a Mine and a Supply Crate per player),
clockwise from the youngest; ``select`` (a hidden shuffle of the Reference Cards: each
seat sees only its own colour until the game starts); the deck shuffles; ``first-player``
(the lowest Reference Card number, Blue, takes the Target Token and rolls a die until a
number comes up: that is the Wind).
"""

from __future__ import annotations

from functools import lru_cache

from engines.hexgrid import Hex
from engines.worms import board as B
from engines.worms.rules.frames import ask_chance, ask_dice, ask_move, done, note, push

COLOURS = ["blue", "red", "yellow", "green"]
"""Team colours in Reference Card order (Blue is number 1: "usually blue", Setup 7)."""

BUILD_RADIUS = 7
"""Map Tiles may be placed with every hex within this distance of the Wind Dial (a
table's edge; beyond it a placement is ``off-the-board``)."""

WORMS_PER_TEAM = 4


# --------------------------------------------------------------------------- the map


@lru_cache(maxsize=64)
def _offsets(tile: str, rot: int) -> tuple[Hex, ...]:
    """Return a Map Tile's hex offsets from its anchor, turned ``rot`` sixths of a turn
    clockwise (cube rotation)."""
    out = []
    for off in B.MAP["tiles"][tile]["hexes"]:
        h = Hex.parse(off)
        q, r, s = h.q, h.r, h.s
        for _ in range(rot % 6):
            q, r, s = -r, -s, -q
        out.append(Hex(q, r))
    return tuple(out)


def tile_hexes(tile: str, at: list[int], rot: int) -> list[str]:
    """Return the hexes a Map Tile covers with its anchor at ``at``, turned ``rot``
    sixths of a turn clockwise."""
    anchor = Hex(*at)
    return [(anchor + o).key() for o in _offsets(tile, rot)]


def tile_error(st: dict, tile: str, at: list[int], rot: int) -> tuple[str, str] | None:
    """Return ``(code, sentence)`` when a Map Tile may not go there (Setup 1: "touching
    either the Wind Dial hex or any already placed Tile by joining one or more edges"),
    None when it may."""
    if tile not in st["tiles_left"]:
        return "no-such-tile", f"Tile {tile} is not among the tiles left to place."
    hexes = tile_hexes(tile, at, rot)
    dial = Hex.parse(st["dial"])
    if any(dial.distance(Hex.parse(k)) > BUILD_RADIUS for k in hexes):
        return (
            "off-the-board",
            f"The tile would reach more than {BUILD_RADIUS} hexes from the Wind Dial.",
        )
    taken = set(st["land"]) | {st["dial"]}
    if taken & set(hexes):
        return "overlapping", "The tile would cover the Wind Dial or a placed tile."
    if not any(n.key() in taken for k in hexes for n in Hex.parse(k).neighbors()):
        return "not-touching", "A tile must touch the Wind Dial or a placed tile along an edge."
    return None


def tile_options(st: dict) -> list[dict]:
    """Return every legal ``tile`` move now (tile, anchor, rotation), sorted. Anchors
    are tried only where a tile hex lands next to the dial or a placed tile (so every
    one tried touches); each is then checked for overlap and the table's edge, as
    :func:`tile_error` does."""
    taken = {Hex.parse(k) for k in st["land"]} | {Hex.parse(st["dial"])}
    frontier = {n for h in taken for n in h.neighbors() if n not in taken}
    dial = Hex.parse(st["dial"])
    out = []
    for tile in sorted(st["tiles_left"]):
        for rot in range(6):
            offsets = _offsets(tile, rot)
            for a in sorted({f - o for f in frontier for o in offsets}):
                hexes = [a + o for o in offsets]
                if not taken.intersection(hexes) and all(
                    dial.distance(h) <= BUILD_RADIUS for h in hexes
                ):
                    out.append({"move": "tile", "tile": tile, "at": [a.q, a.r], "rot": rot})
    return out


def grow_board(st: dict) -> None:
    """Set the board to the built Land plus a ring of phantom Water ("Phantom" Water
    hexes): every hex within one more than the farthest Land hex of the dial."""
    dial = Hex.parse(st["dial"])
    st["radius"] = 1 + max((dial.distance(Hex.parse(k)) for k in st["land"]), default=0)


# --------------------------------------------------------------------------- Things


def pile(players: int) -> dict[str, int]:
    """Return the common pile (Setup 2, Collect): 4 worms per colour in the game, and
    one Oil Drum, Mine and Supply Crate per player."""
    out = {c: WORMS_PER_TEAM for c in COLOURS[:players]}
    out.update(drum=players, mine=players, crate=players)
    return out


def place_options(st: dict) -> list[dict]:
    """Return every legal ``place`` move: a Thing left in the pile onto a Land hex with
    fewer than three Things (Setup 3: "Don't place any more than three Things")."""
    counts: dict[str, int] = {}
    for t in st["things"].values():
        counts[t["hex"]] = counts.get(t["hex"], 0) + 1
    hexes = [k for k in st["land"] if counts.get(k, 0) < 3]
    return [
        {"move": "place", "thing": kind, "at": list(map(int, k.split(",")))}
        for kind, n in st["pile"].items()
        if n > 0
        for k in hexes
    ]


def place_error(st: dict, thing: str, key: str) -> tuple[str, str] | None:
    """Return ``(code, sentence)`` when a Thing may not be placed there, else None."""
    if st["pile"].get(thing, 0) <= 0:
        return "not-in-pile", f"There is no {thing} left in the pile."
    if not B.is_land(st, key):
        return "into-water", f"{key} is not a Land hex: Things are placed on Land."
    if B.count_in(st, key) >= 3:
        return "full-hex", f"{key} already holds three Things."
    return None


def standard_tiles(players: int, larger: int) -> list[str]:
    """Return the Map Tiles in the box: the four tiles, and the extra tiles (the
    6-player edition's, invented) that only Larger map uses."""
    return (
        sorted(k for k, t in B.MAP["tiles"].items() if not t.get("extra"))
        + sorted(k for k, t in B.MAP["tiles"].items() if t.get("extra"))[:larger]
    )


# --------------------------------------------------------------------------- the handlers


class Setup:
    """The setup's handlers and decks, as methods of the engine (rules versions override
    some)."""

    def h_place_tile(self, st: dict, fr: dict) -> None:
        """1. Create the map: the seat places one Map Tile."""
        st["turn"]["seat"] = fr["seat"]
        if "answer" not in fr:
            ask_move(st, "tile", tile_options(st))
            return
        mv = fr["answer"]
        hexes = tile_hexes(mv["tile"], mv["at"], mv["rot"])
        st["tiles_left"].remove(mv["tile"])
        st["land"] = sorted(set(st["land"]) | set(hexes), key=Hex.parse)
        grow_board(st)
        note(st, f"seat {fr['seat']} places tile {mv['tile']}")
        done(st)

    def h_place_thing(self, st: dict, fr: dict) -> None:
        """3. Place: the seat places one Thing from the common pile."""
        st["turn"]["seat"] = fr["seat"]
        if "answer" not in fr:
            ask_move(st, "place", place_options(st))
            return
        mv = fr["answer"]
        kind, key = mv["thing"], Hex(*mv["at"]).key()
        st["pile"][kind] -= 1
        if kind in COLOURS:
            n = sum(1 for t in st["things"].values() if t.get("team") == kind) + 1
            worm = f"{B.TEAM_LETTERS[kind]}{n}"
            st["things"][worm] = {"kind": "worm", "hex": key, "team": kind, "damaged": False}
        else:
            B.add_thing(st, kind, key)
        done(st)

    def h_select(self, st: dict, fr: dict) -> None:
        """4. Select: the Reference Cards of the colours in play, shuffled and dealt; the
        shuffle is seen by nobody, each seat's view shows only its own colour until the
        game starts."""
        colours = COLOURS[: st["players"]]
        if "answer" not in fr:
            ask_chance(st, {"kind": "shuffle", "size": len(colours), "deck": "reference-cards"}, [])
            return
        st["teams"] = [colours[i] for i in fr["answer"]]
        done(st)

    def h_first_player(self, st: dict, fr: dict) -> None:
        """7. Determine first player: the lowest Reference Card number (Blue) takes the
        Target Token and rolls a die until a number comes up; the Wind is set to it."""
        first = st["teams"].index(COLOURS[0])
        st["turn"]["seat"] = first
        st["started"] = True  # the Reference Cards are shown
        if "answer" in fr:
            face = B.face_label(fr.pop("answer")[0])
            if isinstance(face, int):
                st["wind"] = face
                note(st, f"wind {face}")
                done(st, {"op": "turn-start", "seat": first})
                return
        ask_dice(st, 1, "starting-wind")

    def deck_frames(self, st: dict) -> list[dict]:
        """Return the frames of Setup 5-6 (Starting hand, Decks) under the options."""
        opts = st["options"]
        frames = [{"op": "setup-shuffle", "deck": "starter_pool"}]
        if opts.get("late_superweapons"):
            frames += [
                {"op": "setup-shuffle", "deck": "supply_super"},
                {"op": "setup-shuffle", "deck": "supply"},
            ]
        else:
            frames.append({"op": "setup-shuffle", "deck": "supply"})
        if opts.get("sudden_death_draft"):
            frames.append({"op": "setup-shuffle", "deck": "sudden_death_deal"})
            frames += [
                {"op": "draft", "seat": (opts.get("youngest", 0) + k) % st["players"]}
                for k in range(st["players"])
            ]
            frames.append({"op": "setup-shuffle", "deck": "sudden_death_chosen"})
        elif not opts.get("no_sudden_death"):
            frames.append({"op": "setup-shuffle", "deck": "sudden_death"})
        frames.append({"op": "setup-shuffle", "deck": "drop"})
        return frames

    def setup_decks(self, card_id) -> dict:
        """Return the card instances of each deck before shuffling (``card_id(prefix,
        card)`` names a physical card)."""
        cards = self.cards
        supply = [card_id("w", c) for c in cards.deck_list("supply")]
        return {
            "starter_pool": [card_id("p", c) for c in cards.deck_list("starter_pool")],
            "supply": [c for c in supply if not cards[c.split("-", 1)[1]]["super"]],
            "supply_super": [c for c in supply if cards[c.split("-", 1)[1]]["super"]],
            "drop": [card_id("d", c) for c in cards.deck_list("drop")],
            "sudden_death": [card_id("x", c) for c in cards.deck_list("sudden_death")],
        }

    def h_setup_shuffle(self, st: dict, fr: dict) -> None:
        """Shuffle a deck nobody sees (Setup 5-6) and deal or stack it (see :meth:`deal`)."""
        deck = fr["deck"]
        cards = self.deck_cards(st, deck)
        if "answer" not in fr:
            ask_chance(st, {"kind": "shuffle", "size": len(cards), "deck": deck}, [])
            return
        self.deal(st, deck, [cards[i] for i in fr["answer"]])
        done(st)

    def deck_cards(self, st: dict, deck: str) -> list[str]:
        """Return the cards a setup shuffle shuffles."""
        setup = st["setup"]
        if deck == "sudden_death_deal":
            return setup["sudden_death"]
        if deck == "sudden_death_chosen":
            return setup["chosen"]
        if deck == "supply" and not st["options"].get("late_superweapons"):
            return setup["supply"] + setup["supply_super"]
        return setup[deck]

    def deal(self, st: dict, deck: str, order: list[str]) -> None:
        """Use a shuffled deck: the fifth Starter card to each player (Setup 5); the Supply
        Deck (Late Superweapons: two non-Starter Weapon Cards per player on top of every
        Superweapon); the Sudden Death card (Draft: dealt equally, one chosen each, the
        chosen shuffled and one kept); the Drop Deck (two per player plus two, or every
        Drop card with Longer game or No Sudden Death) on top of the Sudden Death card."""
        n, opts = st["players"], st["options"]
        if deck == "starter_pool":
            for seat in range(n):
                st["hands"][seat].append(order[seat])
        elif deck == "supply_super":
            st["supply"] = order
        elif deck == "supply":
            st["supply"] = (order[: 2 * n] if opts.get("late_superweapons") else order) + st[
                "supply"
            ]
        elif deck == "sudden_death_deal":
            each = len(order) // n
            st["setup"]["draft"] = [order[k * each : (k + 1) * each] for k in range(n)]
            st["setup"]["chosen"] = []
        elif deck in ("sudden_death", "sudden_death_chosen"):
            st["setup"]["bottom"] = order[0]
        else:
            everything = opts.get("longer_game") or opts.get("no_sudden_death")
            st["drop"] = order if everything else order[: 2 * n + 2]
            bottom = st["setup"].get("bottom")
            if bottom:
                st["drop"].append(bottom)
            del st["setup"]

    def h_draft(self, st: dict, fr: dict) -> None:
        """Sudden Death Draft: the seat chooses one of the Sudden Death cards dealt to it
        (a private decision); the rest go back to the box."""
        seat = fr["seat"]
        st["turn"]["seat"] = seat
        dealt = st["setup"]["draft"][seat]
        if "answer" not in fr:
            ask_move(
                st,
                "draft",
                [{"move": "choose", "card": c.split("-", 1)[1]} for c in dealt],
                private=True,
            )
            return
        chosen = next(c for c in dealt if c.split("-", 1)[1] == fr["answer"]["card"])
        st["setup"]["chosen"].append(chosen)
        st["setup"]["draft"][seat] = []
        done(st)

    def standard_frames(self, st: dict) -> list[dict]:
        """Return the frames of the standard setup (Setup 1-7)."""
        n, first = st["players"], st["options"].get("youngest", 0)
        order = [(first + k) % n for k in range(n)]
        frames = [{"op": "place-tile", "seat": s} for s in order]
        frames += [
            {"op": "place-tile", "seat": first} for _ in range(st["options"].get("larger_map", 0))
        ]
        things = sum(pile(n).values())
        frames += [{"op": "place-thing", "seat": order[k % n]} for k in range(things)]
        frames.append({"op": "select"})
        return frames + self.deck_frames(st) + [{"op": "first-player"}]

    def begin(self, st: dict) -> None:
        """Push the setup frames of ``st["options"]["setup"]`` onto a fresh state."""
        if st["options"].get("setup", "first-game") == "first-game":
            st["teams"] = COLOURS[: st["players"]]
            push(st, *self.deck_frames(st), {"op": "turn-start", "seat": 0})
            return
        st["tiles_left"] = standard_tiles(st["players"], st["options"].get("larger_map", 0))
        st["pile"] = pile(st["players"])
        st["land"], st["radius"], st["wind"] = [], 1, None
        st["teams"] = [None] * st["players"]
        push(st, *self.standard_frames(st))
