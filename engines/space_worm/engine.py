"""The Space Worm :class:`~engines.base.Engine`: wires options, rules, notation and view.

Each method is a thin adapter; the rules are in ``rules.py``, the move format in
``moves.py``, the notation in ``notation.py``, the view in ``view.py``, the sheet data
in ``sheet.py`` and ``sheets/*.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, fields, validate

from engines.base import JSON, Chance, Decision, Engine, InvalidOptions, Over, Prompt
from engines.option_fields import WholeNumber
from engines.space_worm import board_svg, determinize, notation, rules
from engines.space_worm.moves import read_move
from engines.space_worm.sheet import DEFAULT_SHEET, SHEETS
from engines.space_worm.view import view as public_view


class SpaceWormOptionsV1(Schema):
    """Space Worm game options of engine version 1 (games created under it).

    ``sheet``: the name of a sheet in ``engines/space_worm/sheets/`` (default
    ``level1``); any JSON file dropped there becomes a valid choice.
    """

    sheet = fields.String(
        load_default=DEFAULT_SHEET,
        validate=validate.OneOf(sorted(SHEETS)),
        metadata={"description": "Sheet to play on: " + ", ".join(sorted(SHEETS)) + "."},
    )


class SpaceWormOptions(SpaceWormOptionsV1):
    """Space Worm game options: ``sheet`` (see :class:`SpaceWormOptionsV1`), plus

    ``start_roll``: ``each`` (default: every player rolls 2 dice for their own start
    Planet, one public roll per seat) or ``shared`` (one roll for everyone)
    (rules/space-worm.md, "Setup": "Roll 2 dice and colour in the Planet of the number
    you rolled"); ``hungriest_seat``: the hungriest player, who is the first start
    player (default 0; "Turns": "The hungriest player goes first").
    """

    start_roll = fields.String(
        load_default=rules.EACH,
        validate=validate.OneOf(rules.START_ROLL_RULES),
        metadata={
            "description": "Who rolls for the start Planet: each (every player "
            "rolls for their own sheet) or shared (one roll for all)."
        },
    )
    hungriest_seat = WholeNumber(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={
            "description": "The hungriest player's seat (0-based): the first start "
            "player, who rolls the 8 dice of round 1."
        },
    )


class SpaceWorm(Engine):
    """Space Worm (Inside the Box Board Games, 2020), 1 to 6 players."""

    id = "space-worm"
    title = "Space Worm"
    version = "2"
    min_players = 1
    max_players = 6
    options_schema = SpaceWormOptions
    notation = notation.HELP
    how_to_win = (
        "Each round every player takes one of the 8 dice and draws a line that long from "
        "their worm's head. Eat every fruit space of a type to score its track's top "
        "value, visit the Planets (each one missed costs points) and keep your Hearts "
        "(2 points each). The game ends when someone has coloured all their Hearts or "
        "eaten every fruit space; the highest score wins."
    )

    def load_options(self, players: int, options: Mapping[str, Any] | None) -> dict:
        """Validate the player count and options; ``hungriest_seat`` must be a seat of
        the game (rules/space-worm.md, "Turns").

        :raises InvalidOptions: ``bad-player-count`` or ``bad-options`` with a sentence.
        """
        loaded = super().load_options(players, options)
        seat = loaded.get("hungriest_seat", 0)
        if seat >= players:
            raise InvalidOptions(
                "bad-options",
                f"Invalid options: hungriest_seat: there is "
                f"no seat {seat} in a game of {players} "
                f"player{'s' if players > 1 else ''} (seats "
                f"0 to {players - 1}).",
            )
        return loaded

    def setup(self, players: int, options: Mapping[str, Any]) -> dict:
        """Return the state awaiting the start roll(s) (rules/space-worm.md, "Setup").

        :raises InvalidOptions: a player count outside 1..6, an unknown sheet, a bad
            ``start_roll`` or a ``hungriest_seat`` that is not a seat of the game.
        """
        loaded = self.load_options(players, options)
        return rules.new_game(
            SHEETS[loaded["sheet"]],
            players,
            loaded.get("start_roll", rules.SHARED),
            loaded.get("hungriest_seat", 0),
        )

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

    def complete(self, view: dict, seat: int, dealt: Mapping[str, Any]) -> dict:
        """Return the state ``view`` was drawn from: nothing is hidden, so the view
        holds all of it and ``dealt`` is empty (:meth:`engines.base.Engine.complete`;
        ``determinize.py``)."""
        return determinize.complete(view)

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

    def result_words(self, result: Mapping[str, Any]) -> list[str]:
        """Return why the game ended and each seat's fruit, heart and planet points
        (rules/space-worm.md, "Scoring")."""
        lines = [str(result.get("text") or "The game is over.")]
        for d in result.get("details") or []:
            lines.append(
                f"Seat {d['seat']}: fruit {d['fruit_points']}, hearts {d['heart_points']}, "
                f"planets missed -{d['planet_penalty']}; total {d['score']}."
            )
        return lines

    def board_svg(self, view: dict) -> str:
        """Return the board of a view as SVG (the seat's sheet, dice, fruit tracks, every seat's
        score)."""
        return board_svg.render(view)

    def board_targets(self, view: dict, move: JSON) -> list[str]:
        """Return the die, then the direction arrow or the Hearts, that make ``move``."""
        return board_svg.targets(move)

    def move_words(self, move: JSON, past: bool = True) -> str:
        """Return the move as a person says it (``took die 3 and went up``)."""
        return notation.words(move, past)

    def board_text(self, view: dict) -> list[str]:
        """Return the board of a view in words, the picture's text alternative."""
        return board_svg.words(view)
