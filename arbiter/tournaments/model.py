"""The values a tournament is made of: tables, rounds, game results, scoring, standings.

All are frozen dataclasses holding entrant ids (strings; the orchestration uses the entry's
public id). Interface fixed in notes/TOURNAMENTS.md; nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """One game of a round.

    players: entrant ids in seat order (seat 0 first; for 2-player games seat 0 is "white",
    the player who moves first).
    """

    players: tuple[str, ...]


@dataclass(frozen=True)
class Round:
    """One round of a tournament.

    number: 1-based round number.
    tables: the games of the round.
    byes: entrants who sit this round out and score ``Scoring.bye_points``.
    """

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class GameResult:
    """The outcome of one finished game, as the engine ranked it.

    round: the round the game belongs to (1-based).
    players: entrant ids in seat order, as in the ``Table``.
    places: one per player, 1 = first; equal numbers are a tie. Both competition ranking
        (1, 1, 3) and dense ranking (1, 1, 2) are accepted: only the order matters.
    """

    round: int
    players: tuple[str, ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class Scoring:
    """How a game and a bye score.

    place_points: points for 1st, 2nd, ... at a full table (non-increasing). Tied players
        share the average of the points of the places they span.
    bye_points: what one bye scores.
    """

    place_points: tuple[float, ...]
    bye_points: float


@dataclass(frozen=True)
class Standing:
    """One line of the standings.

    rank: 1-based position in the sorted standings (entrants tied on every criterion get
        consecutive ranks in entrant-id order).
    entrant: the entrant id.
    points: game points plus bye points.
    games: games played (results the entrant appears in).
    byes: byes received.
    buchholz: sum over games of the table-mates' total points (2 players: the opponent's).
    sonneborn_berger: sum over games of (my points in that game x the sum of my table-mates'
        total points); for 2 players the classic Sonneborn-Berger.
    head_to_head: pairwise score (1 placed above, 1/2 same place, 0 below) against every
        table-mate who is tied with me on points, summed over games.
    """

    rank: int
    entrant: str
    points: float
    games: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    head_to_head: float
