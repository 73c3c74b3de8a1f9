"""Track movement: the Bugs in a strict order, one per space.

A Track is a list of Bug ids, the Bug on space 1 (the front, 1st place) first and the
Bug on the last space (the stone, last place) last. Every function returns a new list
and leaves its argument alone.

A Bug that moves N spaces takes its new space and every Bug it passes shifts one
space the other way (rules/dark-horse.md, "Gameplay", the -3 example): in list terms
the Bug is taken out and put back N places nearer the front or the back. A move past
either end stops at the end (shared/components/dark-horse.md, "Decisions on rules
questions").
"""

from __future__ import annotations

from collections.abc import Sequence

FRONT = "front"
"""The end of the placement row nearest the finish (space 1)."""
BACK = "back"
"""The end of the placement row nearest the start (the last space, the stone)."""


def place_of(track: Sequence[str], bug: str) -> int:
    """Return the space (1 = first) of ``bug`` (rules/dark-horse.md, "End of the Game").

    :raises ValueError: ``bug`` is not on the Track.
    """
    return track.index(bug) + 1


def can_move(track: Sequence[str], bug: str, forward: bool) -> bool:
    """Return True when ``bug`` can move at least one space forward (toward space 1) or
    backward (toward the last space): it is not on that end of the Track
    (rules/dark-horse.md, "Gameplay": "the pictured Bug must be moved")."""
    space = place_of(track, bug)
    return space > 1 if forward else space < len(track)


def move_to(track: Sequence[str], bug: str, space: int) -> list[str]:
    """Return the Track after ``bug`` goes to ``space`` (clamped to the Track), the
    Bugs between its old and new space each shifting one space the other way
    (rules/dark-horse.md, "Gameplay", the -3 example; "Special Cards")."""
    space = max(1, min(len(track), space))
    rest = [b for b in track if b != bug]
    rest.insert(space - 1, bug)
    return rest


def move_bug(track: Sequence[str], bug: str, steps: int) -> list[str]:
    """Return the Track after ``bug`` moves ``steps`` spaces, forward (toward space 1)
    when positive and backward when negative, stopping at either end
    (rules/dark-horse.md, "Gameplay")."""
    return move_to(track, bug, place_of(track, bug) - steps)


def move_positions(
    track: Sequence[str], positions: Sequence[int], steps: int, forward: bool
) -> list[str]:
    """Return the Track after the Bugs on ``positions`` each move ``steps`` spaces, all
    in the same direction (rules/dark-horse.md, "Gameplay", board positions card).

    The Bugs are those on the positions before anything moves. They move one at a
    time: the front Bug first when moving forward, the rear Bug first when moving
    back, each stopping at the end (shared/components/dark-horse.md, "Decisions").
    """
    order = sorted(positions, reverse=not forward)
    bugs = [track[p - 1] for p in order]
    new = list(track)
    for bug in bugs:
        new = move_bug(new, bug, steps if forward else -steps)
    return new


def run_for_your_life(track: Sequence[str], from_space: int, to_space: int) -> list[str]:
    """Return the Track after the Bug on ``from_space`` (the cherry, space 3) goes
    straight to ``to_space`` (the stone, the last space) and the Bugs that were behind
    it each move one space forward (rules/dark-horse.md, "Special Cards")."""
    return move_to(track, track[from_space - 1], to_space)


def add_to_row(row: Sequence[str], bug: str, end: str | None) -> list[str]:
    """Return the placement row with ``bug`` added at one ``end`` (``front`` or
    ``back``; ``None`` for the first Bug), never between two Bugs already placed
    (rules/dark-horse.md, "Setup" 3). The row is listed front first."""
    if not row:
        return [bug]
    return [bug, *row] if end == FRONT else [*row, bug]
