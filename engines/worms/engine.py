"""Worms: The Board Game as an arbiter engine (the contract in engines/base.py).

The rules live in ``rules/`` (a state machine over pending steps, whose handlers are
methods of :class:`engines.worms.rules.Rules`), the map and Things in ``board.py``, cards
in ``cards.py`` + ``data/cards.json``, the notation in ``notation.py``. This module is the
adapter: prompts, legal moves, checking a move (with stable codes), chance outcomes,
views, timeouts, mail text. The older rules versions are in ``versions.py``.

A card's steps are resolved alike (rulebook, "5. Play a Weapon Card": "resolving each
symbol in order"): a target step with no legal hex is skipped wherever it stands, so a
card whose first target has none is still offered, played without ``at``, and its later
steps resolve (``docs/games/worms.md``, decision 21; version 4 and older did not offer it).
"""

from __future__ import annotations

from engines import move_parts
from engines.base import (
    BadOutcome,
    Chance,
    Decision,
    Engine,
    IllegalMove,
    Over,
    Prompt,
    clone,
    shown,
)
from engines.hexgrid import Hex
from engines.worms import board as B
from engines.worms import (
    board_svg,
    board_words,
    determinize,
    move_words,
    notation,
    outcome_words,
    rules,
)
from engines.worms import options as options_v4
from engines.worms.copying import answered_copy
from engines.worms.rules import Rules
from engines.worms.rules.setup import place_error, tile_error
from engines.worms.rules.targets import target_error

VERBS = {
    "activate": {"activate"},
    "move": {"inch", "jump", "skip"},
    "card": {"play", "skip"},
    "target": {"target"},
    "pick": {"pick"},
    "order": {"order"},
    "prod": {"prod", "skip"},
    "direction": {"direction"},
    "tile": {"tile"},
    "place": {"place"},
    "draft": {"choose"},
}
"""Decision kind -> the move verbs that answer it."""


class WormsEngine(Rules, Engine):
    """Worms: The Board Game: the engine contract over the rules it inherits
    (:class:`engines.worms.rules.Rules`)."""

    id = "worms"
    title = "Worms: The Board Game"
    version = "5"
    min_players = 2
    max_players = 4
    options_schema = options_v4.WormsOptions
    notation = notation.HELP
    how_to_win = (
        "Each turn pick one of your worms, move it, then play a Weapon Card at the other "
        "teams' worms. A team with no worm left is eliminated; that starts the final "
        "round. The team with the most worms standing wins (ties: the most undamaged)."
    )

    # -- the rules -------------------------------------------------------------------
    def load_options(self, players: int, options) -> dict:
        """Validate the options (see :mod:`engines.worms.options`) against each other
        and the player count.

        :raises InvalidOptions: ``bad-player-count``, ``bad-options`` (a wrong type or
            range, an unknown option, ``youngest`` not a seat), ``contradictory-options``.
        """
        return options_v4.check(super().load_options(players, options), players)

    def setup(self, players: int, options) -> dict:
        """Return the start state (standard or first-game setup), stopped at its first
        decision (a Map Tile) or hidden shuffle."""
        return self.new_state(
            players, options_v4.rules_options(self.load_options(players, options))
        )

    def prompt(self, state: dict) -> Prompt:
        """Return the Decision, Chance or Over the game waits for."""
        if state["over"] is not None:
            return Over(state["over"])
        ask = state["ask"]
        if ask["type"] == "chance":
            vis = ask["visible_to"]
            return Chance(ask["spec"], None if vis is None else tuple(vis))
        return Decision(
            (ask["seat"],), ask["kind"], bool(ask.get("private")), rules.turn_clock(state)
        )

    def legal_moves(self, state: dict, seat: int) -> list:
        """Return the pending decision's answers if ``seat`` owes it, else ``[]``."""
        ask = state["ask"]
        if state["over"] is None and ask and ask["type"] == "decision" and ask["seat"] == seat:
            return clone(ask["options"])
        return []

    def legal_parts(self, state: dict, seat: int) -> dict | None:
        """Return a decision of more than 40 moves by its parts (an Air Strike's hexes
        and directions, the Map Tile anchors, the setup's Things and hexes)."""
        return move_parts.compress(self.legal_moves(state, seat))

    def play(self, state: dict, seat: int, move) -> dict:
        """Apply a decision.

        :raises InvalidMove: ``bad-move``.
        :raises IllegalMove: ``game-over``, ``awaiting-chance``, ``not-your-turn``,
            ``not-your-worm``, ``into-water``, ``off-the-map``, ``jump-too-far``,
            ``not-direct``, ``out-of-range``, ``not-new``, ``no-such-die``,
            ``card-not-in-hand``, ``not-in-hex``, ``not-now``, ``not-a-choice``.
        """
        self.check_turn(state, seat)
        notation.check(move)
        if move not in state["ask"]["options"]:
            raise self.diagnose(state, seat, move)
        if move == rules.TIME_UP:
            return self.time_up(answered_copy(state))
        return self.answer(answered_copy(state), move)

    def resolve(self, state: dict, outcome) -> dict:
        """Apply a chance outcome.

        :raises BadOutcome: the game does not wait for chance, or the outcome misfits.
        """
        ask = state["ask"]
        if state["over"] is not None or not ask or ask["type"] != "chance":
            raise BadOutcome("not-awaiting-chance", "The game is not waiting for chance.")
        spec = ask["spec"]
        ok = isinstance(outcome, list) and all(type(x) is int for x in outcome)
        if ok and spec["kind"] == "dice":
            ok = len(outcome) == len(spec["faces"]) and all(
                1 <= x <= f for x, f in zip(outcome, spec["faces"])
            )
        elif ok:
            ok = sorted(outcome) == list(range(spec["size"]))
        if not ok:
            raise BadOutcome("bad-outcome", f"Expected {expected(spec)}, not {shown(outcome)}.")
        return self.answer(answered_copy(state), list(outcome))

    def view(self, state: dict, seat: int | None) -> dict:
        """Return the map, Things, wind, target, turn and log (public), the seat's own
        hand, every hand's size; decks and other hands stay hidden until the end."""
        over = state["over"] is not None
        ask = state["ask"]
        prompt = None
        if ask and not over:
            prompt = {"type": ask["type"]}
            if ask["type"] == "chance":
                prompt["for"] = ask["spec"].get("for") or ask["spec"].get("deck")
            else:
                prompt.update(seat=ask["seat"], kind=ask["kind"])
                for key in ("rolled", "hex", "thing"):
                    if key in ask:
                        prompt[key] = ask[key]
        teams = list(state["teams"])
        if not state.get("started"):  # Select: only one's own Reference Card
            teams = [t if s == seat else None for s, t in enumerate(teams)]
        out = {
            "engine": self.id,
            "players": state["players"],
            "teams": teams,
            "seat": seat,
            "team": teams[seat] if seat is not None and teams else None,
            "options": state["options"],
            "map": {"dial": state["dial"], "radius": state["radius"], "land": state["land"]},
            "wind": state["wind"],
            "target": state["target"],
            "things": [dict(t, id=i) for i, t in sorted(state["things"].items())],
            "pool": state["pool"],
            "turn": state["turn"] if state.get("started") else dict(state["turn"], seat=None),
            "prompt": prompt,
            "setup": _setup_view(state),
            "hand_sizes": [len(h) for h in state["hands"]],
            "decks": {"supply": len(state["supply"]), "drop": len(state["drop"])},
            "sudden_death": (
                rules.card_name(state["sudden_death"]) if state["sudden_death"] else None
            ),
            "discard": [rules.card_name(c) for c in state["discard"]],
            "end_triggered": state["end_triggered"],
            "final_round": state["final"],
            "log": state["log"],
            "over": state["over"],
            "machine": _machine(state),
        }
        if seat is not None and "setup" not in state:
            out["hand"] = [self.card_view(c) for c in state["hands"][seat]]
        if seat is not None and "setup" in state and "draft" in state["setup"]:
            out["draft"] = [self.card_view(c) for c in state["setup"]["draft"][seat]]
        if over:
            out["hands"] = [[self.card_view(c) for c in h] for h in state["hands"]]
            out["decks"].update(supply_cards=state["supply"], drop_cards=state["drop"])
        return clone(out)

    def unseen(self, view: dict, seat: int) -> dict[str, list[str]]:
        """Return the card instances ``seat`` has not seen, by deck (``supply``,
        ``drop``, ``sudden_death``, ``starter_pool``); nothing during the setup
        (:meth:`engines.base.Engine.unseen`; ``determinize.py``)."""
        return determinize.unseen(self, view, seat)

    def complete(self, view: dict, seat: int, dealt) -> dict:
        """Return a state ``seat``'s view could come from, the other hands and the decks
        dealt from ``dealt`` (:meth:`engines.base.Engine.complete`; ``determinize.py``).

        :raises NotImplementedError: during the setup (the bot then plays without search).
        """
        return determinize.complete(self, view, seat, dealt)

    def reference(self) -> dict:
        """Return the card list (every card: deck, copies, Superweapon, Action Line,
        text, whether it is sourced), the counts of Things in the box and the option
        pairs refused together (``contradictory-options``) with the reason."""
        return {
            "cards": self.cards.catalogue(),
            "things": dict(self.box),
            "contradicting_options": [
                {"options": list(names), "why": why} for names, _, why in options_v4.CONTRADICTIONS
            ],
        }

    def board_svg(self, view: dict) -> str:
        """Return the map of a view as SVG (hexes, Water, Things, worms, Target, wind)."""
        return board_svg.render(view)

    def revealed_words(self, state: dict) -> list[str]:
        """Return the Weapon cards each seat still held at the end (hidden while the
        game ran)."""
        hands = state.get("hands") or []
        return [
            f"Seat {s} held: {', '.join(rules.card_name(c) for c in hand) or 'no cards'}."
            for s, hand in enumerate(hands)
        ]

    def result_words(self, result) -> list[str]:
        """Return why the game ended and each team's worms standing and undamaged
        (rules/worms.md, "Elimination and Winning")."""
        reason = str(result.get("reason") or "the game ended").replace("-", " ")
        lines = [reason[:1].upper() + reason[1:] + "."]
        for s, d in enumerate(result.get("details") or []):
            lines.append(
                f"Seat {s} ({str(d['team']).title()}): {d['worms']} worms standing, "
                f"{d['undamaged']} undamaged."
            )
        return lines

    def board_targets(self, view: dict, move) -> list[str]:
        """Return the places clicked to make ``move`` (a tile, a worm, a card, a hex)."""
        return board_svg.targets(view, move)

    def board_preview(self, view: dict, move) -> dict | None:
        """Return the Map Tile drawn at its place, in its turn, while a tile placement
        is chosen (:func:`board_svg.preview`); None for other moves."""
        return board_svg.preview(view, move)

    def move_words(self, move, past: bool = True) -> str:
        """Return a move as a person says it (``jumped to 3,-1``)."""
        return move_words.words(move, past)

    def board_text(self, view: dict) -> list[str]:
        """Return the map of a view in words, the picture's text alternative."""
        return board_words.words(view)

    def secrets(self, state: dict, seat: int) -> list[str]:
        """Return the hidden values ``seat`` holds (its card instance ids); no other
        seat's view may contain them while the game runs."""
        if "setup" in state:
            return list(state["setup"].get("draft", [[]] * (seat + 1))[seat])
        return list(state["hands"][seat])

    def hidden(self, state: dict) -> list[str]:
        """Return the values nobody may see while the game runs (deck cards)."""
        setup = state.get("setup", {})
        held = [c for d in setup.values() if isinstance(d, list) for c in d if isinstance(c, str)]
        if "draft" in setup:
            held = [c for c in held if not any(c in d for d in setup["draft"])]
        return held + state["supply"] + state["drop"]

    # -- deadlines and text ------------------------------------------------------------
    def timeout_move(self, state: dict, seat: int):
        """Return a safe answer: skip moves and cards, never a Water direction when
        another exists, the first option otherwise.

        :raises IllegalMove: ``not-your-turn`` (and ``game-over``, ``awaiting-chance``).
        """
        self.check_turn(state, seat)
        ask = state["ask"]
        options = ask["options"]
        if rules.TIME_UP in options:
            return dict(rules.TIME_UP)
        if {"move": "skip"} in options:
            return {"move": "skip"}
        if ask["kind"] == "direction":
            here = Hex.parse(state["things"][ask["thing"]]["hex"])
            for o in options:
                k = here.neighbor(o["dir"]).key()
                if B.is_land(state, k) and B.count_in(state, k) < 3:
                    return o
            for o in options:
                if B.is_land(state, here.neighbor(o["dir"]).key()):
                    return o
        if ask["kind"] == "target":
            mine = {state["things"][w]["hex"] for w in B.worms_of(state, state["teams"][seat])}
            for o in options:
                if Hex(*o["at"]).key() not in mine:
                    return o
        if ask["kind"] == "pick":
            return (
                {"move": "pick", "die": "bullseye"}
                if {"move": "pick", "die": "bullseye"} in options
                else options[0]
            )
        return options[0]

    def parse(self, text: str, state: dict, seat: int):
        """Read a move in notation (see :mod:`engines.worms.notation`)."""
        return notation.parse(text)

    def describe(self, move) -> str:
        """Return a move in notation."""
        return notation.describe(move)

    def brief(self, state: dict, seat: int) -> str:
        """Return what ``seat`` decides now, for a "your turn" mail."""
        ask = state["ask"]
        if state["over"] is not None or not ask or ask["type"] != "decision" or ask["seat"] != seat:
            return "Nothing to decide now."
        turn = state["turn"]
        worm = turn["worm"]
        if turn["number"] == 0:
            return f"Setup: decide ({ask['kind']}) among {len(ask['options'])} choices."
        where = f", worm {worm} at {turn['worm_hex']}" if worm else ""
        hand = ", ".join(rules.card_name(c) for c in state["hands"][seat])
        lines = [
            f"Turn {turn['number']}: you are {state['teams'][seat].title()}{where}; "
            f"wind {state['wind']}.",
            f"Hand: {hand or 'empty'}.",
            f"Decide ({ask['kind']}) among {len(ask['options'])} choices.",
        ]
        if "rolled" in ask:
            lines.insert(1, f"Accuracy dice: {', '.join(map(str, ask['rolled']))}.")
        timer = rules.turn_clock(state)
        if timer:
            lines.append(
                f"Timer: this turn must reach End turn within {timer['seconds']} "
                "seconds of its first decision (the deadline above); then it "
                "jumps to End turn ('time-up' ends it now)."
            )
        return "\n".join(lines)

    def describe_outcome(self, spec, outcome) -> str:
        """Return a chance outcome as text (die faces by name, flips, shuffles)."""
        if spec.get("kind") == "shuffle":
            return f"shuffle of {spec.get('size')} ({spec.get('deck', 'deck')})"
        if spec.get("faces") == [B.FLIPPER_FACES]:
            return f"{spec.get('for', 'flipper')}: {B.FLIPPER_RESULTS[outcome[0] - 1]}"
        return f"{spec.get('for', 'dice')}: " + ", ".join(B.face(o) for o in outcome)

    def outcome_words(self, spec, outcome) -> str | None:
        """Return a roll, flip or shuffle in the rulebook's words (rules/worms.md,
        "Dice", "Danger Flipper", "Scatter", "Wind"): e.g. "The die to Scatter shows
        direction 5." (see :mod:`engines.worms.outcome_words`)."""
        return outcome_words.words(spec, outcome)

    def card_view(self, card: str) -> dict:
        """Return a card instance as shown to the seat that holds it."""
        data = self.cards[rules.card_name(card)]
        return {
            "id": card,
            "card": data["id"],
            "name": data["name"],
            "line": data["line"],
            "text": data["text"],
            "super": data["super"],
        }

    def move_error(self, state: dict, verb: str, here: Hex, dest: Hex) -> IllegalMove | None:
        """Return why an Inch or Jump from ``here`` to ``dest`` is refused, or None."""
        if verb == "jump" and here.distance(dest) > 2:
            return IllegalMove("jump-too-far", "Jump to a hex within two hexes.")
        if not B.on_board(state, dest.key()):
            return IllegalMove("off-the-map", f"{dest.key()} is off the map.")
        if verb == "inch" and not B.is_land(state, dest.key()):
            return IllegalMove("into-water", f"{dest.key()} is a Water hex.")
        return None

    def diagnose(self, state: dict, seat: int, move: dict) -> IllegalMove:
        """Return the IllegalMove (stable code) explaining why ``move`` is not legal now."""
        ask, verb = state["ask"], move["move"]
        if verb == "time-up":
            return IllegalMove(
                "no-timer",
                "The Timer is not running now (no Timer in this game, or this step is past it).",
            )
        if verb not in VERBS[ask["kind"]]:
            kind = ask["kind"]
            article = "an" if kind[0] in "aeiou" else "a"
            return IllegalMove(
                "not-now",
                f"The game asks for {article} {kind} decision, not '{notation.describe(move)}'.",
            )
        things = state["things"]
        if verb == "activate":
            return IllegalMove("not-your-worm", f"{move['worm']} is not one of your worms.")
        if verb in ("inch", "jump"):
            here = Hex.parse(things[state["turn"]["worm"]]["hex"])
            dest = here.neighbor(move["dir"]) if verb == "inch" else Hex(*move["to"])
            err = self.move_error(state, verb, here, dest)
            if err:
                return err
        if verb == "play":
            names = {rules.card_name(c) for c in state["hands"][seat]}
            if move["card"] not in names:
                return IllegalMove("card-not-in-hand", f"You hold no {move['card']}.")
            step = self.cards.first_target(move["card"])
            if (step is None) != ("at" not in move):
                return IllegalMove(
                    "not-a-choice",
                    "Give 'at q,r' exactly when the card's text starts with a target that "
                    "has a legal hex now.",
                )
            err = _at_error(state, step, move["at"]) if step else None
            if err:
                return err
        if verb == "target":
            frame = state["stack"][-1]
            err = (
                _at_error(state, frame, move["at"])
                if frame["op"] in ("do-target", "do-air-strike")
                else None
            )
            if err:
                return err
        if verb == "pick":
            rolled = ", ".join(map(str, ask.get("rolled", [])))
            return IllegalMove(
                "no-such-die", f"No die shows {move['die']}; the dice show {rolled}."
            )
        if verb == "tile":
            err = tile_error(state, move["tile"], move["at"], move["rot"])
            if err:
                return IllegalMove(*err)
        if verb == "place":
            err = place_error(state, move["thing"], Hex(*move["at"]).key())
            if err:
                return IllegalMove(*err)
        if verb == "choose":
            return IllegalMove(
                "not-dealt", f"{move['card']} is not among the Sudden Death cards dealt to you."
            )
        if verb in ("order", "prod"):
            return IllegalMove(
                "not-in-hex", "Name exactly the Things of that hex (order: each once)."
            )
        return IllegalMove(
            "not-a-choice", f"'{notation.describe(move)}' is not one of the choices now."
        )


MACHINE_KEYS = ("v", "started", "stack", "next_id", "rules", "tiles_left", "pile")
"""The state's keys that the view shows only inside ``machine`` (those a state has)."""


def _machine(state: dict) -> dict:
    """Return the public rest of the state, from which the search bots rebuild it
    (``determinize.py``): the rules' pending steps (they name only cards already
    played), the discard and the Sudden Death card by instance, the counters, and a
    pending chance (a decision is asked again from the steps)."""
    ask = state["ask"]
    return {
        "in_setup": "setup" in state,
        "rest": {k: state[k] for k in MACHINE_KEYS if k in state},
        "discard_cards": state["discard"],
        "sudden_death_card": state["sudden_death"],
        "chance": ask if ask and ask["type"] == "chance" else None,
    }


def _setup_view(state: dict) -> dict | None:
    """Return the public part of a standard setup in progress: tiles and Things left."""
    if state.get("started") or "pile" not in state:
        return None
    return {"tiles_left": state["tiles_left"], "pile": state["pile"]}


def expected(spec: dict) -> str:
    """Return what outcome a chance spec asks for, in words."""
    if spec["kind"] == "dice":
        n, faces = len(spec["faces"]), spec["faces"][0]
        return f"1 die from 1 to {faces}" if n == 1 else f"{n} dice, each from 1 to {faces}"
    return f"a shuffle of {spec['size']}: each of 0 to {spec['size'] - 1} once"


def _at_error(state: dict, step: dict, at) -> IllegalMove | None:
    """Return why a target hex breaks a target step, or None."""
    err = target_error(state, step, Hex(*at).key())
    return IllegalMove(*err) if err else None
