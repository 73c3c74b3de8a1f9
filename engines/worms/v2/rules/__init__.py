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

The package, by concept: ``frames.py`` (the stack and its asks, ordering simultaneous
items), ``things.py`` (moving, Damaging, Destroying a Thing), ``turn.py`` (setup, the
steps of a turn, playing cards, the Drop Card, the end), ``targets.py`` (the Target
Token, Accuracy, Scatter), ``effects.py`` (Blast, Damage, Oil Drums, Place ...) and
``moving.py`` (what a moving Thing sets off: Crates, Mines, Fire, full hexes). This
module is the machine: the handler table, :func:`run`, :func:`answer`,
:func:`new_state`.
"""

from __future__ import annotations

from engines.worms.v2.rules import effects, frames, moving, targets, turn
from engines.worms.v2.rules.frames import ORDER_LIMIT
from engines.worms.v2.rules.targets import accuracy_dice
from engines.worms.v2.rules.turn import card_name, finish

__all__ = [
    "HANDLERS",
    "ORDER_LIMIT",
    "accuracy_dice",
    "answer",
    "card_name",
    "finish",
    "new_state",
    "run",
]

HANDLERS = {
    "setup-shuffle": turn.h_setup_shuffle,
    "turn-start": turn.h_turn_start,
    "activate": turn.h_activate,
    "move": turn.h_move,
    "card": turn.h_card,
    "line": turn.h_line,
    "text": turn.h_text,
    "end-turn": turn.h_end_turn,
    "drop": turn.h_drop,
    "discard": turn.h_discard,
    "pass": turn.h_pass,
    "do-target": targets.h_target,
    "do-air-strike": targets.h_target,
    "do-target-own": targets.h_target_own,
    "do-target-emptiest": targets.h_target_emptiest,
    "do-accuracy": targets.h_accuracy,
    "do-scatter": targets.h_scatter,
    "do-blast": effects.h_blast,
    "do-damage": effects.h_damage,
    "do-damage-worms": effects.h_damage_worms,
    "do-knockback": effects.h_knockback,
    "do-place": effects.h_place,
    "do-remove-crater": effects.h_remove_crater,
    "do-move": turn.h_move,
    "do-move-to-target": moving.h_move_to_target,
    "do-change-wind": effects.h_change_wind,
    "do-play-another": turn.h_play_another,
    "blast-hex": effects.h_blast_hex,
    "blast-thing": effects.h_blast_thing,
    "damage-hex": effects.h_damage_hex,
    "place-hex": effects.h_place_hex,
    "explode": effects.h_explode,
    "place-fires": effects.h_place_fires,
    "scatter-thing": moving.h_scatter_thing,
    "enter": moving.h_enter,
    "collect": moving.h_collect,
    "mine": moving.h_mine,
    "fire": moving.h_fire,
    "settle": moving.h_settle,
    "order": frames.h_order,
    "do-draw": turn.h_draw,
    "do-at-end-turn": turn.h_at_end_turn,
    "sentries": effects.h_sentries,
}
"""Frame op -> its handler ``(state, frame) -> None``; ``do-<keyword>`` frames are the
steps of card texts (``cards.GRAMMAR``)."""


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


def new_state(players: int, options: dict) -> dict:
    """Return the start state of a first game (Setting up your first game), stopped at
    its first hidden shuffle."""
    return run(turn.start_state(players, options))
