"""The Star Maps :class:`~engines.base.Engine`: wires options, rules, notation and view.

Each method is a thin adapter: the game flow is in ``rules.py``, a seat's answer in
``turn.py``, the sheet model in ``sheet.py`` (data in ``sheets/*.json``), bonuses in
``bonuses.py`` (data in ``bonuses.json``), scoring in ``scoring.py``, the notation in
``notation.py`` and the view in ``view.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate

from engines.base import JSON, Engine, Prompt
from engines.star_maps import board_svg, determinize, notation, rules
from engines.star_maps import view as views
from engines.star_maps.bonuses import BONUS_IDS, NO_BONUS, UNLOCKED_BY
from engines.star_maps.sheet import DEFAULT_SHEET, SHEETS, Layout


def _once_each(bonuses: list[str]) -> None:
    """Refuse a list of bonuses that names one twice (rules/star-maps.md, "Bonuses":
    a bonus is unlocked once, for everybody).

    :raises marshmallow.ValidationError: naming the repeated bonuses.
    """
    repeated = sorted({b for b in bonuses if bonuses.count(b) > 1})
    if repeated:
        raise ValidationError(f"each bonus may be listed once; repeated: {', '.join(repeated)}")


class StarMapsOptions(Schema):
    """Star Maps game options.

    ``sheet``: a sheet in ``engines/star_maps/sheets/`` (default ``plain``);
    ``unlocked_bonuses``: the bonuses the campaign has unlocked so far, usable by every
    player (default none; any order, each bonus at most once: a bonus is unlocked or
    not, so a repeat is a mistake and refused with ``bad-options``).
    """

    sheet = fields.String(
        load_default=DEFAULT_SHEET,
        validate=validate.OneOf(sorted(SHEETS)),
        metadata={"description": "Sheet to play on: " + ", ".join(sorted(SHEETS)) + "."},
    )
    unlocked_bonuses = fields.List(
        fields.String(validate=validate.OneOf(BONUS_IDS)),
        load_default=list,
        validate=_once_each,
        metadata={
            "uniqueItems": True,
            "description": "Bonuses unlocked so far in the campaign, each once: "
            + ", ".join(BONUS_IDS)
            + ".",
        },
    )

    @post_load
    def _canonical(self, data: dict, **_: Any) -> dict:
        """Keep unlocked bonuses in the bonus list order."""
        data["unlocked_bonuses"] = [b for b in BONUS_IDS if b in data["unlocked_bonuses"]]
        return data


class StarMaps(Engine):
    """Star Maps (Button Shy, 2017), 1 to 4 players (rules/star-maps.md).

    The rules that older versions played differently are the class constants below,
    read by the rules (:class:`engines.star_maps.rules.Game`); the older versions are
    in :mod:`engines.star_maps.versions`.
    """

    id = "star-maps"
    title = "Star Maps"
    version = "3"
    min_players = 1
    max_players = 4
    options_schema = StarMapsOptions
    notation = notation.HELP
    how_to_win = (
        "Every round two dice are rolled and every player answers at once: one die picks "
        "the kind of star, the other is written in a box next to such a star (or mark a "
        "connection). Find all the stars of a kind to unlock bonuses. The game ends when "
        "a player can do nothing with the dice; the highest score wins."
    )

    bonuses: tuple[str, ...] = tuple(BONUS_IDS)
    """The bonuses its games know, in list order (rules/star-maps.md, "Bonuses")."""
    unlocked_by: Mapping[int, str] = UNLOCKED_BY
    """Star type (its die value) -> the bonus that finding its last star unlocks during
    play, for everyone (rules/star-maps.md, "Bonuses"; ``bonuses.json``)."""
    blank_votes: tuple[str, ...] = (NO_BONUS,)
    """What a loser may vote for besides a bonus: ``none``, no new bonus ("the losers of
    the game may cooperate to choose one new bonus")."""
    sheets: Mapping[str, Layout] = SHEETS
    """Every sheet by id, as today's rules read it: a pre-filled star is found once its
    two boxes are filled (rules/star-maps.md, "Lock/Unlock"; ``sheet.is_found``)."""

    def campaign_options(self, results: list[dict]) -> dict:
        """Return ``{"unlocked_bonuses": [...]}``: every bonus the campaign's finished
        games unlocked, during play or by the losers' choice (each result's
        ``unlocked_after``; ``new_bonus`` for results that lack it), in the bonus list
        order (rules/star-maps.md, "Bonuses": "players unlock bonuses for future use")."""
        unlocked = {
            b for r in results for b in [*(r.get("unlocked_after") or []), r.get("new_bonus")]
        }
        return {"unlocked_bonuses": [b for b in BONUS_IDS if b in unlocked]}

    def setup(self, players: int, options: Mapping[str, Any]) -> dict:
        """Return the state awaiting the first roll (rules/star-maps.md, "Setup").

        :raises InvalidOptions: a player count outside 1..4 or options not accepted.
        """
        loaded = self.load_options(players, options)
        return rules.new_game(loaded["sheet"], players, loaded["unlocked_bonuses"])

    def prompt(self, state: dict) -> Prompt:
        """Return the roll (Chance), the round's or the vote's Decision, or Over."""
        return rules.prompt(state)

    def legal_moves(self, state: dict, seat: int) -> list[JSON]:
        """Return the seat's legal moves (``rules.legal_moves``)."""
        return rules.legal_moves(self, state, seat)

    def play(self, state: dict, seat: int, move: JSON) -> dict:
        """Apply the seat's answer or vote; return the new state (``rules.play``).

        :raises InvalidMove: ``bad-move``.
        :raises IllegalMove: ``game-over``, ``awaiting-chance``, ``not-your-turn``,
            :class:`~engines.star_maps.rules.AlreadyAnswered`, ``must-act``, ``not-rolled``,
            ``no-such-box``, ``box-filled``, ``not-adjacent``, ``breaks-lock``,
            ``no-such-connection``, ``connection-filled``, ``no-such-bonus``,
            ``bonus-locked``, ``bonus-limit``, ``bonus-not-earned``,
            ``bonus-not-applicable``, ``not-voting``, ``already-unlocked``.
        """
        return rules.play(self, state, seat, move)

    def resolve(self, state: dict, outcome: JSON) -> dict:
        """Apply the round's roll (``rules.resolve``).

        :raises BadOutcome: ``no-chance-pending`` or ``bad-outcome``.
        """
        return rules.resolve(self, state, outcome)

    def view(self, state: dict, seat: int | None) -> dict:
        """Return the public view (``view.view``): nothing is hidden in Star Maps."""
        return views.view(self, state, seat)

    def complete(self, view: dict, seat: int, dealt: Mapping[str, Any]) -> dict:
        """Return the state ``view`` was drawn from: nothing is hidden, so the view
        holds all of it and ``dealt`` is empty (:meth:`engines.base.Engine.complete`;
        ``determinize.py``)."""
        return determinize.complete(view)

    def timeout_move(self, state: dict, seat: int) -> JSON:
        """Return the first dice use, else the first connection, else pass; at the vote,
        no bonus (``none``).

        :raises IllegalMove: the seat owes no move.
        """
        return rules.timeout_move(self, state, seat)

    def parse(self, text: str, state: dict | None = None, seat: int | None = None) -> JSON:
        """Read a move in notation (``star 4 write 2 at B7``, ``connect C3``).

        :raises InvalidMove: ``bad-move``.
        """
        return notation.parse(text)

    def describe(self, move: JSON) -> str:
        """Return the move in notation."""
        return notation.describe(move)

    def brief(self, state: dict, seat: int) -> str:
        """Return the "your turn" lines: the roll and the seat's options (``view.brief``)."""
        return views.brief(self, state, seat)

    def describe_outcome(self, spec: Mapping[str, Any], outcome: JSON) -> str:
        """Return ``"Round 3: the dice show 2 and 5."``."""
        return (
            f"{str(spec.get('for', 'roll')).capitalize()}: the dice show "
            f"{outcome[0]} and {outcome[1]}."
        )

    def result_words(self, result: Mapping[str, Any]) -> list[str]:
        """Return why the game ended and each seat's points by star type, its sheet's
        points and the bonuses it used (rules/star-maps.md, "Final Scoring")."""
        lines = [str(result.get("reason") or "The game is over.")]
        for d in result.get("details") or []:
            types = ", ".join(f"{k} {v}" for k, v in (d.get("by_type") or {}).items())
            lines.append(
                f"Seat {d['seat']}: {types}; sheet {d.get('sheet_points', 0)}; "
                f"{len(d.get('bonuses_used') or [])} bonuses used; total {d['total']}."
            )
        return lines

    def board_svg(self, view: dict) -> str:
        """Return the board of a view as SVG (the seat's sheet: boxes, stars, connections, arms,
        bonuses)."""
        return board_svg.render(view)

    def board_targets(self, view: dict, move: JSON) -> list[str]:
        """Return the box or connection (then those of its bonuses) that make ``move``."""
        return board_svg.targets(move)

    def move_words(self, move: JSON, past: bool = True) -> str:
        """Return the move as a person says it (``wrote 2 in box B7 (a 4 star)``)."""
        return notation.words(move, past)

    def board_text(self, view: dict) -> list[str]:
        """Return the board of a view in words, the picture's text alternative."""
        return board_svg.words(view)
