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

from engines.worms.rules import effects, frames, moving, setup, targets, turn
from engines.worms.rules.frames import ORDER_LIMIT, TIME_UP, note, turn_clock
from engines.worms.rules.targets import accuracy_dice
from engines.worms.rules.turn import card_name, finish

__all__ = [
    "HANDLERS",
    "ORDER_LIMIT",
    "TIME_UP",
    "accuracy_dice",
    "answer",
    "card_name",
    "finish",
    "new_state",
    "run",
    "time_up",
    "turn_clock",
]

HANDLERS = {
    "setup-shuffle": setup.h_setup_shuffle,
    "turn-start": turn.h_turn_start,
    "place-tile": setup.h_place_tile,
    "place-thing": setup.h_place_thing,
    "select": setup.h_select,
    "first-player": setup.h_first_player,
    "draft": setup.h_draft,
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
    "reshuffle-drop": turn.h_reshuffle_drop,
}
"""Frame op -> its handler ``(state, frame) -> None``; ``do-<keyword>`` frames are the
steps of card texts (``cards.GRAMMAR``)."""


def run(st: dict) -> dict:
    """Resolve frames until the game needs an input or is over; return ``st``."""
    while st["ask"] is None and st["over"] is None:
        frame = st["stack"][-1]
        HANDLERS[frame["op"]](st, frame)
    return st


def time_up(st: dict) -> dict:
    """Timer: the turn's time ran out (or the player ends it): "their turn immediately
    Jumps to step 6 ... If a card has been played and any text is still being
    resolved, the player can complete it, but must then immediately proceed to step
    6" (Timer). The pending step is asked again, without the Timer, or skipped."""
    st["turn"]["time_up"] = True
    st["ask"] = None
    note(st, "time is up")
    return run(st)


def answer(st: dict, value) -> dict:
    """Give the pending ask its answer and run on."""
    st["ask"] = None
    st["stack"][-1]["answer"] = value
    return run(st)


def new_state(players: int, options: dict) -> dict:
    """Return the start state (standard setup or first game, ``options["setup"]``),
    stopped at its first decision or chance."""
    return run(turn.start_state(players, options))
