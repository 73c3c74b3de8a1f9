"""What the FIDE (Dutch) System needs to know of each player before a round is paired.

Definitions from C.04.3 (FIDE Handbook, the rules applied from 1 July 2025), as the
reference engine bbpPairings reads them from a Tournament Report File:
- score: points so far (byes and forfeits included); "units" below are exact fractions.
- colour difference and preferences (C.04.3 1.7, over played games only): a colour
  difference above +1 or below -1, or the same colour in the two latest games played, is
  an *absolute* preference (for the other colour); a difference of +1 or -1 a *strong*
  one; otherwise a *mild* one for the colour other than the last one played; none for a
  player who has not played.
- floats (1.4): in a round a player scored more than a loss without playing, or played
  someone with a lower score, is a downfloat; someone with a higher score, an upfloat.
- pairing-allocated bye (absolute criterion C.2, as bbpPairings applies it): not to a
  player who already had one, or who scored a win's points without playing (a forfeit
  win, a full-point bye).
- pairing number: the player's place in the initial order (rating, then entry order),
  counting only players the round's file lists as taking part, as bbpPairings numbers
  them; it breaks ties of score and, by its parity, gives colours when nothing else does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from arbiter.tournaments.formats.history import FORFEIT, GAME, PENDING, Cell
from arbiter.tournaments.formats.model import PAIRING_BYE, Scoring

WHITE, BLACK = "w", "b"
DOWN, UP = "down", "up"


def units(points: float) -> Fraction:
    """Points as an exact fraction (1/1000 is fine enough for any scoring we accept)."""
    return Fraction(points).limit_denominator(1000)


def invert(colour: str | None) -> str | None:
    """The other colour (None stays None)."""
    return {WHITE: BLACK, BLACK: WHITE}.get(colour)


@dataclass
class Player:
    """A player to pair, as the Dutch criteria see it."""

    id: str
    rank: int
    score: Fraction
    played: int
    colours: list[str]
    eligible_for_bye: bool
    floats: tuple[str | None, str | None]
    unplayed_wins: int = 0
    preference: str | None = None
    imbalance: int = 0
    repeated: str | None = None
    strong: bool = False

    @property
    def absolute_imbalance(self) -> bool:
        """Colour difference above +1 or below -1."""
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        """An absolute colour preference."""
        return self.absolute_imbalance or self.repeated is not None

    def colour_preference(self) -> None:
        """Set preference, imbalance, repeated and strong from ``colours``."""
        whites, blacks = self.colours.count(WHITE), self.colours.count(BLACK)
        lower = BLACK if whites > blacks else WHITE
        self.imbalance = abs(whites - blacks)
        last = self.colours[-1] if self.colours else None
        run = 0
        for colour in reversed(self.colours):
            if colour != last:
                break
            run += 1
        if self.imbalance > 1:
            self.preference = lower
        elif run > 1:
            self.preference = invert(last)
        elif self.imbalance > 0:
            self.preference = lower
        else:
            self.preference = invert(last)
        self.repeated = last if run > 1 else None
        self.strong = not self.absolute and self.imbalance > 0


def players(
    seeding: Sequence[str],
    to_pair: Sequence[str],
    cells: Mapping[str, Sequence[Cell]],
    scoring: Scoring,
) -> list[Player]:
    """The ``Player`` of each entrant of ``to_pair`` (a subset of ``seeding``).

    ``cells`` holds every seeded entrant's rounds before the one to pair (``history.
    record``). Raises ValueError when a game of those rounds has no result yet.
    """
    win, loss = units(scoring.place_points[0]), units(scoring.place_points[-1])
    pairing = set(to_pair)
    before = {e: _scores_before(row) for e, row in cells.items()}
    rank, found = 0, []
    for entrant in seeding:
        row = list(cells.get(entrant, ()))
        if any(cell.kind == PENDING for cell in row):
            raise ValueError(f"{entrant} has a game without a result before this round")
        took_part = any(c.kind in (GAME, FORFEIT, PAIRING_BYE) for c in row)
        if entrant not in pairing and not took_part:
            continue  # not numbered, as bbpPairings leaves out a player never paired
        if entrant in pairing:
            player = Player(
                id=entrant,
                rank=rank,
                score=_scores_before(row)[-1],
                played=sum(c.played for c in row),
                colours=[("w", "b")[c.seat] for c in row if c.played],
                eligible_for_bye=_eligible(row, win),
                unplayed_wins=sum(_unplayed_win(c, win) for c in row),
                floats=(_float(row, 1, before, loss), _float(row, 2, before, loss)),
            )
            player.colour_preference()
            found.append(player)
        rank += 1
    return found


def _scores_before(row: Sequence[Cell]) -> list[Fraction]:
    """[score before round 1, before round 2, ..., after the last round]."""
    totals = [Fraction(0)]
    for cell in row:
        totals.append(totals[-1] + units(cell.points))
    return totals


def _eligible(row: Sequence[Cell], win: Fraction) -> bool:
    """May have the pairing-allocated bye: had none, and no win's points unplayed."""
    return not any(_unplayed_win(c, win) for c in row)


def _unplayed_win(cell: Cell, win: Fraction) -> bool:
    """A pairing-allocated bye, or a win's points without playing."""
    return cell.kind == PAIRING_BYE or (not cell.played and units(cell.points) >= win)


def _float(
    row: Sequence[Cell], back: int, before: Mapping[str, list[Fraction]], loss: Fraction
) -> str | None:
    """The float (``DOWN``, ``UP`` or None) of the round ``back`` rounds ago: scores
    compared as they stood before that round."""
    if len(row) < back:
        return None
    index = len(row) - back
    cell = row[index]
    if not cell.played:
        return DOWN if units(cell.points) > loss else None
    mine = _scores_before(row)[index]
    theirs = before[cell.opponent][index]
    return DOWN if mine > theirs else UP if mine < theirs else None
