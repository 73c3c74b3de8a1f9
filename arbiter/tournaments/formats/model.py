"""The values a tournament is made of: tables, rounds, game results, scoring, standings.

All are frozen dataclasses holding entrant ids (strings; the orchestration uses the entry's
public id). Interface fixed in notes/TOURNAMENTS.md; nothing here does I/O.

Byes, with the letters of the FIDE Tournament Report File (TRF-2016 and TRF-2026, FIDE
Handbook C.04 Annex 2) that name them:
- ``PAIRING_BYE`` ("U"): the pairing-allocated bye, the odd one out of a round
  (``Round.byes``); scores ``Scoring.bye_points``.
- ``HALF_BYE`` ("H"): a half-point bye the entrant asked for before the round was paired;
  scores ``Scoring.half_bye`` (a draw's points).
- ``FULL_BYE`` ("F"): a full-point bye the organiser grants; scores ``Scoring.full_bye``
  (a win's points).
- ``ZERO_BYE`` ("Z"): a zero-point bye: the entrant asked to sit the round out, or is
  absent from it (not entered yet, withdrawn); scores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

PAIRING_BYE = "U"
HALF_BYE = "H"
FULL_BYE = "F"
ZERO_BYE = "Z"
REQUESTED_BYES = (HALF_BYE, FULL_BYE, ZERO_BYE)
"""The byes set before a round is paired (``Round.requested_byes``)."""


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
    byes: entrants who sit this round out and score ``Scoring.bye_points`` (the
        pairing-allocated bye; in a round robin, the entrant who meets nobody this round).
    requested_byes: (entrant, ``HALF_BYE`` | ``FULL_BYE`` | ``ZERO_BYE``) for the entrants
        who were not paired because a bye was set for them before the round was paired.
    relaxed: 2-player Swiss: how many of the absolute rules the pairing had to give up,
        as ``dutch_weights.RELAXATIONS`` lists them (0: every rule held).
    """

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    requested_byes: tuple[tuple[str, str], ...] = ()
    relaxed: int = 0


@dataclass(frozen=True)
class GameResult:
    """The outcome of one finished game, as the engine ranked it.

    round: the round the game belongs to (1-based).
    players: entrant ids in seat order, as in the ``Table``.
    places: one per player, 1 = first; equal numbers are a tie. Both competition ranking
        (1, 1, 3) and dense ranking (1, 1, 2) are accepted: only the order matters.
    forfeited: the players who lost by forfeit (absent: the game was decided without
        them). Their game counts as not played, as FIDE counts a forfeit: they score
        nothing (TRF "-"), a player at the table who did not forfeit scores by place
        (TRF "+"), and for pairing the game gives no colour and does not stop the two
        meeting again. Every player forfeiting is a double forfeit: nobody scores.
    """

    round: int
    players: tuple[str, ...]
    places: tuple[int, ...]
    forfeited: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scoring:
    """How a game and a bye score.

    place_points: points for 1st, 2nd, ... at a full table (non-increasing). Tied players
        share the average of the points of the places they span.
    bye_points: what one pairing-allocated bye scores.
    A half-point bye scores a draw's points (the mean of ``place_points``), a full-point
    bye a win's (first place), a zero-point bye and a forfeit loss nothing: as the TRF's
    scoring line (``162``: W, D, L, P) can say them.
    """

    place_points: tuple[float, ...]
    bye_points: float

    @property
    def half_bye(self) -> float:
        """Points of a half-point bye: the mean of ``place_points`` (a 2-player draw)."""
        return sum(self.place_points) / len(self.place_points)

    @property
    def full_bye(self) -> float:
        """Points of a full-point bye: first place's."""
        return self.place_points[0]

    def bye_value(self, kind: str) -> float:
        """Points of one bye of ``kind`` (``PAIRING_BYE``, ``HALF_BYE``, ``FULL_BYE``,
        ``ZERO_BYE``). Raises ValueError for another letter."""
        values = {
            PAIRING_BYE: self.bye_points,
            HALF_BYE: self.half_bye,
            FULL_BYE: self.full_bye,
            ZERO_BYE: 0.0,
        }
        if kind not in values:
            raise ValueError(f"no bye is called {kind!r}")
        return values[kind]


@dataclass(frozen=True)
class Standing:
    """One line of the standings.

    rank: 1-based place in the standings; entrants tied on every criterion share it
        (competition ranking: 1, 2, 2, 4).
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
