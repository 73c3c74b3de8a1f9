"""The Worms rules as a state machine over a stack of pending steps.

The state holds ``stack``: a list of *frames* (plain dicts, the top is the last
item). :meth:`Rules.run` resolves the top frame again and again; a frame's handler either
finishes (pops itself, maybe pushing the steps it causes) or stops the machine by
setting ``state["ask"]``: a Chance (dice, the Danger Flipper, a shuffle) or a Decision
for the active player, with the list of legal answers. ``play`` / ``resolve`` store
the answer in the top frame as ``answer`` and run again. So any step (Accuracy inside
a card text, a Blast inside an Oil Drum inside a Mine ...) can stop for chance or a
choice and carry on afterwards, and the whole game stays a fold of its inputs.

Rulebook sections are cited as (Section) in the docstrings.

The package, by concept: ``frames.py`` (the stack and its asks, ordering simultaneous
items), ``things.py`` (moving, Damaging, Destroying a Thing), ``turn.py`` (setup, the
steps of a turn, playing cards, the Drop Card, the end), ``targets.py`` (the Target
Token, Accuracy, Scatter), ``effects.py`` (Blast, Damage, Oil Drums, Place ...) and
``moving.py`` (what a moving Thing sets off: Crates, Mines, Fire, full hexes), and
``setup.py`` (the standard and first-game setups, the decks). Each module's handlers are
the methods of a mixin class; this module is the machine: the handler table and
:class:`Rules`, which joins the mixins with :meth:`Rules.run`, :meth:`Rules.answer` and
:meth:`Rules.new_state`. The engine class is a :class:`Rules`: an older rules version is
a subclass that overrides the methods and constants it played differently
(``engines/worms/versions.py``; :mod:`engines.base`, "Rules versions").
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.worms import board as B
from engines.worms.cards import DEFAULT, CardSet
from engines.worms.rules.effects import Effects
from engines.worms.rules.frames import ORDER_LIMIT, TIME_UP, Frames, note, turn_clock
from engines.worms.rules.moving import Moving
from engines.worms.rules.setup import Setup
from engines.worms.rules.targets import Targets, accuracy_dice
from engines.worms.rules.things import Things
from engines.worms.rules.turn import Turn, card_name, finish

__all__ = [
    "HANDLERS",
    "ORDER_LIMIT",
    "TIME_UP",
    "Rules",
    "accuracy_dice",
    "card_name",
    "finish",
    "turn_clock",
]

HANDLERS = {
    "setup-shuffle": "h_setup_shuffle",
    "turn-start": "h_turn_start",
    "place-tile": "h_place_tile",
    "place-thing": "h_place_thing",
    "select": "h_select",
    "first-player": "h_first_player",
    "draft": "h_draft",
    "activate": "h_activate",
    "move": "h_move",
    "card": "h_card",
    "line": "h_line",
    "text": "h_text",
    "end-turn": "h_end_turn",
    "drop": "h_drop",
    "discard": "h_discard",
    "pass": "h_pass",
    "do-target": "h_target",
    "do-air-strike": "h_target",
    "do-target-own": "h_target_own",
    "do-target-emptiest": "h_target_emptiest",
    "do-accuracy": "h_accuracy",
    "do-scatter": "h_scatter",
    "do-blast": "h_blast",
    "do-damage": "h_damage",
    "do-damage-worms": "h_damage_worms",
    "do-knockback": "h_knockback",
    "do-place": "h_place",
    "do-remove-crater": "h_remove_crater",
    "do-move": "h_move",
    "do-move-to-target": "h_move_to_target",
    "do-change-wind": "h_change_wind",
    "do-play-another": "h_play_another",
    "blast-hex": "h_blast_hex",
    "blast-thing": "h_blast_thing",
    "damage-hex": "h_damage_hex",
    "place-hex": "h_place_hex",
    "explode": "h_explode",
    "place-fires": "h_place_fires",
    "scatter-thing": "h_scatter_thing",
    "enter": "h_enter",
    "collect": "h_collect",
    "mine": "h_mine",
    "fire": "h_fire",
    "settle": "h_settle",
    "order": "h_order",
    "do-draw": "h_draw",
    "do-at-end-turn": "h_at_end_turn",
    "sentries": "h_sentries",
    "reshuffle-drop": "h_reshuffle_drop",
}
"""Frame op -> the name of its handler method ``(state, frame) -> None``; ``do-<keyword>``
frames are the steps of card texts (``cards.GRAMMAR``)."""


class Rules(Setup, Turn, Targets, Effects, Moving, Things, Frames):
    """The Worms rules: every frame handler, the machine that runs them, and the data
    they read (the cards, the Things in the box); older rules versions override them."""

    cards: CardSet = DEFAULT
    """The cards of the game (``data/cards.json``)."""
    box: Mapping[str, int] = B.BOX
    """The Things in the box: the pool Place draws from (rulebook, Components)."""
    handlers: Mapping[str, str] = HANDLERS
    """Frame op -> the name of its handler method."""

    def run(self, st: dict) -> dict:
        """Resolve frames until the game needs an input or is over; return ``st``."""
        while st["ask"] is None and st["over"] is None:
            frame = st["stack"][-1]
            getattr(self, self.handlers[frame["op"]])(st, frame)
        return st

    def time_up(self, st: dict) -> dict:
        """Timer: the turn's time ran out (or the player ends it): "their turn immediately
        Jumps to step 6 ... If a card has been played and any text is still being
        resolved, the player can complete it, but must then immediately proceed to step
        6" (Timer). The pending step is asked again, without the Timer, or skipped."""
        st["turn"]["time_up"] = True
        st["ask"] = None
        note(st, "time is up")
        return self.run(st)

    def answer(self, st: dict, value) -> dict:
        """Give the pending ask its answer and run on."""
        st["ask"] = None
        st["stack"][-1]["answer"] = value
        return self.run(st)

    def new_state(self, players: int, options: dict) -> dict:
        """Return the start state (standard setup or first game, ``options["setup"]``),
        stopped at its first decision or chance."""
        return self.run(self.start_state(players, options))
