"""Swiss rounds (issue 11: "a fixed number of rounds; 2-player games paired by score with no
repeat pairings and colour/seat balance ... multiplayer games seated in tables by score
groups"; byes "scored as documented"; "late entry and withdrawal between rounds"). The
FIDE Dutch rules of 2-player rounds have their own tests (test_dutch*.py)."""

import itertools
import random
from collections import Counter

import pytest

from arbiter.tournaments.formats import GameResult, Round, Table, default_scoring, swiss_round
from arbiter.tournaments.formats.ranking import ranking
from tests.helpers import slow_unless
from tests.tournaments.simulate import fewest_repeats, pair_counts, random_result, run_swiss

TWO = default_scoring(2)
THREE = default_scoring(3)

QUICK_SEEDS = 5
"""Random events per property test in ``make check``; the other seeds are marked slow
(``make test`` runs them all)."""


def seeds(count: int) -> list:
    """Seeds ``0 .. count - 1`` as parameters, those past ``QUICK_SEEDS`` marked slow."""
    return slow_unless(range(count), lambda seed: seed < QUICK_SEEDS)


def seated(rnd: Round) -> list[str]:
    return [p for t in rnd.tables for p in t.players] + list(rnd.byes)


def test_round_one_pairs_everyone_once():
    entrants = [f"e{i}" for i in range(8)]
    rnd = swiss_round(entrants, [], {}, 2, 1, TWO)
    assert rnd.number == 1 and rnd.byes == ()
    assert sorted(seated(rnd)) == sorted(entrants)
    assert all(len(t.players) == 2 for t in rnd.tables)


def test_winners_meet_winners():
    # Round 1: e0-e1, e2-e3, e4-e5, e6-e7, the first of each pair won.
    entrants = [f"e{i}" for i in range(8)]
    results = [GameResult(1, (f"e{i}", f"e{i + 1}"), (1, 2)) for i in range(0, 8, 2)]
    rnd = swiss_round(entrants, results, {}, 2, 2, TWO)
    winners = {"e0", "e2", "e4", "e6"}
    for table in rnd.tables:
        assert (set(table.players) <= winners) or not (set(table.players) & winners)


def test_no_repeat_when_avoidable():
    entrants = ["a", "b", "c", "d"]
    results = [GameResult(1, ("a", "b"), (1, 2)), GameResult(1, ("c", "d"), (1, 2))]
    rnd = swiss_round(entrants, results, {}, 2, 2, TWO)
    assert {frozenset(t.players) for t in rnd.tables} == {frozenset("ac"), frozenset("bd")}


def test_a_repeat_when_unavoidable_is_made_rather_than_refused():
    results = [GameResult(1, ("a", "b"), (1, 2))]
    rnd = swiss_round(["a", "b"], results, {}, 2, 2, TWO)
    assert rnd.tables == (Table(("b", "a")),)  # and the colours swap


def test_colours_alternate():
    # Round 1: a (seat 0) beat b; c (seat 1) beat d. Winners meet: c had seat 1, so c
    # takes seat 0; losers meet: b had seat 1, so b takes seat 0.
    results = [GameResult(1, ("a", "b"), (1, 2)), GameResult(1, ("d", "c"), (2, 1))]
    rnd = swiss_round(["a", "b", "c", "d"], results, {}, 2, 2, TWO)
    assert set(rnd.tables) == {Table(("c", "a")), Table(("b", "d"))}


def test_bye_goes_to_the_lowest_ranked():
    entrants = ["a", "b", "c", "d", "e"]
    results = [GameResult(1, ("a", "b"), (1, 2)), GameResult(1, ("c", "d"), (1, 1))]
    # After round 1: a 1, e 1 (bye), c 0.5, d 0.5, b 0. e had the bye already.
    rnd = swiss_round(entrants, results, {"e": 1}, 2, 2, TWO)
    assert rnd.byes == ("b",)


def test_a_late_entrant_is_paired_and_has_fewer_games():
    rounds, results, byes = run_swiss([list("abcdef"), list("abcdef"), list("abcdefgh")], 2, seed=3)
    assert "g" in seated(rounds[2]) and "h" in seated(rounds[2])
    games = Counter(p for r in results for p in r.players)
    assert games["g"] == games["h"] == 1 and games["a"] == 3


def test_a_withdrawn_entrant_is_not_paired():
    rounds, results, _ = run_swiss([list("abcdef"), list("abcde"), list("abcd")], 2, seed=4)
    assert "f" not in seated(rounds[1]) and "e" not in seated(rounds[2])
    assert len(rounds[1].byes) == 1 and not rounds[2].byes


@pytest.mark.parametrize("seed", seeds(20))
def test_two_player_swiss_has_fewest_repeats_every_round(seed):
    rng = random.Random(seed)
    n = rng.randint(3, 11)
    entrants = [f"p{i}" for i in range(n)]
    rounds, results, byes = run_swiss([entrants] * rng.randint(2, 6), 2, seed)
    for number, rnd in enumerate(rounds, start=1):
        before = pair_counts([r for r in results if r.round < number])
        playing = [p for t in rnd.tables for p in t.players]
        made = sum(1 for t in rnd.tables if before[frozenset(t.players)])
        assert made == fewest_repeats(playing, 2, before), (seed, number)


@pytest.mark.parametrize("seed", seeds(20))
def test_two_player_seat_balance(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 20)
    entrants = [f"p{i}" for i in range(n)]
    rounds, results, byes = run_swiss([entrants] * rng.randint(3, 7), 2, seed)
    first = Counter(r.players[0] for r in results)
    second = Counter(r.players[1] for r in results)
    for e in entrants:
        assert abs(first[e] - second[e]) <= 2, (e, first[e], second[e])


@pytest.mark.parametrize("seed", seeds(8))
def test_nine_players_four_rounds_three_player_tables(seed):
    # The check: a Swiss of 9 over 4 rounds at 3-player tables, random results.
    entrants = [f"p{i}" for i in range(9)]
    rounds, results, byes = run_swiss([entrants] * 4, 3, seed)
    assert all(len(t.players) == 3 for r in rounds for t in r.tables)
    assert not byes
    assert Counter(p for r in results for p in r.players) == Counter({e: 4 for e in entrants})
    # 4 rounds at 3 can meet all 8 others exactly once: the look-ahead gets there.
    assert set(pair_counts(results).values()) == {1}


@pytest.mark.parametrize("seed", seeds(10))
def test_multiplayer_byes_rotate_to_the_lowest_without_one(seed):
    entrants = [f"p{i}" for i in range(10)]
    rng = random.Random(seed)
    scoring = THREE
    results, byes = [], Counter()
    for number in range(1, 6):
        rnd = swiss_round(entrants, results, byes, 3, number, scoring, rounds=5)
        assert len(rnd.byes) == 1
        order = [e for e, _ in ranking(entrants, results, byes, scoring)]
        fewest = min(byes[e] for e in entrants)
        eligible = [e for e in order if byes[e] == fewest]
        assert rnd.byes == (eligible[-1],)
        byes.update(rnd.byes)
        results.extend(random_result(rnd, rng))
    assert max(byes.values()) == 1 and sum(byes.values()) == 5


@pytest.mark.parametrize("seed", seeds(15))
def test_multiplayer_fewest_repeats_every_round(seed):
    rng = random.Random(seed)
    k = rng.choice([3, 4])
    n = rng.randint(k, 10)
    entrants = [f"p{i}" for i in range(n)]
    rounds, results, _ = run_swiss([entrants] * rng.randint(2, 5), k, seed)
    for number, rnd in enumerate(rounds, start=1):
        before = pair_counts([r for r in results if r.round < number])
        playing = [p for t in rnd.tables for p in t.players]
        made = sum(
            1
            for t in rnd.tables
            for pair in itertools.combinations(t.players, 2)
            if before[frozenset(pair)]
        )
        assert made == fewest_repeats(playing, k, before), (seed, number)


def test_multiplayer_tables_follow_score_groups():
    # 9 players at 3 after one round: the three winners sit together, then the seconds,
    # then the thirds (nobody of a group has met another of it).
    entrants = [f"p{i}" for i in range(9)]
    results = [
        GameResult(1, ("p0", "p1", "p2"), (1, 2, 3)),
        GameResult(1, ("p3", "p4", "p5"), (1, 2, 3)),
        GameResult(1, ("p6", "p7", "p8"), (1, 2, 3)),
    ]
    rnd = swiss_round(entrants, results, {}, 3, 2, THREE, rounds=2)
    tables = {frozenset(t.players) for t in rnd.tables}
    assert tables == {
        frozenset({"p0", "p3", "p6"}),
        frozenset({"p1", "p4", "p7"}),
        frozenset({"p2", "p5", "p8"}),
    }


@pytest.mark.parametrize("seed", seeds(30))
def test_property_every_entrant_sits_once_and_byes_are_the_remainder(seed):
    rng = random.Random(1000 + seed)
    k = rng.choice([2, 2, 3, 4])
    pool = [f"p{i}" for i in range(rng.randint(k + 1, 24))]
    entrants = pool[: rng.randint(k, len(pool))]
    by_round = []
    for _ in range(rng.randint(1, 6)):
        by_round.append(list(entrants))
        if rng.random() < 0.3 and len(entrants) > k:  # a withdrawal
            entrants.remove(rng.choice(entrants))
        if rng.random() < 0.3 and len(entrants) < len(pool):  # a late entry
            entrants.append(next(p for p in pool if p not in entrants))
    rounds, results, byes = run_swiss(by_round, k, seed)
    for rnd, active in zip(rounds, by_round):
        assert sorted(seated(rnd)) == sorted(active)
        assert len(rnd.byes) == len(active) % k
        assert all(len(t.players) == k for t in rnd.tables)
    # Nobody has two byes more than anyone entered from the start with them.
    games = Counter(p for r in results for p in r.players)
    for e in by_round[-1]:
        played_rounds = sum(1 for active in by_round if e in active)
        assert games[e] + byes[e] == played_rounds


def test_same_input_same_round():
    rounds_a, _, _ = run_swiss([[f"p{i}" for i in range(12)]] * 4, 3, seed=5)
    rounds_b, _, _ = run_swiss([[f"p{i}" for i in range(12)]] * 4, 3, seed=5)
    assert rounds_a == rounds_b


@pytest.mark.parametrize(
    "entrants,k", [(["a", "a", "b"], 2), (["a"], 2), (["a", "b"], 3), (["a", "b"], 1)]
)
def test_bad_input_is_refused(entrants, k):
    with pytest.raises(ValueError):
        swiss_round(entrants, [], {}, k, 1, default_scoring(max(k, 2)))


@pytest.mark.parametrize("seed", seeds(6))
@pytest.mark.parametrize("k,n,rounds", [(3, 9, 6), (4, 12, 6), (3, 12, 5)])
def test_multiplayer_seats_stay_balanced(seed, k, n, rounds):
    # tables.py, criterion 4 (seat balance): no one sits in one seat more than twice as
    # often as in another over the event (seat spread at most 2).
    _, results, _ = run_swiss([[f"p{i}" for i in range(n)]] * rounds, k, seed)
    seats: dict[str, Counter] = {}
    for result in results:
        for seat, player in enumerate(result.players):
            seats.setdefault(player, Counter())[seat] += 1
    for player, used in seats.items():
        assert max(used.values()) - min(used.get(s, 0) for s in range(k)) <= 2, player
