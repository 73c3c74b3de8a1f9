"""Standings and tie-breaks (issue 11: Buchholz, Sonneborn-Berger and their multiplayer
analogue, head-to-head), on hand-computed tournaments."""

import pytest

from arbiter.tournaments.formats import GameResult, Scoring, default_scoring, standings


def win(r, white, black):
    return GameResult(round=r, players=(white, black), places=(1, 2))


def loss(r, white, black):
    return GameResult(round=r, players=(white, black), places=(2, 1))


def draw(r, white, black):
    return GameResult(round=r, players=(white, black), places=(1, 1))


# R1: A beats B, C draws D. R2: A draws C, B beats D. R3: A beats D, B draws C.
# Points A 2.5, B 1.5, C 1.5, D 0.5.
TWO_PLAYER = [
    win(1, "A", "B"),
    draw(1, "C", "D"),
    draw(2, "A", "C"),
    win(2, "B", "D"),
    win(3, "A", "D"),
    draw(3, "B", "C"),
]


def by_entrant(rows):
    return {row.entrant: row for row in rows}


def test_points_and_games_of_a_two_player_tournament():
    rows = by_entrant(standings("ABCD", TWO_PLAYER, {}, default_scoring(2)))
    assert {e: r.points for e, r in rows.items()} == {"A": 2.5, "B": 1.5, "C": 1.5, "D": 0.5}
    assert {r.games for r in rows.values()} == {3}


def test_buchholz_is_the_sum_of_the_opponents_points():
    rows = by_entrant(standings("ABCD", TWO_PLAYER, {}, default_scoring(2)))
    # A met B, C, D: 1.5 + 1.5 + 0.5; D met C, B, A: 1.5 + 1.5 + 2.5.
    assert {e: r.buchholz for e, r in rows.items()} == {"A": 3.5, "B": 4.5, "C": 4.5, "D": 5.5}


def test_sonneborn_berger_is_beaten_opponents_plus_half_the_drawn():
    rows = by_entrant(standings("ABCD", TWO_PLAYER, {}, default_scoring(2)))
    # A: beat B (1.5), drew C (0.75), beat D (0.5); B: beat D (0.5), drew C (0.75);
    # C: drew D, A, B (0.25 + 1.25 + 0.75); D: drew C (0.75).
    assert {e: r.sonneborn_berger for e, r in rows.items()} == {
        "A": 2.75,
        "B": 1.25,
        "C": 2.25,
        "D": 0.75,
    }


def test_head_to_head_counts_only_games_against_the_tied():
    rows = by_entrant(standings("ABCD", TWO_PLAYER, {}, default_scoring(2)))
    assert {e: r.head_to_head for e, r in rows.items()} == {"A": 0, "B": 0.5, "C": 0.5, "D": 0}


def test_ties_on_points_and_buchholz_go_to_sonneborn_berger():
    rows = standings("ABCD", TWO_PLAYER, {}, default_scoring(2))
    assert [r.entrant for r in rows] == ["A", "C", "B", "D"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_head_to_head_breaks_what_buchholz_and_sonneborn_berger_leave():
    # A beat B, C beat D, then B beat C and A lost to D: all on 1 point; Buchholz 2 each,
    # SB 1 each; head-to-head among the four is each one's own point.
    results = [win(1, "A", "B"), win(1, "C", "D"), win(2, "B", "C"), loss(2, "A", "D")]
    rows = standings("ABCD", results, {}, default_scoring(2))
    assert {r.points for r in rows} == {1.0}
    assert {r.buchholz for r in rows} == {2.0}
    assert {r.sonneborn_berger for r in rows} == {1.0}
    assert {r.head_to_head for r in rows} == {1.0}
    assert [r.entrant for r in rows] == ["A", "B", "C", "D"]  # then entrant id


def test_head_to_head_decides_when_points_buchholz_and_sonneborn_berger_are_equal():
    # R1: E beat B, D beat F, Q drew P. R2: P beat D, E beat F, B drew Q.
    # R3: D beat P, E drew Q, B beat F. B, P and Q are on 1.5; P and Q both have Buchholz
    # 5.5 (Q: 1.5 + 1.5 + 2.5; P: 1.5 + 2 + 2) and Sonneborn-Berger 2.75; against the
    # tied, Q drew P and B (1) and P drew Q (1/2): Q ranks above P though "P" < "Q".
    results = [
        win(1, "E", "B"),
        loss(1, "F", "D"),
        draw(1, "Q", "P"),
        loss(2, "D", "P"),
        loss(2, "F", "E"),
        draw(2, "B", "Q"),
        win(3, "D", "P"),
        draw(3, "E", "Q"),
        win(3, "B", "F"),
    ]
    rows = standings("BDEFPQ", results, {}, default_scoring(2))
    got = by_entrant(rows)
    assert got["P"].points == got["Q"].points == got["B"].points == 1.5
    assert got["P"].buchholz == got["Q"].buchholz == 5.5
    assert got["P"].sonneborn_berger == got["Q"].sonneborn_berger == 2.75
    assert (got["Q"].head_to_head, got["P"].head_to_head) == (1.0, 0.5)
    assert [r.entrant for r in rows] == ["E", "D", "Q", "P", "B", "F"]


# 3-player tables, scoring (1, 1/2, 0):
# R1: (A, B, C) places 1, 2, 3; (D, E, F) places 1, 1, 3 -> D and E 0.75 each.
# R2: (A, D, F) places 2, 1, 3; (B, C, E) places 1, 2, 3.
# Totals: A 1.5, B 1.5, C 0.5, D 1.75, E 0.75, F 0.
THREE_PLAYER = [
    GameResult(1, ("A", "B", "C"), (1, 2, 3)),
    GameResult(1, ("D", "E", "F"), (1, 1, 3)),
    GameResult(2, ("A", "D", "F"), (2, 1, 3)),
    GameResult(2, ("B", "C", "E"), (1, 2, 3)),
]


def test_multiplayer_tie_breaks_use_all_table_mates():
    rows = standings("ABCDEF", THREE_PLAYER, {}, default_scoring(3))
    assert [r.entrant for r in rows] == ["D", "A", "B", "E", "C", "F"]
    got = by_entrant(rows)
    assert got["D"].points == 1.75 and got["E"].points == 0.75
    # A: mates B, C (1.5 + 0.5) then D, F (1.75 + 0); B: A, C (2) then C, E (1.25).
    assert got["A"].buchholz == 3.75 and got["B"].buchholz == 3.25
    # A: 1 x 2 + 0.5 x 1.75; B: 0.5 x 2 + 1 x 1.25; D: 0.75 x 0.75 + 1 x 1.5.
    assert got["A"].sonneborn_berger == 2.875
    assert got["B"].sonneborn_berger == 2.25
    assert got["D"].sonneborn_berger == pytest.approx(2.0625)
    # A and B are tied on 1.5 and met once, A placing above B.
    assert got["A"].head_to_head == 1.0 and got["B"].head_to_head == 0.0


def test_byes_score_points_but_no_tie_break():
    scoring = Scoring(place_points=(1.0, 0.5, 0.0), bye_points=0.5)
    rows = by_entrant(standings("ABCDEFG", THREE_PLAYER, {"G": 2, "C": 1}, scoring))
    assert rows["G"].points == 1.0 and rows["G"].games == 0 and rows["G"].byes == 2
    assert rows["G"].buchholz == 0 and rows["G"].sonneborn_berger == 0
    assert rows["C"].points == 1.0 and rows["C"].byes == 1
    # C's bye raises its table-mates' Buchholz: A met C once.
    assert rows["A"].buchholz == 4.25


def test_a_withdrawn_entrant_is_not_listed_but_counts_for_opponents():
    rows = by_entrant(standings("ABC", TWO_PLAYER, {}, default_scoring(2)))
    assert set(rows) == {"A", "B", "C"}
    assert rows["A"].buchholz == 3.5  # D's 0.5 still counts


def test_a_late_entrant_has_fewer_games():
    late = TWO_PLAYER + [win(4, "E", "D")]
    rows = by_entrant(standings("ABCDE", late, {}, default_scoring(2)))
    assert rows["E"].games == 1 and rows["E"].points == 1.0
    assert rows["D"].games == 4


def test_a_forfeit_scores_nothing_for_the_absent_player():
    # Issue 28: a forfeit is no played loss; the absent player scores 0 even when a loss
    # is worth something.
    scoring = Scoring(place_points=(3.0, 1.0), bye_points=3.0)
    results = [GameResult(1, ("A", "B"), (1, 2), forfeited=("B",))]
    rows = by_entrant(standings("AB", results, {}, scoring))
    assert (rows["A"].points, rows["B"].points) == (3.0, 0.0)
