"""Standings as organisers read them (issue 28): after any round, a crosstable with
bye and forfeit marks, shared ranks for complete ties; round robins with the tie-breaks
FIDE recommends there (C.07: direct encounter, wins, Sonneborn-Berger), byes of an odd
number that are no wins, and the withdrawal rule (FIDE Tournament Rules, C.06: results
cancelled under half the games played, kept from half on, the rest forfeited); the CSV
(issue 22 item 9: formula cells escaped; numbers, not Python booleans)."""

from __future__ import annotations

import csv
import io

import pytest

from arbiter.tournaments.formats import (
    GameResult,
    Round,
    Table,
    cell_label,
    default_scoring,
    round_robin_schedule,
    round_robin_standings,
    standings,
    standings_csv,
    swiss_standings,
)

TWO = default_scoring(2)


def win(number, white, black):
    return GameResult(number, (white, black), (1, 2))


def draw(number, white, black):
    return GameResult(number, (white, black), (1, 1))


def by_entrant(rows):
    return {r.entrant: r for r in rows}


def swiss_event():
    """Round 1: a beat b, c drew d, e has the bye. Round 2: e beat a, b forfeited to c
    (c wins by forfeit), d asked for a half-point bye. Round 3 is being played: a-c,
    with d's pairing-allocated bye."""
    rounds = [
        Round(1, (Table(("a", "b")), Table(("c", "d"))), ("e",)),
        Round(2, (Table(("e", "a")), Table(("b", "c"))), (), (("d", "H"),)),
        Round(3, (Table(("a", "c")), Table(("b", "e"))), ("d",)),
    ]
    results = [
        win(1, "a", "b"),
        draw(1, "c", "d"),
        win(2, "e", "a"),
        GameResult(2, ("b", "c"), (2, 1), forfeited=("b",)),
        win(3, "b", "e"),
    ]
    return rounds, results


def test_standings_are_after_the_last_round_over_by_default():
    # Issue 28: the bye of the round still being played was counted.
    rounds, results = swiss_event()
    rows = by_entrant(swiss_standings("abcde", rounds, results, TWO))
    assert rows["d"].points == 1.0  # the round-1 draw and the round-2 half-point bye
    assert len(rows["a"].cells) == 2
    assert dict(rows["d"].byes) == {"U": 0, "H": 1, "F": 0, "Z": 0}


def test_standings_after_any_round():
    rounds, results = swiss_event()
    after_one = by_entrant(swiss_standings("abcde", rounds, results, TWO, after_round=1))
    assert {e: r.points for e, r in after_one.items()} == {
        "a": 1.0,
        "b": 0.0,
        "c": 0.5,
        "d": 0.5,
        "e": 1.0,
    }
    with pytest.raises(ValueError, match="not over"):
        swiss_standings("abcde", rounds, results, TWO, after_round=3)


def test_forfeits_and_byes_are_marked_and_counted_apart_from_games():
    rounds, results = swiss_event()
    rows = swiss_standings("abcde", rounds, results, TWO)
    got = by_entrant(rows)
    c = got["c"]
    assert (c.points, c.games, c.wins, c.forfeits) == (1.5, 1, 1, (1, 0))
    assert (got["b"].games, got["b"].forfeits) == (1, (0, 1))
    numbers = {r.entrant: i for i, r in enumerate(rows, start=1)}
    assert [cell_label(c, numbers) for c in got["c"].cells] == [
        f"{numbers['d']}w=",
        f"{numbers['b']}b+",
    ]
    assert [cell_label(c, numbers) for c in got["e"].cells] == ["U", f"{numbers['a']}w1"]
    assert cell_label(got["d"].cells[1], numbers) == "H"


def test_complete_ties_share_a_rank_whatever_the_ids():
    # Two separate draws: everyone equal on every criterion.
    rounds = [Round(1, (Table(("z", "y")), Table(("b", "a"))), ())]
    results = [draw(1, "z", "y"), draw(1, "b", "a")]
    rows = swiss_standings(["z", "y", "b", "a"], rounds, results, TWO)
    assert [r.rank for r in rows] == [1, 1, 1, 1]
    assert [r.entrant for r in rows] == ["z", "y", "b", "a"]  # the order given, not ids
    legacy = standings(["z", "y", "b", "a"], results, {}, TWO)
    assert [r.rank for r in legacy] == [1, 1, 1, 1]


def test_ties_broken_by_a_criterion_still_rank_apart():
    rounds = [Round(1, (Table(("a", "b")), Table(("c", "d"))), ())]
    results = [win(1, "a", "b"), win(1, "c", "d")]
    rows = swiss_standings("abcd", rounds, results, TWO)
    assert [(r.entrant, r.rank) for r in rows] == [("a", 1), ("c", 1), ("b", 3), ("d", 3)]


# ----------------------------------------------------------------------- round robin


def play(schedule, outcome):
    """Results of a schedule: outcome(white, black) -> places."""
    return [
        GameResult(r.number, t.players, outcome(*t.players)) for r in schedule for t in r.tables
    ]


def test_an_odd_round_robins_byes_score_nothing_and_are_no_wins():
    entrants = ["a", "b", "c", "d", "e"]
    schedule = round_robin_schedule(entrants, 2)
    results = play(schedule, lambda w, b: (1, 2))  # white always wins
    rows = round_robin_standings(entrants, schedule, results, TWO)
    for row in rows:
        assert dict(row.byes)["U"] == 1
        assert row.points == row.wins  # 1 per win, the bye none
    assert sum(r.points for r in rows) == len(results)


def test_round_robin_tie_breaks_are_head_to_head_then_wins_then_sonneborn_berger():
    # a beat b, b beat c, c beat a; all three drew with d; e lost to everyone. a, b, c
    # and d all have 2.5; head to head among the four, 1.5 each; wins: a, b, c 2, d 1;
    # Sonneborn-Berger equal among a, b, c: they share first, d is fourth.
    entrants = ["a", "b", "c", "d", "e"]
    schedule = round_robin_schedule(entrants, 2)
    beats = {("a", "b"), ("b", "c"), ("c", "a")}

    def outcome(w, b):
        if (w, b) in beats or b == "e":
            return (1, 2)
        if (b, w) in beats or w == "e":
            return (2, 1)
        return (1, 1)

    rows = round_robin_standings(entrants, schedule, play(schedule, outcome), TWO)
    names = [name for name, _ in rows[0].tiebreaks]
    assert names == ["head_to_head", "wins", "sonneborn_berger"]
    got = by_entrant(rows)
    assert {got[e].points for e in "abcd"} == {2.5}
    assert {dict(got[e].tiebreaks)["head_to_head"] for e in "abcd"} == {1.5}
    assert got["a"].rank == got["b"].rank == got["c"].rank == 1
    assert (got["d"].wins, got["d"].rank) == (1, 4)


def test_head_to_head_separates_two_tied_round_robin_players():
    # b beat a; a beat c and d; b beat c; d beat b; c drew d: a and b on 2, b won their
    # game, so b ranks above a.
    entrants = ["a", "b", "c", "d"]
    schedule = round_robin_schedule(entrants, 2)
    winner = {
        frozenset("ab"): "b",
        frozenset("ac"): "a",
        frozenset("ad"): "a",
        frozenset("bc"): "b",
        frozenset("bd"): "d",
    }

    def outcome(w, b):
        found = winner.get(frozenset((w, b)))
        return (1, 1) if found is None else (1, 2) if found == w else (2, 1)

    rows = by_entrant(round_robin_standings(entrants, schedule, play(schedule, outcome), TWO))
    assert rows["a"].points == rows["b"].points == 2.0
    assert dict(rows["b"].tiebreaks)["head_to_head"] == 1.0
    assert (rows["b"].rank, rows["a"].rank) == (1, 2)


def test_a_withdrawal_under_half_the_games_cancels_the_results():
    # 6 entrants: 5 games each. f plays rounds 1-2 (2 < 5/2) then withdraws.
    entrants = ["a", "b", "c", "d", "e", "f"]
    schedule = round_robin_schedule(entrants, 2)
    played = [r for r in schedule if r.number <= 2]
    results = play(played, lambda w, b: (2, 1) if w == "f" else (1, 2) if b == "f" else (1, 1))
    later = [r for r in schedule if r.number > 2]
    results += play(later, lambda w, b: (1, 1))
    rows = round_robin_standings(entrants, schedule, [*results], TWO, withdrawn={"f": 3})
    got = by_entrant(rows)
    assert got["f"].rank is None and rows[-1].entrant == "f"  # listed, unranked, last
    for entrant in "abcde":  # f's games count for nobody: 4 draws each
        assert got[entrant].points == 2.0
    assert {cell_label(c, {}) for c in got["f"].cells if c.mates} == {"x"}


def test_a_withdrawal_from_half_the_games_keeps_them_and_forfeits_the_rest():
    # 4 entrants: 3 games each; d plays rounds 1-2 (2 >= 3/2), then withdraws.
    entrants = ["a", "b", "c", "d"]
    schedule = round_robin_schedule(entrants, 2)
    played = [r for r in schedule if r.number <= 2]
    results = play(played, lambda w, b: (1, 2) if w == "d" else (2, 1) if b == "d" else (1, 1))
    results += [draw(3, *t.players) for t in schedule[2].tables if "d" not in t.players]
    rows = by_entrant(round_robin_standings(entrants, schedule, results, TWO, withdrawn={"d": 3}))
    assert rows["d"].points == 2.0 and rows["d"].forfeits == (0, 1)
    third = next(t for t in schedule[2].tables if "d" in t.players)
    opponent = next(p for p in third.players if p != "d")
    assert rows[opponent].forfeits == (1, 0) and rows[opponent].wins >= 1


# ----------------------------------------------------------------------- CSV


def test_csv_has_numbers_not_booleans_and_escapes_formula_cells():
    rounds, results = swiss_event()
    rows = swiss_standings("abcde", rounds, results, TWO)
    names = {"a": '=HYPERLINK("http://x")', "b": "+1", "c": "-c", "d": "@d", "e": "Eve"}
    text = standings_csv(rows, names, withdrawn={"b"})
    table = list(csv.DictReader(io.StringIO(text)))
    by_entry = {line["entry"]: line for line in table}
    assert by_entry["a"]["name"] == '\'=HYPERLINK("http://x")'
    assert [by_entry[e]["name"] for e in "bcde"] == ["'+1", "'-c", "'@d", "Eve"]
    assert by_entry["b"]["withdrawn"] == "1" and by_entry["a"]["withdrawn"] == "0"
    assert by_entry["c"]["points"] == "1.5" and by_entry["c"]["forfeits_won"] == "1"
    assert "True" not in text and "False" not in text
    assert by_entry["c"]["R2"].endswith("b+") and by_entry["e"]["R1"] == "U"
    assert text.endswith("\r\n")
