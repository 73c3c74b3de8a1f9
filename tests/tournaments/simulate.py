"""Helpers for the tournament tests: random results, random Swiss tournaments, and a brute
force (written apart from the package) of the fewest repeat meetings a round can have."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from arbiter.tournaments.formats import GameResult, Round, default_scoring, swiss_round


def random_result(rnd: Round, rng: random.Random, draws: float = 0.2) -> list[GameResult]:
    """Random places for every table of ``rnd`` (2-player: a draw with chance ``draws``;
    k-player: a tie for first now and then)."""
    results = []
    for table in rnd.tables:
        k = len(table.players)
        places = list(range(1, k + 1))
        rng.shuffle(places)
        if rng.random() < draws:
            places = [1 if p == 2 else p for p in places]
        results.append(GameResult(rnd.number, table.players, tuple(places)))
    return results


def pair_counts(results) -> Counter:
    """{frozenset pair: meetings} over results or tables (anything with ``players``)."""
    return Counter(frozenset(p) for r in results for p in itertools.combinations(r.players, 2))


def splits(players: list[str], k: int):
    """Every way to seat ``players`` at unordered tables of k."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for mates in itertools.combinations(rest, k - 1):
        left = [p for p in rest if p not in mates]
        for tail in splits(left, k):
            yield [(head, *mates)] + tail


def fewest_repeats(players: list[str], k: int, met: Counter) -> int:
    """The least number of (table pairs that met before) over every split of ``players``."""
    return min(
        sum(1 for t in split for p in itertools.combinations(t, 2) if met[frozenset(p)])
        for split in splits(sorted(players), k)
    )


def run_swiss(entrants_by_round: list[list[str]], k: int, seed: int, draws: float = 0.2):
    """Play a Swiss with random results; ``entrants_by_round[r]`` are round r+1's entrants
    (seeded in the order they first appear).

    Returns (rounds, results, byes Counter).
    """
    rng = random.Random(seed)
    scoring = default_scoring(k)
    results: list[GameResult] = []
    byes: Counter = Counter()
    rounds = []
    seeding = list(dict.fromkeys(e for entrants in entrants_by_round for e in entrants))
    for number, entrants in enumerate(entrants_by_round, start=1):
        rnd = swiss_round(
            entrants,
            results,
            byes,
            k,
            number,
            scoring,
            rounds=len(entrants_by_round),
            history=rounds,
            seeding=seeding,
        )
        rounds.append(rnd)
        byes.update(rnd.byes)
        results.extend(random_result(rnd, rng, draws))
    return rounds, results, byes
