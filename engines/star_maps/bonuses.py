"""Bonuses: the catalog (``bonuses.json``, invented) and what each effect does to a sheet.

rules/star-maps.md, "Using the Dice" step 4 and "Bonuses": when a seat's action makes the
last star of a type found, it may immediately use a bonus it has unlocked, at most two per
sheet; using a bonus may trigger another. A bonus use is part of the seat's move, written
after the action (``{"act": "dice", ..., "bonuses": [{"bonus": "echo", "box": "A4"}]}``).

Decisions (documented in ``engines/star_maps/__init__.py``):

- The bonuses available are those unlocked so far: the campaign's (option
  ``unlocked_bonuses``) and, from rules version 2, those unlocked during the game:
  finding the last star of a type on any sheet unlocks the bonus keyed to that type
  (``unlocked_by`` in ``bonuses.json``) for every player from the next round on (see
  ``rules.py``). One bonus may be used more than once on a sheet, within the limit.
- Each type a move completes earns one bonus use, to be spent in the same move; a bonus
  whose effect completes another type earns another ("Using a bonus might trigger another
  bonus").
- Every effect acts on the seat's own sheet (a shared roll cannot be rerolled).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from engines.base import IllegalMove, InvalidMove, shown
from engines.star_maps import sheet as sh
from engines.star_maps.sheet import Layout

BONUS_LIMIT = 2
"""Bonuses a seat may use per sheet (rules/star-maps.md, "Using the Dice", step 4)."""

DATA = json.loads((Path(__file__).parent / "bonuses.json").read_text(encoding="utf-8"))
CATALOG: dict[str, dict] = {b["id"]: b for b in DATA["bonuses"]}
"""Bonus id -> its entry (``name``, ``effect``, ``text``), in the file's order."""
BONUS_IDS: tuple[str, ...] = tuple(CATALOG)
"""Bonus ids in list order: the order of legal moves and of the losers' vote tie break."""

FIELDS: dict[str, tuple[str, ...]] = {
    "connect": ("connection",),
    "echo": ("box",),
    "shift": ("star", "write", "box"),
    "dice": ("star", "write", "box"),
    "wild": ("star", "write", "box"),
}
"""Effect -> the fields a use of it carries besides ``bonus``."""

assert all(b["effect"] in FIELDS for b in CATALOG.values()), "unknown bonus effect"

UNLOCKED_BY: dict[int, str] = {
    b["unlocked_by"]: b["id"] for b in CATALOG.values() if "unlocked_by" in b
}
"""Star type (its die value) -> the bonus that finding its last star unlocks."""

assert len(UNLOCKED_BY) == sum("unlocked_by" in b for b in CATALOG.values()) and all(
    t in sh.DIE_VALUES for t in UNLOCKED_BY
), "each type keys at most one bonus, by die value"
NO_BONUS = "none"
"""The losers' vote for no new bonus (``{"act": "choose-bonus", "bonus": "none"}``,
``choose none``): never a bonus id."""
assert NO_BONUS not in CATALOG, "'none' is the losers' vote for no bonus"


LastWrite = tuple[int | None, int] | None
"""The ``(star die, value)`` a move wrote last (``echo`` repeats its value); None if none."""


def check_allowed(bonus: str, unlocked: Sequence[str], used: int, earned: int) -> None:
    """Check that ``bonus`` may be used now by a seat that has used ``used`` bonuses and has
    ``earned`` unspent bonus uses in this move.

    :raises IllegalMove: ``no-such-bonus``, ``bonus-locked``, ``bonus-limit``,
        ``bonus-not-earned``.
    """
    if bonus not in CATALOG:
        raise IllegalMove(
            "no-such-bonus",
            f"There is no bonus {shown(bonus)}; bonuses are {', '.join(BONUS_IDS)}.",
        )
    if bonus not in unlocked:
        raise IllegalMove(
            "bonus-locked",
            f"Bonus {bonus} is not unlocked in this game "
            f"(unlocked: {', '.join(unlocked) or 'none'}).",
        )
    if used >= BONUS_LIMIT:
        raise IllegalMove(
            "bonus-limit",
            f"Only {BONUS_LIMIT} bonuses may be used per sheet, and this sheet has used them.",
        )
    if earned <= 0:
        raise IllegalMove(
            "bonus-not-earned",
            "A bonus may be used only right after finding the last star of a type.",
        )


def write_pairs(
    bonus: Mapping, roll: Sequence[int], last: LastWrite
) -> list[tuple[int | None, int]]:
    """Return the ``(star die, value)`` pairs a writing bonus allows (die None: a star of
    any type)."""
    if bonus["effect"] == "echo":
        return [(None, last[1])] if last else []
    return list(_rolled_pairs(bonus["effect"], bonus.get("amount"), tuple(roll)))


@cache
def _rolled_pairs(
    effect: str, amount: int | None, roll: tuple[int, ...]
) -> tuple[tuple[int, int], ...]:
    """Return :func:`write_pairs` of an effect that reads only the roll (kept: the listing
    asks for it for every bonus use it lists)."""
    if effect == "dice":
        return tuple(sh.dice_pairs(roll))
    if effect == "shift":
        rolls = {(roll[i] + d, roll[1 - i]) for i in (0, 1) for d in (-amount, amount)}
        return tuple(
            sorted(
                {pair for r in rolls if min(r) >= 1 and max(r) <= 6 for pair in sh.dice_pairs(r)}
            )
        )
    if effect == "wild":
        return tuple((die, v) for die in sorted(set(roll)) for v in sh.DIE_VALUES)
    return ()


def options(
    layout: Layout,
    roll: Sequence[int],
    bonus_id: str,
    marks: Mapping,
    last: LastWrite,
    opened: Mapping[int | None, list[str]] | None = None,
) -> list[tuple[dict, LastWrite]]:
    """Return every use of ``bonus_id`` now: ``(use, new last write)``. ``opened`` is
    ``sheet.open_boxes_by_type`` of ``marks``, when the caller has it already."""
    bonus = CATALOG[bonus_id]
    if bonus["effect"] == "connect":
        return [
            ({"bonus": bonus_id, "connection": c}, last) for c in sh.open_connections(layout, marks)
        ]
    opened = sh.open_boxes_by_type(layout, marks) if opened is None else opened
    echo, locks = bonus["effect"] == "echo", layout.lock_boxes
    out = []
    for die, value in write_pairs(bonus, roll, last):
        write = (die, value)
        for box in opened[die]:
            if box in locks and sh.lock_breach(layout, marks, box, value):
                continue
            use = (
                {"bonus": bonus_id, "box": box}
                if echo
                else {"bonus": bonus_id, "star": die, "write": value, "box": box}
            )
            out.append((use, write))
    return out


def apply_use(
    layout: Layout, roll: Sequence[int], marks: Mapping, last: LastWrite, use: Mapping
) -> tuple[dict, LastWrite]:
    """Apply one bonus use (already allowed by :func:`check_allowed`) to the marks.

    :raises InvalidMove: ``bad-move`` when the fields do not fit the bonus's effect.
    :raises IllegalMove: ``bonus-not-applicable`` (nothing to echo), ``not-rolled`` (a
        star/value the effect does not give), or a sheet code from ``sheet.check_write`` /
        ``sheet.check_connect``.
    """
    bonus = CATALOG[use["bonus"]]
    effect = bonus["effect"]
    if set(use) != {"bonus", *FIELDS[effect]}:
        raise InvalidMove(
            "bad-move", f"Bonus {use['bonus']} takes the fields {', '.join(FIELDS[effect])}."
        )
    if effect == "connect":
        sh.check_connect(layout, marks, use["connection"])
        return sh.connect(layout, marks, use["connection"]), last
    if effect == "echo":
        if last is None:
            raise IllegalMove(
                "bonus-not-applicable",
                f"{bonus['name']} repeats a value written in this move, and "
                "this move has written none.",
            )
        die, value = None, last[1]
    else:
        die, value = use["star"], use["write"]
        if (die, value) not in write_pairs(bonus, roll, last):
            raise IllegalMove(
                "not-rolled",
                f"{bonus['name']} cannot give star {die} write "
                f"{value} with the dice {roll[0]} and {roll[1]}.",
            )
    sh.check_write(layout, marks, die, value, use["box"])
    return sh.write(marks, use["box"], value), (die, value)
