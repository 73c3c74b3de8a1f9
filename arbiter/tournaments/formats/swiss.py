"""Swiss rounds: each round paired from the results so far.

- 2-player games: the FIDE (Dutch) System, C.04.3 with the rules applied from July 2025
  (``dutch``): pairing numbers by rating then entry order (``seeding``), scoregroups,
  colour (first-move seat) preferences with the absolute colour rules, the
  pairing-allocated bye (lowest score, fewest unplayed games; never twice, never after a
  win's points unplayed), requested half-point and zero-point byes and full-point byes.
  The same pairs and colours as bbpPairings, the FIDE-endorsed engine, on every golden
  fixture (tests/tournaments/test_dutch_golden.py).
- 3 to 6 players a table: the project's own rules (``tables``: what they optimise, in
  order).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from arbiter.tournaments.formats.dutch import pair_round
from arbiter.tournaments.formats.history import record
from arbiter.tournaments.formats.model import REQUESTED_BYES, GameResult, Round, Scoring, Table
from arbiter.tournaments.formats.ranking import bye_takers, ranking
from arbiter.tournaments.formats.seats import seat_history, seat_order
from arbiter.tournaments.formats.tables import meetings, seat_tables

# Scores become integers for exact k-player costs: points * SCALE, rounded.
SCALE = 1000


def seeding_order(entrants: Sequence[str], ratings: Mapping[str, float | None]) -> list[str]:
    """Pairing-number order (FIDE C.04.2, initial order): the highest rating first, then
    the order given (entry order); an entrant without a rating comes after those with
    one."""
    position = {e: i for i, e in enumerate(entrants)}

    def key(entrant: str) -> tuple:
        rating = ratings.get(entrant)
        return (rating is None, -(rating or 0), position[entrant])

    return sorted(entrants, key=key)


def swiss_round(
    entrants: Sequence[str],
    results: Sequence[GameResult],
    byes: Mapping[str, int],
    table_size: int,
    number: int,
    scoring: Scoring,
    rounds: int | None = None,
    *,
    history: Sequence[Round] | None = None,
    seeding: Sequence[str] | None = None,
    requested_byes: Mapping[str, str] | None = None,
    initial_colour: str = "w",
) -> Round:
    """Pair round ``number`` of a Swiss (see the module).

    Takes the entrants taking part in this round (present: entered, not withdrawn), every
    result so far, the pairing-allocated byes so far ({entrant: count}), the table size
    (>= 2), the 1-based round number, the scoring, the tournament's number of rounds
    (None: more follow), and:
    - history: the rounds paired so far (with their byes and requested byes). 2-player
      pairing needs it (which round a bye was in decides floats); without it the rounds
      are rebuilt from ``results`` and a bye is put in a round the entrant has no game.
    - seeding: every entrant of the event, withdrawn ones too, in pairing-number order
      (``seeding_order``); default: ``entrants`` then anyone else ``history`` names.
    - requested_byes: {entrant: "H" | "F" | "Z"} set for this round: not paired.
    - initial_colour: the colour ("w" seat 0, "b" seat 1) of the top seed in round 1.
    Returns the ``Round``: 2-player tables in board order as (seat 0, seat 1), byes,
    requested byes, and how many absolute rules had to be given up (``Round.relaxed``).
    Raises ValueError for repeated ids, a table size below 2, too few entrants for a
    table, or a requested bye of an unknown letter or a non-entrant.
    """
    active = list(entrants)
    if len(set(active)) != len(active):
        raise ValueError("an entrant is listed twice")
    if table_size < 2:
        raise ValueError(f"a table needs at least 2 players, not {table_size}")
    if len(active) < table_size:
        raise ValueError(f"{len(active)} entrants cannot fill a table of {table_size}")
    requested = dict(requested_byes or {})
    for entrant, kind in requested.items():
        if kind not in REQUESTED_BYES or entrant not in active:
            raise ValueError(f"no {kind!r} bye for {entrant!r} in round {number}")
    set_byes = tuple(sorted(requested.items()))
    to_pair = [e for e in active if e not in requested]
    if table_size == 2:
        paired = history if history is not None else _rebuilt(active, results, byes)
        order = list(seeding) if seeding is not None else list(active)
        order += [e for e in _named(paired) if e not in order]
        cells = record(order, paired, results, scoring, upto=number - 1)
        found = pair_round(order, to_pair, cells, scoring, rounds or number + 1, initial_colour)
        tables = tuple(Table(board) for board in found.boards)
        bye = (found.bye,) if found.bye else ()
        return Round(number, tables, bye, set_byes, found.relaxed)
    return _multiplayer(to_pair, results, byes, table_size, number, scoring, rounds, set_byes)


def _multiplayer(
    active: list[str],
    results: Sequence[GameResult],
    byes: Mapping[str, int],
    k: int,
    number: int,
    scoring: Scoring,
    rounds: int | None,
    set_byes: tuple,
) -> Round:
    """A round of k-player tables (``tables``)."""
    ranked = ranking(active, results, byes, scoring)
    order = [e for e, _ in ranked]
    sitting_out = bye_takers(order, byes, len(active) % k)
    playing = [(e, round(p * SCALE)) for e, p in ranked if e not in sitting_out]
    met = meetings(results)
    history = seat_history(r.players for r in sorted(results, key=lambda r: r.round))
    more_to_come = rounds is None or number < rounds
    groups = seat_tables(playing, k, met, history, more_to_come) if playing else []
    position = {e: i for i, e in enumerate(order)}
    tables = sorted(
        (seat_order(sorted(g, key=position.get), history) for g in groups),
        key=lambda t: min(position[p] for p in t),
    )
    return Round(number, tuple(Table(t) for t in tables), tuple(sitting_out), set_byes)


def _named(rounds: Sequence[Round]) -> list[str]:
    """Everyone a round names, in order of appearance."""
    found: dict[str, None] = {}
    for rnd in sorted(rounds, key=lambda r: r.number):
        for table in rnd.tables:
            found.update(dict.fromkeys(table.players))
        found.update(dict.fromkeys(rnd.byes))
        found.update(dict.fromkeys(e for e, _ in rnd.requested_byes))
    return list(found)


def _rebuilt(
    entrants: Sequence[str], results: Sequence[GameResult], byes: Mapping[str, int]
) -> list[Round]:
    """Rounds rebuilt from results alone (for callers that keep no history): each
    result's table in its round; an entrant's byes in the latest rounds without a game
    of theirs (a guess: the rounds they were absent are not known)."""
    last = max((r.round for r in results), default=0)
    tables: dict[int, list[Table]] = {n: [] for n in range(1, last + 1)}
    busy: dict[str, set[int]] = {}
    for result in results:
        tables[result.round].append(Table(result.players))
        for player in result.players:
            busy.setdefault(player, set()).add(result.round)
    given: Counter = Counter()
    for entrant, count in byes.items():
        free = [n for n in range(last, 0, -1) if n not in busy.get(entrant, set())]
        for n in free[:count]:
            given[(n, entrant)] += 1
    return [
        Round(n, tuple(tables[n]), tuple(e for (m, e) in given if m == n))
        for n in range(1, last + 1)
    ]
