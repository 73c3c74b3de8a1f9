"""The Worms options (engine version 4): the setup and the nine optional rules
(rules/worms.md, "Setup", "Setting up your first game", "Optional Rules", "Timer").

Every optional rule is a JSON flag (``true`` / ``false``: :class:`engines.option_fields.Flag`,
never ``"yes"`` or ``1``); the two numbers are strict integers in a range. Options
that contradict each other are refused with the stable code ``contradictory-options``,
a sentence saying which and why, and the member ``options`` naming them
(:func:`contradictions`). The rules read them through :func:`rules_options`.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from engines.base import InvalidOptions
from engines.option_fields import Flag, WholeNumber
from engines.worms import board as B

EXTRA_TILES = sorted(k for k, t in B.MAP["tiles"].items() if t.get("extra"))
"""The Map Tiles beyond the four of the box (invented: data/map.json), for Larger map."""


class WormsOptions(Schema):
    """Worms options: the setup and the optional rules."""

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
    youngest = WholeNumber(
        load_default=0,
        validate=validate.Range(0, 3),
        metadata={
            "description": "the seat of the youngest player, "
            "first during the standard setup (0 to players-1)"
        },
    )
    parting_gifts = Flag("Parting Gifts: a destroyed worm Blasts its hex")
    true_elimination = Flag("True Elimination: the game ends when one team is left")
    sudden_death_draft = Flag(
        "Sudden Death Draft: each player chooses a Sudden Death card, one of the chosen is used"
    )
    no_sudden_death = Flag("No Sudden Death: every Drop card, reshuffled when empty")
    late_superweapons = Flag(
        "Late Superweapons: the Superweapons under two Weapon Cards per player"
    )
    longer_game = Flag("Longer game: every Drop card in the Drop Deck")
    reduced_blast = Flag("Reduced Blast: Blasts deal no Damage")
    larger_map = Flag(
        "Larger map: extra Map Tiles, placed by the youngest player after "
        "everyone placed one (standard setup)"
    )
    extra_tiles = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(1, len(EXTRA_TILES)),
        metadata={
            "description": f"Larger map: how many extra Map Tiles (1 to "
            f"{len(EXTRA_TILES)}; default: all {len(EXTRA_TILES)})"
        },
    )
    timer = Flag(
        "Timer: each turn must reach End turn within timer_seconds of its first "
        "decision, or it jumps to End turn (a card text being resolved finishes)"
    )
    timer_seconds = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(10, 86400),
        metadata={"description": "the Timer, in seconds (default 60, as the book's sand timer)"},
    )


CONTRADICTIONS = [
    (
        ("no_sudden_death", "sudden_death_draft"),
        lambda o: o["no_sudden_death"] and o["sudden_death_draft"],
        "No Sudden Death takes the Sudden Death cards out of the game, so the Sudden Death "
        "Draft has nothing to draft",
    ),
    (
        ("setup", "larger_map"),
        lambda o: o["setup"] == "first-game" and o["larger_map"],
        "Larger map adds Map Tiles while the map is built, and the first-game map is fixed "
        "(setup: standard builds it)",
    ),
    (
        ("setup", "youngest"),
        lambda o: o["setup"] == "first-game" and o["youngest"] != 0,
        "youngest names who is first during the standard setup; the first-game setup has "
        "no setup turns (Blue starts)",
    ),
    (
        ("extra_tiles", "larger_map"),
        lambda o: o["extra_tiles"] is not None and not o["larger_map"],
        "extra_tiles says how many tiles Larger map adds; it needs larger_map: true",
    ),
    (
        ("timer_seconds", "timer"),
        lambda o: o["timer_seconds"] is not None and not o["timer"],
        "timer_seconds sets the Timer; it needs timer: true",
    ),
]
"""(the options involved, the test on loaded options, why they contradict)."""


def contradictions(loaded: dict) -> list[tuple[tuple[str, ...], str]]:
    """Return the contradictions among loaded options: ``[(names, why)]``, [] if none."""
    return [(names, why) for names, test, why in CONTRADICTIONS if test(loaded)]


def check(loaded: dict, players: int) -> dict:
    """Return ``loaded`` (options loaded by :class:`WormsOptions`) if they fit together
    and fit ``players`` seats.

    :raises InvalidOptions: ``contradictory-options`` (every contradiction, the
        ``options`` member naming them), ``bad-options`` (``youngest`` not a seat).
    """
    found = contradictions(loaded)
    if found:
        names = sorted({n for pair, _ in found for n in pair})
        raise InvalidOptions(
            "contradictory-options",
            "These options contradict each other: "
            + "; ".join(f"{' and '.join(pair)}: {why}" for pair, why in found)
            + ".",
            extra={"options": names},
        )
    return check_youngest(loaded, players)


def check_youngest(loaded: dict, players: int) -> dict:
    """Return ``loaded`` if its ``youngest`` is a seat of a game of ``players``.

    :raises InvalidOptions: ``bad-options``.
    """
    if loaded["youngest"] >= players:
        raise InvalidOptions(
            "bad-options",
            f"Invalid options: youngest is a seat, 0 to {players - 1} for {players} players.",
        )
    return loaded


def rules_options(loaded: dict) -> dict:
    """Return the options as the rules read them (``state["options"]``): as given,
    except ``larger_map``, which the rules read as the number of extra Map Tiles (0:
    the rule is off), and no ``extra_tiles``."""
    out = {k: v for k, v in loaded.items() if k != "extra_tiles"}
    count = loaded["extra_tiles"] or len(EXTRA_TILES)
    out["larger_map"] = count if loaded["larger_map"] else 0
    return out
