"""A turn: setup, the eight steps of "A turn", playing a Weapon Card (its Action Line
and text), the Drop Card, passing the Target Token and the end of the game.
"""

from __future__ import annotations

from engines.base import ranking_from_scores
from engines.hexgrid import Hex
from engines.worms import board as B
from engines.worms.rules.frames import ask_chance, ask_move, done, note, order_frame, push
from engines.worms.rules.targets import target_options
from engines.worms.rules.things import active_worm, cut, option


def card_name(card: str) -> str:
    """Return the card id of a card instance (``s03-bazooka`` -> ``bazooka``)."""
    return card.split("-", 1)[1]


def finish(st: dict, reason: str) -> None:
    """End the game: most worms, then most undamaged worms, else a draw."""
    worms = [B.worms_of(st, t) for t in st["teams"]]
    scores = [len(w) for w in worms]
    healthy = [sum(1 for i in w if not st["things"][i]["damaged"]) for w in worms]
    st["over"] = {
        "scores": scores,
        "ranking": ranking_from_scores(scores, healthy),
        "reason": reason,
        "details": [
            {"team": st["teams"][s], "worms": scores[s], "undamaged": healthy[s]}
            for s in range(st["players"])
        ],
    }
    st["stack"] = []


class Turn:
    """The start state and the steps of a turn, as methods of the engine (rules versions
    override some)."""

    def start_state(self, players: int, options: dict) -> dict:
        """Return the start state, its setup steps pending: the standard setup (Setup 1-7)
        or the first-game one (Setting up your first game), as ``options["setup"]`` says;
        :meth:`engines.worms.rules.Rules.new_state` runs them."""
        first_game = options.get("setup", "first-game") == "first-game"
        tiles = self.first_game_tiles(players)
        land, things, _ = B.first_game_map(players, tiles) if first_game else ([], [], [])
        st = {
            "v": 2,
            "players": players,
            "teams": [],
            "options": dict(options),
            "dial": B.MAP["first_game"]["dial"],
            "radius": B.MAP["first_game"]["radius"],
            "land": land,
            "wind": B.MAP["first_game"]["wind"],
            "things": {},
            "pool": dict(self.box),
            "next_id": {},
            "hands": [[] for _ in range(players)],
            "supply": [],
            "drop": [],
            "sudden_death": None,
            "discard": [],
            "target": None,
            "rules": [],
            "turn": {"seat": 0, "number": 0, "worm": None, "worm_hex": None, "hurt": False},
            "end_triggered": False,
            "final": None,
            "log": [],
            "started": first_game,
            "stack": [],
            "ask": None,
            "over": None,
        }
        for t in things:
            if t["kind"] == "worm":
                st["things"][t["id"]] = {
                    "kind": "worm",
                    "hex": t["hex"],
                    "team": t["team"],
                    "damaged": False,
                }
            else:
                B.add_thing(st, t["kind"], t["hex"])
        serial = [0]

        def card_id(prefix: str, card: str) -> str:
            serial[0] += 1
            return f"{prefix}{serial[0]:02d}-{card}"

        for seat in range(players):
            st["hands"][seat] = [card_id("s", c) for c in self.cards.fixed_starters]
        st["setup"] = self.setup_decks(card_id)
        self.begin(st)
        return st

    def first_game_tiles(self, players: int) -> list[dict]:
        """Return the Map Tiles of the first-game layout kept for ``players``: the tile
        marked 3 goes with fewer than 4 players, the tile marked 2 too with 2 players
        (Setting up your first game; components: the map shrinks with the player
        count)."""
        return [t for t in B.MAP["first_game"]["tiles"] if players >= t.get("needs_players", 0)]

    def h_turn_start(self, st: dict, fr: dict) -> None:
        """Start a seat's turn: the eight steps of "A turn" as frames."""
        seat = fr["seat"]
        st["turn"] = {
            "seat": seat,
            "number": st["turn"]["number"] + 1,
            "worm": None,
            "worm_hex": None,
            "hurt": False,
        }
        st["target"] = None
        st["log"] = []
        if not B.has_worms(st, st["teams"][seat]):  # eliminated: no turn
            done(st, {"op": "pass"})
            return
        done(
            st,
            {"op": "activate"},
            {"op": "move", "ways": ["inch", "jump"], "step": 3},
            {"op": "move", "ways": ["inch", "jump"], "step": 4},
            {"op": "card"},
            {"op": "end-turn"},
            {"op": "drop"},
            {"op": "pass"},
        )

    def h_activate(self, st: dict, fr: dict) -> None:
        """1. Activate a worm (Supply Crate taken), 2. Heal it."""
        worms = B.worms_of(st, st["teams"][st["turn"]["seat"]])
        if cut(st) and "answer" not in fr:  # the Timer ran out first
            done(st)
            return
        if "answer" not in fr and len(worms) > 1:
            ask_move(st, "activate", [{"move": "activate", "worm": w} for w in worms])
            return
        worm = fr["answer"]["worm"] if "answer" in fr else worms[0]
        t = st["things"][worm]
        st["turn"]["worm"], st["turn"]["worm_hex"] = worm, t["hex"]
        note(st, f"activate {worm}")
        crates = [
            {"op": "collect", "id": c, "seat": st["turn"]["seat"]}
            for c in B.things_in(st, t["hex"], ("crate",))
        ]
        if t["damaged"]:
            t["damaged"] = False
            note(st, f"{worm} healed")
        done(st, *crates)

    def move_options(self, st: dict, ways: list[str]) -> list[dict]:
        """Return the legal Inch / Jump moves of the active worm, then ``skip``."""
        here = Hex.parse(st["things"][st["turn"]["worm"]]["hex"])
        out = []
        if "inch" in ways:
            out += [
                {"move": "inch", "dir": d}
                for d, key in enumerate(B.neighbor_keys(here.key()), 1)
                if B.is_land(st, key)
            ]
        if "jump" in ways:
            out += [{"move": "jump", "to": [h.q, h.r]} for h in self.jump_targets(st, here)]
        return out + [{"move": "skip"}]

    def jump_targets(self, st: dict, here: Hex) -> list[Hex]:
        """Return the hexes a worm in ``here`` may Jump to: any hex within two on the
        board, its own hex and Water included (Jumping: "choose any hex within two
        hexes"; a Jump into Water sinks the worm)."""
        return list(B.board_near(st["dial"], st["radius"], here.key(), 2))

    def skips_move(self, st: dict, fr: dict) -> bool:
        """Return True when a move step is skipped because the turn is cut short: the
        turn's own steps and the Movement symbol are; an Inch or Jump in a card text is
        still resolved after the worm is Damaged or the Timer ran out (Damage: "finish
        resolving your Weapon Card text")."""
        return cut(st) and fr["op"] == "move"

    def h_move(self, st: dict, fr: dict) -> None:
        """3./4. Inch or Jump (each optional), the Movement symbol (Movement), and an Inch
        or Jump in a card text (see :meth:`skips_move`)."""
        worm = active_worm(st)
        if worm is None or self.skips_move(st, fr):
            done(st)
            return
        if "answer" not in fr:
            ask_move(st, "move", self.move_options(st, fr["ways"]))
            return
        mv = fr["answer"]
        here = Hex.parse(st["things"][worm]["hex"])
        if mv["move"] == "inch":
            note(st, f"{worm} inches {mv['dir']}")
            done(st, *self.move_thing(st, worm, here.neighbor(mv["dir"]).key()))
        elif mv["move"] == "jump":
            note(st, f"{worm} jumps to {mv['to'][0]},{mv['to'][1]}")
            done(
                st,
                *self.move_thing(st, worm, Hex(*mv["to"]).key()),
                {"op": "scatter-thing", "id": worm, "knockback": False},
            )
        else:
            done(st)

    def play_options(self, st: dict, seat: int) -> list[dict]:
        """Return a "play" move per card name in hand (one per legal first target when the
        card's text starts with one), then ``skip``. A card whose first target has no
        legal hex is played without one: that target step is skipped like any later one
        (:meth:`~engines.worms.rules.targets.Targets.h_target`), and the rest of the card
        resolves ("completing the actions on the card by reading across the Action Line
        and resolving each symbol in order"; docs/games/worms.md, decision 21)."""
        out = []
        for name in sorted({card_name(c) for c in st["hands"][seat]}):
            step = self.cards.first_target(name)
            targets = [] if step is None else target_options(st, step)
            if not targets:
                out.append({"move": "play", "card": name})
            else:
                out += [dict(o, move="play", card=name) for o in targets]
        return out + [{"move": "skip"}]

    def h_card(self, st: dict, fr: dict) -> None:
        """5. Play a Weapon Card (also the Draw symbol and "Play another card"); a "Play
        another card" in a card text is still offered once the turn is cut short."""
        seat = st["turn"]["seat"]
        if (
            (cut(st) and not fr.get("from_text"))
            or active_worm(st) is None
            or not st["hands"][seat]
        ):
            done(st)
            return
        if "answer" not in fr:
            ask_move(st, "card", self.play_options(st, seat))
            return
        mv = fr["answer"]
        if mv["move"] == "skip":
            done(st)
            return
        hand = st["hands"][seat]
        card = next(c for c in hand if card_name(c) == mv["card"])
        hand.remove(card)
        note(st, f"play {card_name(card)}")
        preset = {k: mv[k] for k in ("at", "dir") if k in mv} or None
        done(st, self.line_frame(card, preset, bool(fr.get("from_text"))))

    def line_frame(self, card: str, preset: dict | None, from_text: bool) -> dict:
        """Return the frame reading a played card's Action Line (:meth:`h_line`):
        ``preset`` is the target its play move gave, ``from_text`` whether "Play another
        card" in a text played it."""
        return {"op": "line", "card": card, "i": 0, "preset": preset, "from_text": from_text}

    def h_line(self, st: dict, fr: dict) -> None:
        """Read the Action Line left to right: Text, Movement, Draw (5. Play a Weapon
        Card). Once the turn is cut short (the worm Damaged, the Timer out) the line stops
        after the text being resolved; a card played by "Play another card" in a text is
        part of that text: its Text symbols are still resolved, nothing else."""
        symbols = self.cards[card_name(fr["card"])]["line"]
        if cut(st) and fr.get("from_text"):
            while fr["i"] < len(symbols) and symbols[fr["i"]] != "text":
                fr["i"] += 1
        if fr["i"] >= len(symbols) or (cut(st) and not fr.get("from_text")):
            st["discard"].append(fr["card"])
            done(st)
            return
        symbol = symbols[fr["i"]]
        fr["i"] += 1
        if symbol == "text":
            steps = [dict(s) for s in self.cards[card_name(fr["card"])]["steps"]]
            if fr["preset"] and steps:
                steps[0]["preset"] = fr["preset"]
                fr["preset"] = None
            push(st, {"op": "text", "steps": steps})
        elif symbol == "move":
            push(st, {"op": "move", "ways": ["inch", "jump"]})
        else:
            push(st, {"op": "card"})

    def h_text(self, st: dict, fr: dict) -> None:
        """Resolve a card text in order, one keyword step at a time."""
        if not fr["steps"]:
            done(st)
            return
        step = fr["steps"].pop(0)
        push(st, dict(step, op="do-" + step["do"]))

    def h_play_another(self, st: dict, fr: dict) -> None:
        """Play another card (a step of the text: still offered once the turn is cut
        short)."""
        done(st, {"op": "card", "from_text": True})

    def h_at_end_turn(self, st: dict, fr: dict) -> None:
        """ "At End turn." keeps the rest of a card text for step 6 of this turn; "From now
        on at End turn." adds it as a rule for every later End turn (a Sudden Death card
        that adds a rule: Sudden Death), once however often its text is resolved."""
        if fr["always"]:
            rules = st.setdefault("rules", [])
            if fr["steps"] not in rules:
                rules.append(fr["steps"])
        else:
            st["turn"].setdefault("end", []).append(fr["steps"])
        done(st)

    def h_end_turn(self, st: dict, fr: dict) -> None:
        """6. End turn: "There are some effects that trigger at the end of the turn. Do
        those now": Sentry Guns fire, then this turn's "At End turn" texts and the rules
        added for the rest of the game, in an order the active player picks (General
        Rules). The Timer stops here (Timer)."""
        st["turn"]["ended"] = True
        texts = st["turn"].get("end", []) + st.get("rules", [])
        items = {
            f"end{i + 1}": [{"op": "text", "steps": [dict(s) for s in steps]}]
            for i, steps in enumerate(texts)
        }
        if any(t["kind"] == "sentry" for t in st["things"].values()):
            items["sentries"] = [{"op": "sentries"}]
        done(st, order_frame("effects", items))

    def h_draw(self, st: dict, fr: dict) -> None:
        """Draw a card (the top of the Supply Deck), or a Superweapon: the first
        Superweapon in the Supply Deck (Superweapons: "no rules effect except when
        referred to by a card"); nothing when there is none."""
        seat, deck = st["turn"]["seat"], st["supply"]
        found = [c for c in deck if not fr["super"] or self.cards[card_name(c)]["super"]][:1]
        if found:
            deck.remove(found[0])
            st["hands"][seat].append(found[0])
            note(st, f"{st['teams'][seat]} draws a {'Superweapon' if fr['super'] else 'card'}")
        done(st)

    def h_drop(self, st: dict, fr: dict) -> None:
        """7. Draw a Drop Card and resolve it; the last is the Sudden Death card, whose
        Drop text is resolved at every later Drop step (Draw a Drop Card)."""
        if st["sudden_death"] is not None:
            card = st["sudden_death"]
        elif st["drop"]:
            card = st["drop"].pop(0)
            if self.cards[card_name(card)]["deck"] == "sudden_death":
                st["sudden_death"] = card
        elif option(st, "no_sudden_death") and self.drop_discards(st):
            push(st, {"op": "reshuffle-drop", "cards": self.drop_discards(st)})
            return
        else:
            done(st)
            return
        note(st, f"drop {card_name(card)}")
        after = [] if card == st["sudden_death"] else [{"op": "discard", "card": card}]
        done(
            st,
            {"op": "text", "steps": [dict(s) for s in self.cards[card_name(card)]["steps"]]},
            *after,
        )

    def drop_discards(self, st: dict) -> list[str]:
        """Return the discarded Drop cards."""
        return [c for c in st["discard"] if self.cards[card_name(c)]["deck"] == "drop"]

    def h_reshuffle_drop(self, st: dict, fr: dict) -> None:
        """No Sudden Death: "Whenever a player would draw a card from the Drop Deck and it
        is empty, shuffle together all the Drop Cards to form a new deck" (a shuffle nobody
        sees)."""
        if "answer" not in fr:
            ask_chance(st, {"kind": "shuffle", "size": len(fr["cards"]), "deck": "drop"}, [])
            return
        st["drop"] = [fr["cards"][i] for i in fr["answer"]]
        st["discard"] = [c for c in st["discard"] if c not in fr["cards"]]
        note(st, "the Drop Deck is reshuffled")
        done(st)

    def h_discard(self, st: dict, fr: dict) -> None:
        """Discard a fully resolved Drop Card (Draw a Drop Card)."""
        st["discard"].append(fr["card"])
        done(st)

    def h_pass(self, st: dict, fr: dict) -> None:
        """8. Pass the Target Token; the end of the game (Elimination and Winning)."""
        n, seat = st["players"], st["turn"]["seat"]
        alive = [s for s in range(n) if B.has_worms(st, st["teams"][s])]
        if option(st, "true_elimination"):  # True Elimination: until one team is left
            if len(alive) <= 1:
                finish(st, "elimination" if alive else "all-destroyed")
                return
            done(
                st,
                {
                    "op": "turn-start",
                    "seat": next(
                        (seat + k) % n for k in range(1, n + 1) if (seat + k) % n in alive
                    ),
                },
            )
            return
        if st["end_triggered"] and st["final"] is None:
            st["final"] = [(seat + k) % n for k in range(1, n + 1)]
        if not alive:
            finish(st, "all-destroyed")
            return
        if st["final"] is not None:
            while st["final"] and st["final"][0] not in alive:
                st["final"].pop(0)
            if not st["final"]:
                finish(st, "elimination")
                return
            nxt = st["final"].pop(0)
        else:
            nxt = next((seat + k) % n for k in range(1, n + 1) if (seat + k) % n in alive)
        done(st, {"op": "turn-start", "seat": nxt})
