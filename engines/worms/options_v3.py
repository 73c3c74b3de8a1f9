"""The Worms options of engine version 3, frozen: games created under version 3 keep
them (their stored options, ``larger_map`` a count, load again only with this schema).

Version 4 (:mod:`engines.worms.options`) reads every optional rule as a strict JSON
flag (version 3 took ``"yes"`` or ``1`` for ``true``), ``larger_map`` as a flag with
``extra_tiles`` for the count, and refuses contradictions with the code
``contradictory-options``. The rules of the two versions are the same. Do not change
this module.
"""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engines.base import InvalidOptions
from engines.worms import board as B


def _flag(description: str) -> fields.Boolean:
    return fields.Boolean(load_default=False, metadata={"description": description})


class WormsOptionsV3(Schema):
    """Worms options of version 3: the setup and the optional rules (rules/worms.md, "Setup",
    "Setting up your first game", "Optional Rules", "Timer")."""

    setup = fields.String(
        load_default="standard",
        validate=validate.OneOf(["standard", "first-game"]),
        metadata={
            "description": (
                "standard: build the map tile by tile, place the Things in turn, deal the "
                "teams by hidden Reference Cards, roll the Wind (Setup); first-game: the "
                "fixed first-game map, Blue starts, Wind 2 (Setting up your first game)"
            )
        },
    )
    youngest = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, 3),
        metadata={
            "description": "the seat of the youngest player, first during the standard setup"
        },
    )
    parting_gifts = _flag("Parting Gifts: a destroyed worm Blasts its hex")
    true_elimination = _flag("True Elimination: the game ends when one team is left")
    sudden_death_draft = _flag(
        "Sudden Death Draft: each player chooses a Sudden Death card, one of the chosen is used"
    )
    no_sudden_death = _flag("No Sudden Death: every Drop card, reshuffled when empty")
    late_superweapons = _flag(
        "Late Superweapons: the Superweapons under two Weapon Cards per player"
    )
    longer_game = _flag("Longer game: every Drop card in the Drop Deck")
    reduced_blast = _flag("Reduced Blast: Blasts deal no Damage")
    larger_map = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, 2),
        metadata={
            "description": "Larger map: extra Map Tiles, placed "
            "by the youngest player (standard setup)"
        },
    )
    timer = _flag(
        "Timer: each turn must reach End turn within timer_seconds of its first "
        "decision, or it jumps to End turn (a card text being resolved finishes)"
    )
    timer_seconds = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(10, 86400),
        metadata={"description": "the Timer, in seconds (default 60, as the book's sand timer)"},
    )

    @validates_schema(pass_original=True)
    def _consistent(self, data: dict, original, **_) -> None:
        """Refuse options that contradict each other, saying which and why."""
        given = original if isinstance(original, dict) else {}
        if data.get("no_sudden_death") and data.get("sudden_death_draft"):
            raise ValidationError(
                "no_sudden_death and sudden_death_draft contradict each "
                "other: without a Sudden Death card there is nothing to draft"
            )
        if data.get("setup") == "first-game" and data.get("larger_map"):
            raise ValidationError(
                "larger_map needs the standard setup: the first-game map is fixed"
            )
        if data.get("setup") == "first-game" and given.get("youngest") not in (None, 0):
            raise ValidationError(
                "youngest names who is first during the standard setup; "
                "the first-game setup has no setup turns (Blue starts)"
            )
        if given.get("timer_seconds") is not None and not data.get("timer"):
            raise ValidationError("timer_seconds needs timer: true")


def check(loaded: dict, players: int) -> dict:
    """Return version 3's loaded options if they fit ``players`` seats.

    :raises InvalidOptions: ``bad-options``.
    """
    if loaded["youngest"] >= players:
        raise InvalidOptions(
            "bad-options",
            f"Invalid options: youngest is a seat, 0 to {players - 1} for {players} players.",
        )
    extra = len([t for t in B.MAP["tiles"].values() if t.get("extra")])
    if loaded["larger_map"] > extra:
        raise InvalidOptions(
            "bad-options", f"Invalid options: larger_map: the box has {extra} extra Map Tiles."
        )
    return loaded
