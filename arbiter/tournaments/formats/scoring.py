"""Points per game from the engine's places, and the default scoring per table size.

Ties share the average of the points of the places they span (the usual "split the places"
rule: a 2-player draw under (1, 0) scores 1/2 each; two players tied first at a 3-player
table under (1, 1/2, 0) score 3/4 each).
"""

from __future__ import annotations

from arbiter.tournaments.formats.model import GameResult, Scoring


def default_scoring(table_size: int) -> Scoring:
    """The scoring a tournament gets unless its organiser configures one.

    Takes the number of players per table (>= 2). Returns:
    - 2 players: win 1, loss 0 (so a draw 1/2), bye 1 - the FIDE convention for a
      pairing-allocated bye (FIDE Handbook C.04, "a player who receives a pairing-allocated
      bye receives as many points as are rewarded for a win").
    - k > 2 players: places score (k-1, k-2, ..., 0) / (k-1), i.e. 1 for first down to 0 for
      last; a bye scores 1/2, the mean score of a seat at a full table, so that the bye
      neither rewards nor punishes the entrant who sits out (in a k-player round robin
      some entrants get one bye more than others; see ``round_robin_schedule``).
    Raises ValueError for a table size below 2.
    """
    if table_size < 2:
        raise ValueError(f"a table needs at least 2 players, not {table_size}")
    if table_size == 2:
        return Scoring(place_points=(1.0, 0.0), bye_points=1.0)
    last = table_size - 1
    return Scoring(place_points=tuple((last - i) / last for i in range(table_size)), bye_points=0.5)


def game_points(result: GameResult, scoring: Scoring) -> dict[str, float]:
    """Points each player of one game scores.

    Takes a result and a scoring; players are ordered by place and tied players share the
    average of ``place_points`` over the positions they occupy (a table smaller than the
    scoring uses its first positions). Returns {entrant: points}. Raises ValueError when
    the result is malformed (lengths differ, a player twice, more players than places).
    """
    players, places = result.players, result.places
    if len(players) != len(places):
        raise ValueError(f"round {result.round}: {len(players)} players but {len(places)} places")
    if len(set(players)) != len(players):
        raise ValueError(f"round {result.round}: a player sits twice at one table")
    if len(players) > len(scoring.place_points):
        raise ValueError(
            f"round {result.round}: {len(players)} players but the scoring has "
            f"points for {len(scoring.place_points)} places"
        )
    order = sorted(range(len(players)), key=lambda i: places[i])
    points: dict[str, float] = {}
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and places[order[end + 1]] == places[order[start]]:
            end += 1
        share = sum(scoring.place_points[start : end + 1]) / (end - start + 1)
        for position in range(start, end + 1):
            points[players[order[position]]] = share
        start = end + 1
    return points


def pairwise_score(result: GameResult, me: str, other: str) -> float:
    """1 when ``me`` placed above ``other`` in this game, 1/2 on the same place, 0 below."""
    place = dict(zip(result.players, result.places))
    if place[me] < place[other]:
        return 1.0
    return 0.5 if place[me] == place[other] else 0.0
