"""Round-robin schedules (issue 11: "every pairing once; for games of k players, a schedule
of k-player tables in which pairs meet as evenly as possible")."""

import itertools
import random
from collections import Counter

import pytest

from arbiter.tournaments.formats import default_scoring, round_robin_schedule, standings
from tests.tournaments.simulate import random_result


def meetings(rounds, entrants):
    met = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            met.update(itertools.combinations(sorted(table.players), 2))
    return [met[pair] for pair in itertools.combinations(sorted(entrants), 2)]


def every_entrant_once_per_round(rounds, entrants):
    for rnd in rounds:
        seated = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
        assert sorted(seated) == sorted(entrants), rnd.number


def test_eight_players_follow_fides_berger_table():
    # FIDE Handbook C.05 Annex 1, the table for 7 or 8 players (white first).
    rounds = round_robin_schedule([str(i) for i in range(1, 9)], 2)
    assert [" ".join("-".join(t.players) for t in r.tables) for r in rounds] == [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ]


def test_seven_players_sit_out_where_the_eighth_number_would_be():
    rounds = round_robin_schedule([str(i) for i in range(1, 8)], 2)
    assert [r.byes for r in rounds] == [("1",), ("5",), ("2",), ("6",), ("3",), ("7",), ("4",)]
    assert " ".join("-".join(t.players) for t in rounds[1].tables) == "6-4 7-3 1-2"


@pytest.mark.parametrize("n", range(2, 15))
def test_two_players_every_pair_meets_exactly_once(n):
    entrants = [f"e{i}" for i in range(n)]
    rounds = round_robin_schedule(entrants, 2)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    every_entrant_once_per_round(rounds, entrants)
    assert set(meetings(rounds, entrants)) == {1}
    byes = Counter(p for r in rounds for p in r.byes)
    assert byes == (Counter(entrants) if n % 2 else Counter())


@pytest.mark.parametrize("n", range(2, 15))
def test_two_players_seat_balance_differs_by_at_most_one(n):
    entrants = [f"e{i}" for i in range(n)]
    rounds = round_robin_schedule(entrants, 2)
    first = Counter(t.players[0] for r in rounds for t in r.tables)
    second = Counter(t.players[1] for r in rounds for t in r.tables)
    for e in entrants:
        assert abs(first[e] - second[e]) <= (1 if n % 2 == 0 else 0)


# (entrants, table size) -> the evenness the module docstring promises: (min, max) meetings.
EVENNESS = {(9, 3): (1, 1), (16, 4): (1, 1), (10, 3): (1, 2), (5, 3): (1, 2)}


@pytest.mark.parametrize("n,k", sorted(EVENNESS))
def test_multiplayer_pairs_meet_as_evenly_as_stated(n, k):
    entrants = [f"e{i}" for i in range(n)]
    rounds = round_robin_schedule(entrants, k)
    every_entrant_once_per_round(rounds, entrants)
    assert all(len(t.players) == k for r in rounds for t in r.tables)
    met = meetings(rounds, entrants)
    assert (min(met), max(met)) == EVENNESS[(n, k)]
    byes = Counter(p for r in rounds for p in r.byes)
    assert max(byes[e] for e in entrants) - min(byes[e] for e in entrants) <= 1


def test_nine_players_at_three_meet_everyone_exactly_once_in_four_rounds():
    rounds = round_robin_schedule([f"e{i}" for i in range(9)], 3)
    assert len(rounds) == 4 and all(not r.byes for r in rounds)


def test_multiplayer_seats_are_balanced():
    entrants = [f"e{i}" for i in range(9)]
    rounds = round_robin_schedule(entrants, 3)
    seat0 = Counter(t.players[0] for r in rounds for t in r.tables)
    # 12 tables over 9 entrants: everyone sits first once or twice.
    assert {seat0[e] for e in entrants} <= {1, 2}


def test_same_entrants_same_schedule():
    entrants = [f"e{i}" for i in range(10)]
    assert round_robin_schedule(entrants, 3) == round_robin_schedule(entrants, 3)


@pytest.mark.parametrize("entrants,k", [(["a", "a", "b"], 2), (["a", "b"], 1), (["a", "b"], 3)])
def test_bad_input_is_refused(entrants, k):
    with pytest.raises(ValueError):
        round_robin_schedule(entrants, k)


@pytest.mark.parametrize("seed", range(10))
def test_five_players_two_player_round_robin_played_out(seed):
    # The check: a round robin of 5 at 2-player games with random results.
    entrants = ["ann", "bob", "cy", "dee", "eve"]
    rng = random.Random(seed)
    rounds = round_robin_schedule(entrants, 2)
    results = [r for rnd in rounds for r in random_result(rnd, rng)]
    byes = Counter(p for rnd in rounds for p in rnd.byes)
    rows = standings(entrants, results, byes, default_scoring(2))
    assert {(r.games, r.byes) for r in rows} == {(4, 1)}
    assert set(meetings(rounds, entrants)) == {1}
    # Every game's point is shared out, and each bye scores 1.
    assert sum(r.points for r in rows) == len(results) + 5
