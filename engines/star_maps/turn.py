"""One seat's answer to a roll: the JSON move, its legality, and every legal answer.

rules/star-maps.md, "Choose Phase": a player either uses the dice ("Using the Dice") or
makes a connection ("Make a Connection"), and must do one of them if they can. A move only
writes on the answering seat's own sheet, which is why a round's answers can be applied in
the order they arrive (see ``rules.py``).

Moves (JSON; ``notation.py`` gives their text form):

- ``{"act": "dice", "star": 4, "write": 2, "box": "B7"}``: die 4 picks the star type, the
  other die's 2 goes in box B7;
- ``{"act": "connect", "connection": "C3"}``: fill connection C3;
- ``{"act": "pass"}``: only for a seat that can do neither (such a seat is not asked, see
  ``rules.py``; ``must-act`` otherwise);
- either of the first two may carry ``"bonuses": [use, ...]``, each use
  ``{"bonus": id, ...fields of its effect}`` (see ``bonuses.py``);
- ``{"act": "choose-bonus", "bonus": id}``: a loser's vote after the game (``rules.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import IllegalMove, InvalidMove, shown
from engines.star_maps import bonuses as bz
from engines.star_maps import sheet as sh
from engines.star_maps.sheet import Layout

_KEYS = {
    "dice": {"act", "star", "write", "box"},
    "connect": {"act", "connection"},
    "pass": {"act"},
    "choose-bonus": {"act", "bonus"},
}
_USE_KEYS = {"bonus", "box", "connection", "star", "write"}
_INTS = ("star", "write")
_STRS = ("box", "connection", "bonus")


def read_move(move: Any) -> dict:
    """Return ``move`` once its shape is checked (it is not copied or changed).

    :raises InvalidMove: ``bad-move``: not a dict, unknown ``act``, missing or extra keys,
        a die value outside 1..6, a bonus list on a pass or a vote.
    """
    if not isinstance(move, dict) or move.get("act") not in _KEYS:
        raise InvalidMove(
            "bad-move",
            f'A move is a JSON object whose "act" is one of {", ".join(_KEYS)}; got {shown(move)}.',
        )
    act = move["act"]
    extra = {"bonuses"} if act in ("dice", "connect") else set()
    if not _KEYS[act] <= set(move) <= _KEYS[act] | extra:
        raise InvalidMove(
            "bad-move",
            f"A {shown(act)} move has the keys "
            f"{', '.join(sorted(_KEYS[act] | extra))}; "
            f"got {shown(move)}.",
        )
    _check_fields(move)
    uses = move.get("bonuses", [])
    if not isinstance(uses, list) or not all(
        isinstance(u, dict) and "bonus" in u and set(u) <= _USE_KEYS for u in uses
    ):
        raise InvalidMove(
            "bad-move",
            '"bonuses" is a list of objects such as {"bonus": "bridge", "connection": "C3"}.',
        )
    for use in uses:
        _check_fields(use)
    return move


def _check_fields(item: Mapping) -> None:
    for key in _INTS:
        if key in item and (type(item[key]) is not int or item[key] not in sh.DIE_VALUES):
            raise InvalidMove("bad-move", f"{shown(key)} must be a die value from 1 to 6.")
    for key in _STRS:
        if key in item and not isinstance(item[key], str):
            raise InvalidMove("bad-move", f"{shown(key)} must be a string id.")


# --------------------------------------------------------------------------- checking


def can_act(layout: Layout, roll: Sequence[int], marks: Mapping) -> bool:
    """Return True when the seat can use the dice or make a connection (rules/star-maps.md,
    "Choose Phase"; "Game End")."""
    return bool(sh.open_connections(layout, marks)) or any(
        sh.write_boxes(layout, marks, die, value) for die, value in sh.dice_pairs(roll)
    )


def apply_answer(
    layout: Layout, roll: Sequence[int], unlocked: Sequence[str], marks: Mapping, move: Mapping
) -> dict:
    """Return the seat's new marks after its answer (shape already checked by read_move).

    :raises IllegalMove: ``must-act``, ``not-rolled``, ``no-such-box``, ``box-filled``,
        ``not-adjacent``, ``breaks-lock``, ``no-such-connection``, ``connection-filled``,
        and for bonuses ``no-such-bonus``, ``bonus-locked``, ``bonus-limit``,
        ``bonus-not-earned``, ``bonus-not-applicable``.
    :raises InvalidMove: ``bad-move`` for a vote, or bonus fields that do not fit.
    """
    act = move["act"]
    if act == "choose-bonus":
        raise IllegalMove(
            "not-voting",
            "Bonuses are chosen by the losers after the game; "
            "now use the dice or make a connection.",
        )
    if act == "pass":
        if can_act(layout, roll, marks):
            raise IllegalMove(
                "must-act",
                "You can use the dice or make a connection, so you must (rules, 'Choose Phase').",
            )
        return dict(marks)
    if act == "dice":
        die, value = move["star"], move["write"]
        if (die, value) not in sh.dice_pairs(roll):
            raise IllegalMove(
                "not-rolled",
                f"The dice show {roll[0]} and {roll[1]}: one picks the star, the other is written.",
            )
        sh.check_write(layout, marks, die, value, move["box"])
        after, last = sh.write(marks, move["box"], value), (die, value)
    else:
        sh.check_connect(layout, marks, move["connection"])
        after, last = sh.connect(layout, marks, move["connection"]), None
    uses = move.get("bonuses", [])
    earned, before, step = 0, marks, move
    for use in uses:
        earned += sh.completed_by(layout, before, after, _target(step))
        bz.check_allowed(use["bonus"], unlocked, len(after["bonuses_used"]), earned)
        before, step = after, use
        after, last = bz.apply_use(layout, roll, after, last, use)
        after = {**after, "bonuses_used": [*after["bonuses_used"], use["bonus"]]}
        earned -= 1
    return after


def _target(step: Mapping) -> str:
    """Return the box or the connection a move or a bonus use (checked) fills."""
    return step["connection"] if "connection" in step else step["box"]


# --------------------------------------------------------------------------- listing


def answers(
    layout: Layout, roll: Sequence[int], unlocked: Sequence[str], marks: Mapping
) -> list[dict]:
    """Return every legal answer: dice uses (star die as rolled first, boxes in printed
    order), then connections in printed order, each followed by its bonus variants; only
    ``pass`` when there is none."""
    out: list[dict] = []
    bonus_ok = bool(unlocked) and len(marks["bonuses_used"]) < bz.BONUS_LIMIT
    steps = [
        ({"act": "dice", "star": die, "write": value, "box": box}, (die, value))
        for die, value in sh.dice_pairs(roll)
        for box in sh.write_boxes(layout, marks, die, value)
    ]
    steps += [
        ({"act": "connect", "connection": conn}, None)
        for conn in sh.open_connections(layout, marks)
    ]
    gains = _Gains(layout, marks) if bonus_ok else None
    opened = None
    for move, last in steps:
        out.append(move)
        earned = gains.of(move, last) if gains else 0
        if earned:
            after = _after(layout, marks, move, last)
            opened = sh.open_boxes_by_type(layout, marks) if opened is None else opened
            out += [
                {**move, "bonuses": chain}
                for chain in _chains(
                    layout, roll, unlocked, after, last, earned, _less(opened, move)
                )
            ]
    return out or [{"act": "pass"}]


def _less(
    opened: Mapping[int | None, list[str]], step: Mapping
) -> dict[int | None, list[str]] | None:
    """Return ``sheet.open_boxes_by_type`` after a listed step from the marks it was of,
    or None to ask it again: writing a box only closes that box (a star it finds has both
    boxes filled, so it had no other open box); a connection may open boxes."""
    if "connection" in step:
        return None
    box = step["box"]
    return {
        die: [b for b in boxes if b != box] if box in boxes else boxes
        for die, boxes in opened.items()
    }


def _after(layout: Layout, marks: Mapping, step: Mapping, last: bz.LastWrite) -> dict:
    """Return the marks after a listed step (a move or a bonus use; ``last``, the write it
    makes): its connection filled, or its value written in its box (unchecked: listed
    steps are legal)."""
    if "connection" in step:
        return sh.connect(layout, marks, step["connection"])
    return sh.write(marks, step["box"], last[1])


class _Gains:
    """How many types a listed step from ``marks`` completes (each earns a bonus use:
    rules/star-maps.md, "Using the Dice", step 4), kept by the box or connection it fills:
    the value written finds nothing, only which boxes are filled does."""

    def __init__(self, layout: Layout, marks: Mapping) -> None:
        self.layout, self.marks = layout, marks
        self.targets = sh.one_step_targets(layout, marks)
        self.known: dict[str, int] = {}

    def __bool__(self) -> bool:
        """Return False when no step from the marks can complete a type."""
        return self.targets is None or bool(self.targets)

    def of(self, step: Mapping, last: bz.LastWrite) -> int:
        """Return how many types ``step`` (``last``, the write it makes) completes."""
        target = _target(step)
        if self.targets is not None and target not in self.targets:
            return 0
        if target not in self.known:
            self.known[target] = self._count(step, last, target)
        return self.known[target]

    def _count(self, step: Mapping, last: bz.LastWrite, target: str) -> int:
        layout, marks = self.layout, self.marks
        if not sh.may_find(layout, marks, target):
            return 0
        return sh.completed_by(layout, marks, _after(layout, marks, step, last), target)


def _chains(
    layout: Layout,
    roll: Sequence[int],
    unlocked: Sequence[str],
    marks: dict,
    last: bz.LastWrite,
    earned: int,
    opened: Mapping[int | None, list[str]] | None = None,
) -> list[list[dict]]:
    """Return every list of bonus uses the seat may append, given ``earned`` unspent uses
    (``opened``: ``sheet.open_boxes_by_type`` of ``marks``, if known).

    What may follow a use depends on the box or connection it fills, not on the value it
    writes, unless the box is next to a pre-filled star (``sheet.lock_breach`` reads its
    value) or an echo may repeat it; so the uses that follow are listed once per
    ``(box or connection, uses left, last write if an echo is unlocked)`` (``known``)."""
    if earned <= 0 or len(marks["bonuses_used"]) >= bz.BONUS_LIMIT:
        return []
    more = len(marks["bonuses_used"]) + 1 < bz.BONUS_LIMIT
    opened = sh.open_boxes_by_type(layout, marks) if opened is None else opened
    gains = _Gains(layout, marks) if more else None
    reads_last = any(bz.CATALOG[b]["effect"] == "echo" for b in unlocked)
    known: dict[tuple, list[list[dict]]] = {}
    chains: list[list[dict]] = []
    for bonus in (b for b in bz.BONUS_IDS if b in unlocked):
        uses = bz.options(layout, roll, bonus, marks, last, opened)
        if not more:
            chains += [[use] for use, _ in uses]
            continue
        for use, last2 in uses:
            chains.append([use])
            left = earned - 1 + (gains.of(use, last2) if gains else 0)
            if left <= 0:
                continue
            target = _target(use)
            key = (target, left, last2 if reads_last else None)
            rests = known.get(key) if target not in layout.lock_boxes else None
            if rests is None:
                after = _after(layout, marks, use, last2)
                after = {**after, "bonuses_used": [*after["bonuses_used"], bonus]}
                rests = _chains(layout, roll, unlocked, after, last2, left, _less(opened, use))
                known[key] = rests
            chains += [[use, *rest] for rest in rests]
    return chains
