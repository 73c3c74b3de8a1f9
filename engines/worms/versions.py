"""The older versions of Worms that games created under them keep playing (see
:mod:`engines.base`, "Rules versions"): each class is the delta to the next newer one,
``WormsV1(WormsV2(WormsV3(WormsV4(WormsEngine))))``. What changed from one to the next is
listed in ``docs/games/worms.md`` ("Engine versions").
"""

from __future__ import annotations

from marshmallow import Schema

from engines.base import Engine, IllegalMove
from engines.hexgrid import Hex
from engines.worms import board as B
from engines.worms import notation, options_v3
from engines.worms.cards import DATA, CardSet
from engines.worms.engine import WormsEngine
from engines.worms.rules.effects import place_thing
from engines.worms.rules.frames import done, permutation_moves
from engines.worms.rules.targets import target_hexes, target_options
from engines.worms.rules.things import damage, damage_all
from engines.worms.rules.turn import card_name


class WormsV4(WormsEngine):
    """Worms as engine version 4 played it: a card whose text starts with a target could
    be played only at a legal hex of that target, so a card whose first target had none
    (a Sentry Gun with no Empty hex within 2) could not be played at all, its Movement
    lost, while a later target with no legal hex was skipped."""

    version = "4"

    def play_options(self, st: dict, seat: int) -> list[dict]:
        """Return a "play" move per card name in hand, one per legal first target when
        the card's text starts with one (none when it has no legal hex), then ``skip``."""
        out = []
        for name in sorted({card_name(c) for c in st["hands"][seat]}):
            step = self.cards.first_target(name)
            if step is None:
                out.append({"move": "play", "card": name})
            else:
                out += [dict(o, move="play", card=name) for o in target_options(st, step)]
        return out + [{"move": "skip"}]


class WormsV3(WormsV4):
    """Worms as engine version 3 played it: version 4's rules with version 3's option schema
    (:mod:`engines.worms.options_v3`: ``larger_map`` a count, flags read loosely) so that
    its stored options load."""

    version = "3"
    options_schema = options_v3.WormsOptionsV3

    def load_options(self, players: int, options) -> dict:
        """Validate options as version 3 did.

        :raises InvalidOptions: ``bad-player-count``, ``bad-options``.
        """
        return options_v3.check(Engine.load_options(self, players, options), players)

    def setup(self, players: int, options) -> dict:
        """Return the start state of version 3 (its options are the rules' options)."""
        return self.new_state(players, self.load_options(players, options))


class WormsV2(WormsV3):
    """Worms as engine version 2 played it (the audit fixes of part 1, the 95 cards): the
    first-game setup only, no options, no Timer. Its states were written before the
    standard setup (``"v": 1``, no ``started`` flag, no rules added for the rest of the
    game) and its deck shuffles came Starter, Supply, Drop, then Sudden Death."""

    version = "2"
    options_schema = Schema
    notation = notation.FIRST_GAME_HELP

    def load_options(self, players: int, options) -> dict:
        """Validate the player count; version 2 took no options.

        :raises InvalidOptions: ``bad-player-count``, ``bad-options`` (any option).
        """
        return Engine.load_options(self, players, options)

    def start_state(self, players: int, options: dict) -> dict:
        """Return the first-game start state in version 2's shape."""
        st = super().start_state(players, options)
        del st["rules"], st["started"]
        st["v"] = 1
        return st

    def setup_decks(self, card_id) -> dict:
        """Return the decks before shuffling, named in version 2's order: the Starter pool,
        the Supply Deck (Superweapons among them, in data order), Drop, Sudden Death."""
        decks = (("starter_pool", "p"), ("supply", "w"), ("drop", "d"), ("sudden_death", "x"))
        return {deck: [card_id(p, c) for c in self.cards.deck_list(deck)] for deck, p in decks}

    def deck_frames(self, st: dict) -> list[dict]:
        """Return version 2's deck shuffles: Starter, Supply, Drop, Sudden Death."""
        decks = ("starter_pool", "supply", "drop", "sudden_death")
        return [{"op": "setup-shuffle", "deck": deck} for deck in decks]

    def deck_cards(self, st: dict, deck: str) -> list[str]:
        """Return the cards of the deck a setup shuffle shuffles."""
        return st["setup"][deck]

    def deal(self, st: dict, deck: str, order: list[str]) -> None:
        """Use a shuffled deck as version 2 did: the Drop Deck (two per player plus two)
        first, then the Sudden Death card under it, which ends the setup."""
        if deck == "drop":
            st["drop"] = order[: 2 * st["players"] + 2]
        elif deck == "sudden_death":
            st["drop"].append(order[0])
            del st["setup"]
        else:
            super().deal(st, deck, order)

    def view(self, state: dict, seat: int | None) -> dict:
        """Return the view as today's engine draws it; version 2's states have no
        ``started`` flag: its teams were public from the start."""
        return super().view(dict(state, started=True), seat)


class _CardsV1(CardSet):
    """Version 1's cards, read as version 1 read them: its target steps knew no Empty or
    Non-full hex (their steps have neither key)."""

    def read(self, text: str) -> list[dict]:
        """Return the steps of a card text, without ``empty`` and ``nonfull``."""
        return [
            {k: v for k, v in step.items() if k not in ("empty", "nonfull")}
            for step in super().read(text)
        ]


class WormsV1(WormsV2):
    """Worms as engine version 1 played it (part 1): the cards of
    ``data/cards-v1.json`` and no Sentry Guns in the box; the tile marked 2 left out with
    two players and the tile marked 3 with three; a Blast rolled a die for worms only;
    Damage and Place hit every target hex at once; a Jump went to Land one or two hexes
    away; a Thing moved into its own hex entered it again; up to five items at once were
    ordered as one permutation, more in id order; a worm Damaged on its turn ended all
    but End turn, card texts' moves and "Play another card" included; End turn did
    nothing."""

    version = "1"
    cards = _CardsV1(DATA / "cards-v1.json")
    box = {kind: n for kind, n in B.BOX.items() if kind != "sentry"}
    handlers = {**WormsV2.handlers, "blast-worm": "h_blast_thing", "damage-thing": "h_damage_thing"}

    def first_game_tiles(self, players: int) -> list[dict]:
        """Return the first-game tiles kept: the tile marked 2 goes with two players, the
        tile marked 3 with three."""
        removed = {2: "2", 3: "3"}.get(players)
        return [t for t in B.MAP["first_game"]["tiles"] if t["tile"] != removed]

    def order_options(self, what: str, ids: list[str]) -> list[dict]:
        """Return every order of up to five items; more resolve in id order."""
        return permutation_moves(what, ids) if len(ids) <= 5 else []

    def move_thing(self, st: dict, thing: str, key: str) -> list[dict]:
        """Move a Thing; one moved into its own hex enters it again."""
        if st["things"][thing]["hex"] == key and B.is_land(st, key):
            if thing == st["turn"]["worm"]:
                st["turn"]["worm_hex"] = key
            return [{"op": "enter", "id": thing, "hex": key}]
        return super().move_thing(st, thing, key)

    def blast_frame(self, st: dict, thing: str, key: str) -> dict:
        """Return the frame of one Thing in a Blast: a die for a worm (``blast-worm``), for
        any other Thing Damage where it stands (``damage-thing``)."""
        op = "blast-worm" if st["things"][thing]["kind"] == "worm" else "damage-thing"
        return {"op": op, "id": thing, "hex": key}

    def h_damage_thing(self, st: dict, fr: dict) -> None:
        """Damage one Thing of a Blast still in its hex."""
        t = st["things"].get(fr["id"])
        done(st, *(damage(st, fr["id"]) if t is not None and t["hex"] == fr["hex"] else []))

    def h_damage(self, st: dict, fr: dict) -> None:
        """Damage every Thing in all the target hexes at once."""
        done(st, *damage_all(st, [i for k in target_hexes(st) for i in B.things_in(st, k)]))

    def h_place(self, st: dict, fr: dict) -> None:
        """Place a Thing in every target hex, then check the full hexes once."""
        for key in target_hexes(st):
            place_thing(st, fr["thing"], key)
        done(st, {"op": "settle"})

    def jump_targets(self, st: dict, here: Hex) -> list[Hex]:
        """Return the Land hexes one or two hexes away."""
        return [h for h in here.within(2) if h != here and B.is_land(st, h.key())]

    def move_error(self, state: dict, verb: str, here: Hex, dest: Hex) -> IllegalMove | None:
        """Return why an Inch or Jump is refused: also a Jump to the worm's own hex, or
        into Water."""
        if verb == "jump" and dest == here:
            return IllegalMove("jump-too-far", "Jump to a hex one or two hexes away.")
        err = super().move_error(state, verb, here, dest)
        if err is None and verb == "jump" and not B.is_land(state, dest.key()):
            return IllegalMove("into-water", f"{dest.key()} is a Water hex.")
        return err

    def skips_move(self, st: dict, fr: dict) -> bool:
        """Return True once the worm is Damaged, for a card text's move too."""
        return st["turn"]["hurt"]

    def line_frame(self, card: str, preset: dict | None, from_text: bool) -> dict:
        """Return the Action Line's frame, which did not record ``from_text``."""
        return {"op": "line", "card": card, "i": 0, "preset": preset}

    def h_play_another(self, st: dict, fr: dict) -> None:
        """Play another card as step 5 does (not offered once the worm is Damaged)."""
        done(st, {"op": "card"})

    def h_end_turn(self, st: dict, fr: dict) -> None:
        """End turn: no card of version 1 had an end-of-turn effect."""
        done(st)


WormsEngine.older_versions = (WormsV4, WormsV3, WormsV2, WormsV1)
