"""The Worms rules as a state machine over a stack of pending steps.

The state holds ``stack``: a list of *frames* (plain dicts, the top is the last
item). :func:`run` resolves the top frame again and again; a frame's handler either
finishes (pops itself, maybe pushing the steps it causes) or stops the machine by
setting ``state["ask"]``: a Chance (dice, the Danger Flipper, a shuffle) or a Decision
for the active player, with the list of legal answers. ``play`` / ``resolve`` store
the answer in the top frame as ``answer`` and run again. So any step (Accuracy inside
a card text, a Blast inside an Oil Drum inside a Mine ...) can stop for chance or a
choice and carry on afterwards, and the whole game stays a fold of its inputs.

Rulebook sections are cited as (Section) in the docstrings.
"""

from __future__ import annotations

from itertools import permutations

from engines.base import ranking_from_scores
from engines.hexgrid import Hex
from engines.worms import board as B
from engines.worms.cards import CARDS, deck_list, first_target, FIXED_STARTERS

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
    st["ask"] = {"type": "decision", "seat": st["turn"]["seat"], "kind": kind,
                 "options": options, **info}


def note(st: dict, text: str) -> None:
    """Add a line to this turn's public log."""
    st["log"].append(text)


def run(st: dict) -> dict:
    """Resolve frames until the game needs an input or is over; return ``st``."""
    while st["ask"] is None and st["over"] is None:
        frame = st["stack"][-1]
        HANDLERS[frame["op"]](st, frame)
    return st


def answer(st: dict, value) -> dict:
    """Give the pending ask its answer and run on."""
    st["ask"] = None
    st["stack"][-1]["answer"] = value
    return run(st)


# --------------------------------------------------------------------------- setup

def new_state(players: int, options: dict) -> dict:
    """Return the start state of a first game (Setting up your first game)."""
    land, things, teams = B.first_game_map(players)
    st = {
        "v": 1, "players": players, "teams": teams, "options": dict(options),
        "dial": B.MAP["first_game"]["dial"], "radius": B.MAP["first_game"]["radius"],
        "land": land, "wind": B.MAP["first_game"]["wind"],
        "things": {}, "pool": dict(B.BOX), "next_id": {},
        "hands": [[] for _ in range(players)], "supply": [], "drop": [],
        "sudden_death": None, "discard": [], "target": None,
        "turn": {"seat": 0, "number": 0, "worm": None, "worm_hex": None, "hurt": False},
        "end_triggered": False, "final": None, "log": [],
        "stack": [], "ask": None, "over": None,
    }
    for t in things:
        if t["kind"] == "worm":
            st["things"][t["id"]] = {"kind": "worm", "hex": t["hex"], "team": t["team"],
                                     "damaged": False}
        else:
            B.add_thing(st, t["kind"], t["hex"])
    serial = [0]

    def card_id(prefix: str, card: str) -> str:
        serial[0] += 1
        return f"{prefix}{serial[0]:02d}-{card}"

    for seat in range(players):
        st["hands"][seat] = [card_id("s", c) for c in FIXED_STARTERS]
    st["setup"] = {
        "starter_pool": [card_id("p", c) for c in deck_list("starter_pool")],
        "supply": [card_id("w", c) for c in deck_list("supply")],
        "drop": [card_id("d", c) for c in deck_list("drop")],
        "sudden_death": [card_id("x", c) for c in deck_list("sudden_death")],
    }
    push(st, *[{"op": "setup-shuffle", "deck": d} for d in
               ("starter_pool", "supply", "drop", "sudden_death")],
         {"op": "turn-start", "seat": 0})
    return run(st)


def h_setup_shuffle(st: dict, fr: dict) -> None:
    """Shuffle a deck nobody sees (Setup 5-6): deal the fifth Starter, build the
    Supply Deck, the Drop Deck (two per player plus two) and its Sudden Death card."""
    cards = st["setup"][fr["deck"]]
    if "answer" not in fr:
        ask_chance(st, {"kind": "shuffle", "size": len(cards), "deck": fr["deck"]}, [])
        return
    order = [cards[i] for i in fr["answer"]]
    n = st["players"]
    if fr["deck"] == "starter_pool":
        for seat in range(n):
            st["hands"][seat].append(order[seat])
    elif fr["deck"] == "supply":
        st["supply"] = order
    elif fr["deck"] == "drop":
        st["drop"] = order[:2 * n + 2]
    else:
        st["drop"].append(order[0])
    if fr["deck"] == "sudden_death":
        del st["setup"]
    done(st)


# --------------------------------------------------------------------------- the turn

def h_turn_start(st: dict, fr: dict) -> None:
    """Start a seat's turn: the eight steps of "A turn" as frames."""
    seat = fr["seat"]
    st["turn"] = {"seat": seat, "number": st["turn"]["number"] + 1, "worm": None,
                  "worm_hex": None, "hurt": False}
    st["target"] = None
    st["log"] = []
    if not B.worms_of(st, st["teams"][seat]):       # eliminated: no turn
        done(st, {"op": "pass"})
        return
    done(st, {"op": "activate"}, {"op": "move", "ways": ["inch", "jump"], "step": 3},
         {"op": "move", "ways": ["inch", "jump"], "step": 4}, {"op": "card"},
         {"op": "end-turn"}, {"op": "drop"}, {"op": "pass"})


def h_activate(st: dict, fr: dict) -> None:
    """1. Activate a worm (Supply Crate taken), 2. Heal it."""
    worms = B.worms_of(st, st["teams"][st["turn"]["seat"]])
    if "answer" not in fr and len(worms) > 1:
        ask_move(st, "activate", [{"move": "activate", "worm": w} for w in worms])
        return
    worm = fr["answer"]["worm"] if "answer" in fr else worms[0]
    t = st["things"][worm]
    st["turn"]["worm"], st["turn"]["worm_hex"] = worm, t["hex"]
    note(st, f"activate {worm}")
    crates = [{"op": "collect", "id": c, "seat": st["turn"]["seat"]}
              for c in B.things_in(st, t["hex"], ("crate",))]
    if t["damaged"]:
        t["damaged"] = False
        note(st, f"{worm} healed")
    done(st, *crates)


def active_worm(st: dict) -> str | None:
    """Return the active worm's id while it is on the map."""
    w = st["turn"]["worm"]
    return w if w in st["things"] else None


def move_options(st: dict, ways: list[str]) -> list[dict]:
    """Return the legal Inch / Jump moves of the active worm, then ``skip``."""
    here = Hex.parse(st["things"][st["turn"]["worm"]]["hex"])
    out = []
    if "inch" in ways:
        out += [{"move": "inch", "dir": d} for d in range(1, 7)
                if B.is_land(st, here.neighbor(d).key())]
    if "jump" in ways:
        out += [{"move": "jump", "to": [h.q, h.r]} for h in here.within(2)
                if h != here and B.is_land(st, h.key())]
    return out + [{"move": "skip"}]


def h_move(st: dict, fr: dict) -> None:
    """3./4. Inch or Jump (each optional), and the Movement symbol (Movement)."""
    worm = active_worm(st)
    if worm is None or st["turn"]["hurt"]:
        done(st)
        return
    if "answer" not in fr:
        ask_move(st, "move", move_options(st, fr["ways"]))
        return
    mv = fr["answer"]
    here = Hex.parse(st["things"][worm]["hex"])
    if mv["move"] == "inch":
        note(st, f"{worm} inches {mv['dir']}")
        done(st, *move_thing(st, worm, here.neighbor(mv["dir"]).key()))
    elif mv["move"] == "jump":
        note(st, f"{worm} jumps to {mv['to'][0]},{mv['to'][1]}")
        done(st, *move_thing(st, worm, Hex(*mv["to"]).key()),
             {"op": "scatter-thing", "id": worm, "knockback": False})
    else:
        done(st)


def play_options(st: dict, seat: int) -> list[dict]:
    """Return a "play" move per card name in hand (one per legal first target when the
    card's text starts with one), then ``skip``."""
    out = []
    for name in sorted({card_name(c) for c in st["hands"][seat]}):
        step = first_target(name)
        if step is None:
            out.append({"move": "play", "card": name})
        else:
            out += [dict(o, move="play", card=name) for o in target_options(st, step)]
    return out + [{"move": "skip"}]


def card_name(card: str) -> str:
    """Return the card id of a card instance (``s03-bazooka`` -> ``bazooka``)."""
    return card.split("-", 1)[1]


def h_card(st: dict, fr: dict) -> None:
    """5. Play a Weapon Card (also the Draw symbol and "Play another card")."""
    seat = st["turn"]["seat"]
    if st["turn"]["hurt"] or active_worm(st) is None or not st["hands"][seat]:
        done(st)
        return
    if "answer" not in fr:
        ask_move(st, "card", play_options(st, seat))
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
    done(st, {"op": "line", "card": card, "i": 0, "preset": preset})


def h_line(st: dict, fr: dict) -> None:
    """Read the Action Line left to right: Text, Movement, Draw (5. Play a Weapon
    Card); a worm Damaged on its own turn stops the line after the text (Damage)."""
    symbols = CARDS[card_name(fr["card"])]["line"]
    if fr["i"] >= len(symbols) or st["turn"]["hurt"]:
        st["discard"].append(fr["card"])
        done(st)
        return
    symbol = symbols[fr["i"]]
    fr["i"] += 1
    if symbol == "text":
        steps = [dict(s) for s in CARDS[card_name(fr["card"])]["steps"]]
        if fr["preset"] and steps:
            steps[0]["preset"] = fr["preset"]
            fr["preset"] = None
        push(st, {"op": "text", "steps": steps})
    elif symbol == "move":
        push(st, {"op": "move", "ways": ["inch", "jump"]})
    else:
        push(st, {"op": "card"})


def h_text(st: dict, fr: dict) -> None:
    """Resolve a card text in order, one keyword step at a time."""
    if not fr["steps"]:
        done(st)
        return
    step = fr["steps"].pop(0)
    push(st, dict(step, op="do-" + step["do"]))


def h_end_turn(st: dict, fr: dict) -> None:
    """6. End turn: no card of this set has an end-of-turn effect."""
    done(st)


def h_drop(st: dict, fr: dict) -> None:
    """7. Draw a Drop Card and resolve it; the last is the Sudden Death card, whose
    Drop text is resolved at every later Drop step (Draw a Drop Card)."""
    if st["sudden_death"] is not None:
        card = st["sudden_death"]
    elif st["drop"]:
        card = st["drop"].pop(0)
        if CARDS[card_name(card)]["deck"] == "sudden_death":
            st["sudden_death"] = card
    else:
        done(st)
        return
    note(st, f"drop {card_name(card)}")
    after = [] if card == st["sudden_death"] else [{"op": "discard", "card": card}]
    done(st, {"op": "text", "steps": [dict(s) for s in CARDS[card_name(card)]["steps"]]},
         *after)


def h_discard(st: dict, fr: dict) -> None:
    """Discard a fully resolved Drop Card (Draw a Drop Card)."""
    st["discard"].append(fr["card"])
    done(st)


def h_pass(st: dict, fr: dict) -> None:
    """8. Pass the Target Token; the end of the game (Elimination and Winning)."""
    n, seat = st["players"], st["turn"]["seat"]
    alive = [s for s in range(n) if B.worms_of(st, st["teams"][s])]
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


def finish(st: dict, reason: str) -> None:
    """End the game: most worms, then most undamaged worms, else a draw."""
    worms = [B.worms_of(st, t) for t in st["teams"]]
    scores = [len(w) for w in worms]
    healthy = [sum(1 for i in w if not st["things"][i]["damaged"]) for w in worms]
    st["over"] = {"scores": scores, "ranking": ranking_from_scores(scores, healthy),
                  "reason": reason,
                  "details": [{"team": st["teams"][s], "worms": scores[s],
                               "undamaged": healthy[s]} for s in range(st["players"])]}
    st["stack"] = []


# --------------------------------------------------------------------------- targets

def target_hexes(st: dict) -> list[str]:
    """Return the hexes the Target Token covers: its hex, and for an Air Strike the two
    next hexes in its direction (Target, Air Strike targets)."""
    tgt = st["target"]
    if tgt is None:
        return []
    if tgt.get("dir") is None:
        return [tgt["hex"]]
    h = Hex.parse(tgt["hex"])
    return [h.neighbor(tgt["dir"], k).key() for k in range(3)]


def target_options(st: dict, step: dict) -> list[dict]:
    """Return the legal ``{"at": [q, r]}`` (and ``"dir"``) answers of a target step."""
    board = B.board_hexes(st["dial"], st["radius"])
    if step["do"] == "air-strike":
        return [{"at": list(map(int, k.split(","))), "dir": d} for k in board for d in range(1, 7)]
    origin = Hex.parse(st["turn"]["worm_hex"])
    current = st["target"]["hex"] if st["target"] else None
    out = []
    for k in board:
        h = Hex.parse(k)
        if step["direct"] and not origin.is_direct(h):
            continue
        if step["within"] is not None and origin.distance(h) > step["within"]:
            continue
        if step["new"] and k == current:
            continue
        out.append({"at": [h.q, h.r]})
    return out


def set_target(st: dict, at: list[int], direction: int | None = None) -> None:
    """Place the Target Token."""
    st["target"] = {"hex": Hex(*at).key(), "dir": direction}
    note(st, f"target {at[0]},{at[1]}" + (f" dir {direction}" if direction else ""))


def h_target(st: dict, fr: dict) -> None:
    """Target a (New) (Direct) hex (within X), or an Air Strike (Target)."""
    if "preset" in fr and fr["preset"]:
        fr["answer"] = {"move": "target", **fr.pop("preset")}
    if "answer" not in fr:
        options = [dict(o, move="target") for o in target_options(st, fr)]
        if not options:
            st["target"] = None
            done(st)
            return
        ask_move(st, "target", options)
        return
    set_target(st, fr["answer"]["at"], fr["answer"].get("dir"))
    done(st)


def h_target_own(st: dict, fr: dict) -> None:
    """Target your Own hex."""
    set_target(st, list(map(int, st["turn"]["worm_hex"].split(","))))
    done(st)


def h_target_emptiest(st: dict, fr: dict) -> None:
    """Target the Emptiest hex; the active player breaks ties (Emptiest)."""
    if "answer" not in fr:
        ties = B.emptiest(st)
        if len(ties) > 1:
            ask_move(st, "target", [{"move": "target", "at": list(map(int, k.split(",")))}
                                    for k in ties])
            return
        if not ties:
            st["target"] = None
            done(st)
            return
        fr["answer"] = {"at": list(map(int, ties[0].split(",")))}
    set_target(st, fr["answer"]["at"])
    done(st)


def h_accuracy(st: dict, fr: dict) -> None:
    """Accuracy X: X less the distance beyond adjacent (never below 1, phantom Water
    counted); roll that many dice, the player picks one; move the target (Accuracy X)."""
    if st["target"] is None:
        done(st)
        return
    if "rolled" not in fr:
        if "answer" not in fr:
            dist = Hex.parse(st["turn"]["worm_hex"]).distance(Hex.parse(st["target"]["hex"]))
            ask_dice(st, accuracy_dice(fr["x"], dist), "accuracy")
            return
        fr["rolled"] = [B.face_label(o) for o in fr.pop("answer")]
        note(st, f"accuracy dice {fr['rolled']}")
    faces = list(dict.fromkeys(fr["rolled"]))
    if len(faces) > 1 and "answer" not in fr:
        ask_move(st, "pick", [{"move": "pick", "die": f} for f in faces], rolled=fr["rolled"])
        return
    chosen = fr["answer"]["die"] if "answer" in fr else faces[0]
    move_target(st, B.direction_of(st, chosen))
    done(st)


def accuracy_dice(x: int, distance: int) -> int:
    """Return how many dice Accuracy ``x`` rolls at ``distance`` from the worm."""
    return max(1, x - max(0, distance - 1))


def move_target(st: dict, direction: int | None) -> None:
    """Move the Target Token one hex (its Air Strike direction is kept)."""
    if direction is not None and st["target"] is not None:
        st["target"]["hex"] = Hex.parse(st["target"]["hex"]).neighbor(direction).key()
        note(st, f"target moves {direction} to {st['target']['hex']}")


def h_scatter(st: dict, fr: dict) -> None:
    """Scatter the target (Scatter)."""
    if st["target"] is None:
        done(st)
        return
    if "answer" not in fr:
        ask_dice(st, 1, "scatter")
        return
    move_target(st, B.direction_of(st, B.face_label(fr["answer"][0])))
    done(st)


# --------------------------------------------------------------------------- effects

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
    done(st, order_frame("worms", {w: [{"op": "blast-worm", "id": w, "hex": key}] for w in worms}),
         order_frame("things", {t: [{"op": "damage-thing", "id": t, "hex": key}] for t in others}),
         {"op": "settle"})


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
        follow += move_thing(st, fr["id"], Hex.parse(key_of(st, fr["id"])).neighbor(direction).key())
    done(st, *follow)


def key_of(st: dict, thing: str) -> str:
    """Return the hex of a Thing."""
    return st["things"][thing]["hex"]


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


def damage_all(st: dict, ids: list[str]) -> list[dict]:
    """Damage several Things at once; return the frames ordering what they set off."""
    effects = {}
    for i in ids:
        if i in st["things"]:
            follow = damage(st, i)
            if follow:
                effects[i] = follow
    return [order_frame("effects", effects), {"op": "settle"}] if effects else []


def damage(st: dict, thing: str) -> list[dict]:
    """Damage a Thing now; return the frames of what follows (Damage)."""
    t = st["things"][thing]
    kind = t["kind"]
    if kind == "worm":
        if thing == st["turn"]["worm"]:
            st["turn"]["hurt"] = True
        if t["damaged"]:
            destroy(st, thing)
            note(st, f"{thing} destroyed")
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
        if not B.worms_of(st, t["team"]):
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
        frames.append(order_frame("worms", {w: [{"op": "scatter-thing", "id": w,
                                                   "knockback": True}] for w in worms}))
    done(st, *frames)


def h_scatter_thing(st: dict, fr: dict) -> None:
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
            ask_move(st, "direction", [{"move": "direction", "dir": d} for d in range(1, 7)],
                     thing=fr["id"])
            return
        direction = fr["answer"]["dir"]
    if direction is None:
        done(st)
        return
    done(st, *move_thing(st, fr["id"], here.neighbor(direction).key()))


def h_move_to_target(st: dict, fr: dict) -> None:
    """Move your worm to the target (no Scatter)."""
    worm = active_worm(st)
    if worm is None or st["target"] is None:
        done(st)
        return
    done(st, *move_thing(st, worm, st["target"]["hex"]))


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


def h_play_another(st: dict, fr: dict) -> None:
    """Play another card."""
    done(st, {"op": "card"})


# --------------------------------------------------------------------------- moving

def move_thing(st: dict, thing: str, key: str) -> list[dict]:
    """Move a Thing into a hex: Water sinks it (Water hex); else return the frame that
    resolves what it finds there."""
    if thing == st["turn"]["worm"]:
        st["turn"]["worm_hex"] = key
    if not B.is_land(st, key):
        destroy(st, thing)
        note(st, f"{thing} sinks at {key}")
        return []
    st["things"][thing]["hex"] = key
    return [{"op": "enter", "id": thing, "hex": key}]


def h_enter(st: dict, fr: dict) -> None:
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
            effects[other] = [{"op": "collect", "id": other,
                               "seat": B.seat_of_team(st, t["team"])}]
        elif t["kind"] == "worm" and kind == "mine":
            effects[other] = [{"op": "mine", "id": other, "hex": key}]
    if t["kind"] == "mine" and B.things_in(st, key, ("worm",)):
        effects[fr["id"]] = [{"op": "mine", "id": fr["id"], "hex": key}]
    done(st, order_frame("effects", effects), {"op": "settle"})


def h_collect(st: dict, fr: dict) -> None:
    """Supply Crate: remove it, its worm's player draws a Supply card (Supply Crate)."""
    if fr["id"] not in st["things"]:
        done(st)
        return
    destroy(st, fr["id"])
    if st["supply"]:
        st["hands"][fr["seat"]].append(st["supply"].pop(0))
    note(st, f"{st['teams'][fr['seat']]} takes a Supply Crate")
    done(st)


def h_mine(st: dict, fr: dict) -> None:
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


def h_fire(st: dict, fr: dict) -> None:
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


def h_settle(st: dict, fr: dict) -> None:
    """Full hex: four or more Things -> prod a worm there (Knockback Scatter); with no
    worm the player may prod a non-Crater Thing (Fire is immoveable) (Full hex)."""
    declined = fr.setdefault("declined", [])
    if "answer" in fr:
        mv = fr.pop("answer")
        if mv["move"] == "skip":
            declined.append(fr.pop("hex"))
        else:
            done(st, {"op": "scatter-thing", "id": mv["id"], "knockback": True},
                 {"op": "settle", "declined": declined})
            return
    for key in B.full_hexes(st):
        if key in declined:
            continue
        worms = B.things_in(st, key, ("worm",))
        if len(worms) == 1:
            done(st, {"op": "scatter-thing", "id": worms[0], "knockback": True},
                  {"op": "settle", "declined": declined})
            return
        options = [{"move": "prod", "id": w} for w in worms]
        if not worms:
            options = [{"move": "prod", "id": t}
                       for t in B.things_in(st, key, ("drum", "crate", "mine"))]
            if not options:
                declined.append(key)
                continue
            options.append({"move": "skip"})
        fr["hex"] = key
        ask_move(st, "prod", options, hex=key)
        return
    done(st)


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
        ask_move(st, "order", [{"move": "order", "what": fr["what"], "ids": list(p)}
                               for p in permutations(ids)])
        return
    done(st, *[f for i in ids for f in fr["items"][i]])


HANDLERS = {
    "setup-shuffle": h_setup_shuffle, "turn-start": h_turn_start, "activate": h_activate,
    "move": h_move, "card": h_card, "line": h_line, "text": h_text,
    "end-turn": h_end_turn, "drop": h_drop, "discard": h_discard, "pass": h_pass,
    "do-target": h_target, "do-air-strike": h_target, "do-target-own": h_target_own,
    "do-target-emptiest": h_target_emptiest, "do-accuracy": h_accuracy,
    "do-scatter": h_scatter, "do-blast": h_blast, "do-damage": h_damage,
    "do-damage-worms": h_damage_worms, "do-knockback": h_knockback, "do-place": h_place,
    "do-remove-crater": h_remove_crater, "do-move": h_move,
    "do-move-to-target": h_move_to_target, "do-change-wind": h_change_wind,
    "do-play-another": h_play_another,
    "blast-hex": h_blast_hex, "blast-worm": h_blast_worm, "damage-thing": h_damage_thing,
    "explode": h_explode, "place-fires": h_place_fires, "scatter-thing": h_scatter_thing,
    "enter": h_enter, "collect": h_collect, "mine": h_mine, "fire": h_fire,
    "settle": h_settle, "order": h_order,
}
