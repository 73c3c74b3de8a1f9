"""The Space Worm :class:`~engines.base.Engine`: wires options, rules, notation and view.

Each method is a thin adapter; the rules are in ``rules.py``, the move format in
``moves.py``, the notation in ``notation.py``, the view in ``view.py``, the sheet data
in ``sheet.py`` and ``sheets/*.json``.
"""

from __future__ import annotations

from typing import Any, Mapping

from marshmallow import Schema, fields, validate

from engines.base import (Chance, Decision, Engine, InvalidOptions, JSON, Over, Prompt,
                          shown)
from engines.space_worm import board_svg, notation, rules
from engines.space_worm.moves import read_move
from engines.space_worm.sheet import DEFAULT_SHEET, SHEETS
from engines.space_worm.view import view as public_view


class SpaceWormOptions(Schema):
    """Space Worm game options.

    ``sheet``: the name of a sheet in ``engines/space_worm/sheets/`` (default
    ``level1``); any JSON file dropped there becomes a valid choice.
    """

    sheet = fields.String(load_default=DEFAULT_SHEET, validate=validate.OneOf(sorted(SHEETS)),
                          metadata={"description": "Sheet to play on: " + ", ".join(
                              sorted(SHEETS)) + "."})


class SpaceWorm(Engine):
    """Space Worm (Inside the Box Board Games, 2020), 1 to 6 players (rules/space-worm.md)."""

    id = "space-worm"
    title = "Space Worm"
    version = "1"
    min_players = 1
    max_players = 6
    options_schema = SpaceWormOptions
    notation = notation.HELP

    def setup(self, players: int, options: Mapping[str, Any]) -> dict:
        """Return the state awaiting the shared start roll (rules/space-worm.md, "Setup").

        :raises InvalidOptions: a player count outside 1..6 or an unknown sheet.
        """
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptions("bad-player-count", f"{self.title} takes {self.min_players} "
                                                     f"to {self.max_players} players, not "
                                                     f"{shown(players)}.")
        name = (options or {}).get("sheet", DEFAULT_SHEET)
        if name not in SHEETS:
            raise InvalidOptions("bad-options", f"There is no Space Worm sheet {shown(name)}; "
                                                f"choose one of {', '.join(sorted(SHEETS))}.")
        return rules.new_game(SHEETS[name], players)

    def prompt(self, state: dict) -> Prompt:
        """Return Over once ended, a public dice Chance when a roll is due, else the
        Decision of the seat choosing a die (kind ``choose-die``)."""
        if state["phase"] == rules.OVER:
            return Over(state["result"])
        spec = rules.chance_spec(state)
        if spec is not None:
            return Chance(spec)
        return Decision((state["to_move"],), kind="choose-die")

    def legal_moves(self, state: dict, seat: int) -> list[JSON]:
        """Return the seat's legal moves, in the order of ``rules.legal_moves``."""
        return rules.legal_moves(state, seat)

    def play(self, state: dict, seat: int, move: JSON) -> dict:
        """Apply the seat's move; return the new state.

        :raises InvalidMove: ``bad-move`` (shape).
        :raises IllegalMove: ``game-over``, ``awaiting-chance``, ``not-your-turn``,
            ``no-such-die``, ``die-taken``, ``must-move``, ``off-the-map``, ``blocked-path``.
        """
        die, direction = read_move(move)
        self.check_turn(state, seat)
        return rules.play(state, seat, die, direction)

    def resolve(self, state: dict, outcome: JSON) -> dict:
        """Apply a dice outcome; see ``rules.resolve``.

        :raises BadOutcome: ``no-chance-pending`` or ``bad-outcome``.
        """
        return rules.resolve(state, outcome)

    def view(self, state: dict, seat: int | None) -> dict:
        """Return the public view (nothing is hidden in Space Worm); see ``view.py``."""
        return public_view(state, seat)

    def timeout_move(self, state: dict, seat: int) -> JSON:
        """Return the first legal move: the lowest free die, its first open direction in
        the order up, right, down, left, or a Heart if it cannot move.

        :raises IllegalMove: ``game-over``, ``awaiting-chance`` or ``not-your-turn``.
        """
        self.check_turn(state, seat)
        return rules.legal_moves(state, seat)[0]

    def parse(self, text: str, state: dict | None = None, seat: int | None = None) -> JSON:
        """Read a move in notation (``die 3 up``, ``die 5 heart``).

        :raises InvalidMove: ``bad-move``.
        """
        return notation.parse(text)

    def describe(self, move: JSON) -> str:
        """Return the move in notation.

        :raises InvalidMove: ``bad-move`` when it is not a well-formed move.
        """
        return notation.describe(move)

    def brief(self, state: dict, seat: int) -> str:
        """Return the "your turn" text: dice left, the seat's position, its legal moves."""
        return notation.brief(state, seat)

    def describe_outcome(self, spec: Mapping[str, Any], outcome: JSON) -> str:
        """Return a roll as text (start roll and sum, or each die's colour and pips)."""
        return notation.describe_outcome(spec, outcome)

    def board_svg(self, view: dict) -> str:
        """Return the board of a view as SVG (the seat's sheet, dice, fruit tracks, every seat's score)."""
        return board_svg.render(view)

    def board_text(self, view: dict) -> list[str]:
        """Return the board of a view in words, the picture's text alternative."""
        return board_svg.words(view)
