"""The Worms options of engine version 3, as a delta of version 4's
(:mod:`engines.worms.options`): games created under version 3 keep them (their stored
options, ``larger_map`` a count, load again only with this schema).

Version 3 read every optional rule as a loose boolean (``"yes"`` or ``1`` for ``true``),
``youngest`` and ``timer_seconds`` as plain integers, ``larger_map`` as the number of extra
Map Tiles (no ``extra_tiles``), and refused options that contradict each other as
``bad-options``. The rules of the two versions are the same.
"""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from engines.base import InvalidOptions
from engines.option_fields import Flag
from engines.worms import board as B
from engines.worms.options import WormsOptions, check_youngest

_V4 = WormsOptions().fields


class _WormsOptionsV3(WormsOptions):
    """Version 4's options with version 3's numbers and checks (its flags: below)."""

    class Meta:
        exclude = ("extra_tiles",)

    youngest = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, 3),
        metadata={
            "description": "the seat of the youngest player, first during the standard setup"
        },
    )
    larger_map = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(0, 2),
        metadata={
            "description": "Larger map: extra Map Tiles, placed "
            "by the youngest player (standard setup)"
        },
    )
    timer_seconds = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(10, 86400),
        metadata=_V4["timer_seconds"].metadata,
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


WormsOptionsV3 = type(
    "WormsOptionsV3",
    (_WormsOptionsV3,),
    {
        "__doc__": "Worms options of version 3: version 4's flags read loosely.",
        **{
            name: fields.Boolean(load_default=False, metadata=field.metadata)
            for name, field in _V4.items()
            if isinstance(field, Flag) and name != "larger_map"
        },
    },
)


def check(loaded: dict, players: int) -> dict:
    """Return version 3's loaded options if they fit ``players`` seats.

    :raises InvalidOptions: ``bad-options``.
    """
    check_youngest(loaded, players)
    extra = len([t for t in B.MAP["tiles"].values() if t.get("extra")])
    if loaded["larger_map"] > extra:
        raise InvalidOptions(
            "bad-options", f"Invalid options: larger_map: the box has {extra} extra Map Tiles."
        )
    return loaded
