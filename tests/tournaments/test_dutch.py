"""The FIDE (Dutch) System for 2-player Swiss rounds (FIDE Handbook C.04.3, the rules
applied from July 2025; C.04.2 for the initial order), on small hand-made events. The
golden fixtures (test_dutch_golden.py) hold the full agreement with bbpPairings."""

from __future__ import annotations

from arbiter.tournaments.formats import (
    HALF_BYE,
    ZERO_BYE,
    GameResult,
    Round,
    Table,
    default_scoring,
    seeding_order,
    swiss_round,
    swiss_standings,
)
from arbiter.tournaments.formats.dutch import pair_round
from arbiter.tournaments.formats.history import record

TWO = default_scoring(2)


def win(number, white, black):
    return GameResult(number, (white, black), (1, 2))


def test_seeding_is_by_rating_then_entry_order_unrated_last():
    # C.04.2 initial order: rating, then (for us) the order of entry.
    ratings = {"ann": 1500, "bob": 1800, "cyd": 1500, "dee": None, "eve": 2100}
    assert seeding_order(["ann", "bob", "cyd", "dee", "eve"], ratings) == [
        "eve",
        "bob",
        "ann",
        "cyd",
        "dee",
    ]


def test_round_one_of_nine_is_top_half_against_bottom_half():
    # C.04.3 3.2: S1 (1-4) against S2 (5-8); the odd one out, the lowest, has the bye;
    # colours alternate from the top seed's (article 5.2.5).
    seeds = [f"s{i}" for i in range(1, 10)]
    rnd = swiss_round(seeds, [], {}, 2, 1, TWO, rounds=4, history=[], seeding=seeds)
    assert rnd.tables == (
        Table(("s1", "s5")),
        Table(("s6", "s2")),
        Table(("s3", "s7")),
        Table(("s8", "s4")),
    )
    assert rnd.byes == ("s9",)


def test_initial_colour_black_swaps_every_board():
    seeds = [f"s{i}" for i in range(1, 5)]
    rnd = swiss_round(
        seeds, [], {}, 2, 1, TWO, rounds=3, history=[], seeding=seeds, initial_colour="b"
    )
    assert rnd.tables == (Table(("s3", "s1")), Table(("s2", "s4")))


def test_a_higher_rated_late_seed_moves_the_pairing_numbers():
    # The seeding, not the entry order, decides round 1: "new" is rated highest.
    entries = ["a", "b", "c", "new"]
    seeds = seeding_order(entries, {"a": 1400, "b": 1300, "c": 1200, "new": 2000})
    rnd = swiss_round(entries, [], {}, 2, 1, TWO, rounds=3, history=[], seeding=seeds)
    assert rnd.tables == (Table(("new", "b")), Table(("c", "a")))


def played_round_one():
    """Round 1 of a, b, c, d: a beat c (a white), b beat d (d white)."""
    return [Round(1, (Table(("a", "c")), Table(("d", "b"))), ())], [
        win(1, "a", "c"),
        GameResult(1, ("d", "b"), (2, 1)),
    ]


def test_winners_meet_and_colours_alternate():
    # Scoregroups (1.3) and colour preferences (1.7, article 5): a had white, b black.
    history, results = played_round_one()
    seeds = ["a", "b", "c", "d"]
    rnd = swiss_round(seeds, results, {}, 2, 2, TWO, rounds=3, history=history, seeding=seeds)
    assert rnd.tables == (Table(("b", "a")), Table(("c", "d")))


def test_a_requested_half_point_bye_is_not_paired_and_scores_a_draw():
    history, results = played_round_one()
    seeds = ["a", "b", "c", "d", "e"]
    history[0] = Round(1, history[0].tables, ("e",))
    rnd = swiss_round(
        seeds,
        results,
        {"e": 1},
        2,
        2,
        TWO,
        rounds=3,
        history=history,
        seeding=seeds,
        requested_byes={"c": HALF_BYE},
    )
    assert rnd.requested_byes == (("c", HALF_BYE),)
    assert "c" not in {p for t in rnd.tables for p in t.players} and not rnd.byes
    results += [GameResult(2, t.players, (1, 1)) for t in rnd.tables]
    rows = {r.entrant: r for r in swiss_standings(seeds, [*history, rnd], results, TWO)}
    assert rows["c"].points == 0.5 and dict(rows["c"].byes)["H"] == 1


def test_a_zero_point_bye_scores_nothing():
    history, results = played_round_one()
    seeds = ["a", "b", "c", "d"]
    rnd = swiss_round(
        seeds,
        results,
        {},
        2,
        2,
        TWO,
        rounds=3,
        history=history,
        seeding=seeds,
        requested_byes={"d": ZERO_BYE},
    )
    assert rnd.requested_byes == (("d", ZERO_BYE),)
    assert len(rnd.tables) == 1 and rnd.byes == ("c",)  # c: the lowest score left
    results += [GameResult(2, rnd.tables[0].players, (1, 2))]
    rows = {r.entrant: r for r in swiss_standings(seeds, [*history, rnd], results, TWO)}
    assert rows["d"].points == 0 and dict(rows["d"].byes)["Z"] == 1


def test_the_bye_skips_a_late_entrant_in_favour_of_a_player_with_more_games():
    # 2025 rules (C.9): the bye goes to a player with the fewest unplayed games among
    # those of the lowest score: c and d lost round 1, "late" entered at round 2 with
    # no points either; the bye goes to c or d, not to the late entrant.
    history, results = played_round_one()
    seeds = ["a", "b", "c", "d", "late"]
    rnd = swiss_round(seeds, results, {}, 2, 2, TWO, rounds=3, history=history, seeding=seeds)
    assert rnd.byes and rnd.byes[0] in {"c", "d"}


def test_no_second_pairing_allocated_bye():
    # C.2: c had the bye in round 1 and is the lowest; someone else gets it now.
    history = [Round(1, (Table(("a", "b")),), ("c",))]
    results = [GameResult(1, ("a", "b"), (1, 1))]
    seeds = ["a", "b", "c"]
    rnd = swiss_round(seeds, results, {"c": 1}, 2, 2, TWO, rounds=3, history=history)
    assert rnd.byes in (("a",), ("b",))


def test_a_forfeit_is_not_a_game_played():
    # FIDE: a forfeited game gives no colour and does not stop the two meeting again.
    history = [Round(1, (Table(("a", "b")),), ())]
    results = [GameResult(1, ("a", "b"), (1, 2), forfeited=("b",))]
    cells = record(["a", "b"], history, results, TWO)
    pairing = pair_round(["a", "b"], ["a", "b"], cells, TWO, 3)
    assert pairing.relaxed == 0 and pairing.boards == (("a", "b"),)  # no colour yet: seeds
    assert cells["a"][0].points == 1 and cells["b"][0].points == 0


def test_when_the_rules_leave_no_pairing_a_repeat_is_made_and_said():
    # Two entrants who met: C.1 forbids a second game; the engine relaxes it (and says
    # so) rather than refusing; colours swap.
    history = [Round(1, (Table(("a", "b")),), ())]
    results = [win(1, "a", "b")]
    cells = record(["a", "b"], history, results, TWO)
    pairing = pair_round(["a", "b"], ["a", "b"], cells, TWO, 3)
    assert pairing.relaxed == 2 and pairing.boards == (("b", "a"),)


def test_the_old_interface_without_history_still_pairs():
    # Callers that keep no history: rounds are rebuilt from the results.
    _, results = played_round_one()
    rnd = swiss_round(["a", "b", "c", "d"], results, {}, 2, 2, TWO, rounds=3)
    assert {frozenset(t.players) for t in rnd.tables} == {frozenset("ab"), frozenset("cd")}
