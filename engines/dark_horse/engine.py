"""The Dark Horse engine: the :class:`engines.base.Engine` contract over the rules,
view and notation modules of this package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema

from engines.base import JSON, Decision, Engine, Prompt
from engines.option_fields import Flag

from . import board_svg, determinize, notation, rules, view
from .cards import DEFAULT, Components


class DarkHorseOptions(Schema):
    """Game options (rules/dark-horse.md, "Dilly Dally Variant")."""

    dilly_dally = Flag("Play the Dilly Dally Variant: Ant tokens and the black base.")


class DarkHorse(Engine):
    """Dark Horse for 2 to 6 players (rules/dark-horse.md).

    :param components: the component set (default: :attr:`deck`, the bundled
        ``components.json``); tests pass their own to play a card the default deck lacks.

    The rules that older versions played differently are :attr:`deck` and the methods
    :meth:`directions` and :meth:`black_base`, read by the rules
    (:class:`engines.dark_horse.rules.Game`); the older versions are in
    :mod:`engines.dark_horse.versions`.
    """

    id = "dark-horse"
    title = "Dark Horse"
    version = "3"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    options_schema = DarkHorseOptions
    notation = notation.HELP
    how_to_win = (
        "Each player secretly holds Goal cards naming Bugs. Play your Move cards to push "
        "the Bugs on your Goal cards to the front of the race (and the others back). When "
        "every card has been played, each Goal card scores by where its Bug finished; "
        "the best score wins."
    )

    deck: Components = DEFAULT
    """The component set its games are dealt from (``components.json``)."""

    def __init__(self, components: Components | None = None) -> None:
        components = self.deck if components is None else components
        self.components = components
        for n in range(self.min_players, self.max_players + 1):
            if len(components.goal_cards) <= rules.GOALS_DEALT[n] * n:
                raise ValueError(f"Dark Horse components: too few Goal cards for {n} players")
            if len(components.move_cards) < rules.HAND_SIZE[n] * n:
                raise ValueError(f"Dark Horse components: too few Move cards for {n} players")
            if components.ant_tokens < rules.ANT_TOKENS[n]:
                raise ValueError(f"Dark Horse components: too few Ant tokens for {n} players")

    def setup(self, players: int, options: Mapping[str, Any]) -> dict:
        """Return the state before the Goal cards are dealt (rules/dark-horse.md, "Setup").

        :raises InvalidOptions: ``bad-player-count`` or ``bad-options``.
        """
        loaded = self.load_options(players, options)
        return rules.setup(players, loaded["dilly_dally"])

    def directions(self, card_id: str, track: list[str]) -> list[str]:
        """Return the directions the ± card ``card_id`` may be played in on ``track``:
        for a pictured Bug those in which it can move (rules/dark-horse.md, "Gameplay":
        "the pictured Bug must be moved forward or backward one space"), for a positions
        card those in which every Bug it names can move ("each Bug must move in the same
        direction")."""
        return rules.directions(self.components, card_id, track)

    def black_base(self, row: list[str], placed: str) -> str:
        """Return the Bug that gets the black base once ``placed`` completes the
        placement ``row``: the Bug on the last space, the stone (rules/dark-horse.md,
        "Dilly Dally Variant" 2: "after having placed the Bugs on their corresponding
        space, put a black base on the last Bug")."""
        return row[-1]

    def prompt(self, state: dict) -> Prompt:
        """Return what the game waits for (rules/dark-horse.md, "Setup", "Gameplay")."""
        return rules.prompt(self.components, state)

    def legal_moves(self, state: dict, seat: int) -> list[JSON]:
        """Return every legal move of ``seat`` now (rules/dark-horse.md, "Gameplay")."""
        return rules.legal_moves(self, state, seat)

    def play(self, state: dict, seat: int, move: JSON) -> dict:
        """Apply ``seat``'s move (rules/dark-horse.md, "Gameplay", "Special Cards").

        :raises IllegalMove: the rules forbid it now, with a stable code.
        :raises InvalidMove: ``bad-move``.
        """
        return rules.play(self, state, seat, move)

    def resolve(self, state: dict, outcome: JSON) -> dict:
        """Apply a shuffle or the start-player roll (rules/dark-horse.md, "Setup").

        :raises BadOutcome: the outcome does not fit the current Chance.
        """
        return rules.resolve(self.components, state, outcome)

    def view(self, state: dict, seat: int | None) -> dict:
        """Return what ``seat`` may see (rules/dark-horse.md, "Setup" 1 and 4)."""
        return view.view(self, state, seat)

    def secrets(self, state: dict, seat: int | None) -> list[str]:
        """Return the hidden values only ``seat`` holds (``None``: hidden from all)
        (rules/dark-horse.md, "Setup" 1 and 4)."""
        return view.secrets(self.components, state, seat)

    def unseen(self, view: dict, seat: int) -> dict[str, list[str]]:
        """Return the cards ``seat`` cannot place, ``{"goals": [...], "moves": [...]}``
        (:meth:`engines.base.Engine.unseen`; ``determinize.py``)."""
        return determinize.unseen(self.components, view, seat)

    def complete(self, view: dict, seat: int, dealt: Mapping[str, Any]) -> dict:
        """Return a state ``seat``'s view could come from, the other seats' Goal and
        Move cards, the Goal deck and the cards set aside dealt from ``dealt``
        (:meth:`engines.base.Engine.complete`; ``determinize.py``)."""
        return determinize.complete(self.components, view, seat, dealt)

    def check_turn(self, state: dict, seat: int) -> Decision:
        """Return the current Decision if ``seat`` must move now (rules/dark-horse.md,
        "Gameplay"; "Special Cards": only the chosen player answers Bad encounter!).

        :raises IllegalMove: ``game-over``, ``awaiting-chance`` or ``not-your-turn``,
            with a sentence naming who must act.
        """
        rules.check_turn(self.components, state, seat)
        return self.prompt(state)

    def timeout_move(self, state: dict, seat: int) -> JSON:
        """Return the move played for ``seat`` when its deadline passes (package
        docstring, "Timeouts").

        :raises IllegalMove: ``not-your-turn`` when the seat owes no move.
        """
        return rules.timeout_move(self, state, seat)

    def parse(self, text: str, state: dict, seat: int) -> JSON:
        """Read a move in the notation (:mod:`engines.dark_horse.notation`).

        :raises InvalidMove: the text cannot be read.
        """
        return notation.parse(self.components, text, state, seat)

    def describe(self, move: JSON) -> str:
        """Return ``move`` in the notation."""
        return notation.describe(self.components, move)

    def brief(self, state: dict, seat: int) -> str:
        """Return the "your turn" mail lines: the decision, own cards and goals, Track
        (rules/dark-horse.md, "Gameplay")."""
        return view.brief(self, state, seat)

    def describe_outcome(self, spec: Mapping[str, Any], outcome: JSON) -> str:
        """Return a chance outcome as text; a shuffle's order is never written out."""
        if spec.get("kind") == "shuffle":
            deck = "Goal" if spec.get("deck") == "goal" else "Move"
            return f"The {deck} cards are shuffled and dealt face down."
        if spec.get("kind") == "dice" and isinstance(outcome, list) and outcome:
            return f"Seat {outcome[0] - 1} is the start player."
        return super().describe_outcome(spec, outcome)

    def result_words(self, result: Mapping[str, Any]) -> list[str]:
        """Return how the scores were made: the Track's final order, each seat's Goal
        cards with their Bug's place and points, and the Ant token (rules/dark-horse.md,
        "End of the Game", "Dilly Dally")."""
        return view.result_words(self.components, result)

    def board_svg(self, view: dict) -> str:
        """Return the board of a view as SVG (the Track, Ant tokens, cards played, the seat's own
        cards)."""
        bugs = [{"bug": b.id, "name": b.name} for b in self.components.bugs]
        return board_svg.render({**view, "bugs": bugs})

    def board_targets(self, view: dict, move: JSON) -> list[str]:
        """Return the places clicked to make ``move`` (a card, its Bug, a direction...)."""
        card = self.components.move_by_id.get(move.get("play")) if isinstance(move, dict) else None
        return board_svg.targets(view, move, card.bug if card else None)

    def move_words(self, move: JSON, past: bool = True) -> str:
        """Return the move as a person says it (``played Ladybug ±1 forward``)."""
        return notation.words(self.components, move, past)

    def board_text(self, view: dict) -> list[str]:
        """Return the board of a view in words, the picture's text alternative."""
        return board_svg.words(view)


__all__ = ["DarkHorse", "DarkHorseOptions"]
