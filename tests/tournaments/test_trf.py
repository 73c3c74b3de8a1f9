"""FIDE TRF-16 export of a 2-player Swiss (issue 11: "a FIDE TRF export for 2-player
Swiss"). The output is read back twice: by column positions as the TRF16 annex gives them
(C.04 Annex 2: start rank 5-8, name 15-47, points 81-84, rank 86-89, rounds from 92 in
blocks of 10), and by the ``trf`` package's parser from PyPI."""

import random
from collections import Counter

import pytest
import trf

from arbiter.tournaments import GameResult, Round, Table, default_scoring, standings, trf_export
from tests.tournaments.simulate import run_swiss

ENTRANTS = [("a", "Ann Example"), ("b", "Bob"), ("c", "Cy"), ("d", "Dee")]


def columns(line: str, first: int, last: int) -> str:
    """The text of 1-based columns first..last."""
    return line[first - 1 : last]


def parse_player(line: str) -> dict:
    """One 001 line read by column positions."""
    games = []
    start = 92
    while len(line) >= start + 7:
        games.append(
            (
                columns(line, start, start + 3).strip(),
                columns(line, start + 5, start + 5),
                columns(line, start + 7, start + 7),
            )
        )
        start += 10
    return {
        "start": int(columns(line, 5, 8)),
        "name": columns(line, 15, 47).strip(),
        "points": float(columns(line, 81, 84)),
        "rank": int(columns(line, 86, 89)),
        "games": games,
    }


def small_tournament():
    rounds = [
        Round(1, (Table(("a", "b")), Table(("c", "d"))), ()),
        Round(2, (Table(("d", "a")),), ("b",)),
        Round(3, (Table(("a", "c")), Table(("b", "d"))), ()),
    ]
    results = [
        GameResult(1, ("a", "b"), (1, 2)),
        GameResult(1, ("c", "d"), (1, 1)),
        GameResult(2, ("d", "a"), (2, 1)),
        GameResult(3, ("a", "c"), (1, 1)),
    ]
    return rounds, results


def test_header_lines():
    rounds, results = small_tournament()
    text = trf_export("Winter Cup", "2026/12/01", ENTRANTS, rounds, results)
    lines = text.split("\r\n")
    assert lines[:4] == [
        "012 Winter Cup",
        "042 2026/12/01",
        "062 4",
        "092 Individual: Swiss-System",
    ]
    assert text.endswith("\r\n")


def test_player_lines_by_column_positions():
    rounds, results = small_tournament()
    text = trf_export("Winter Cup", "2026/12/01", ENTRANTS, rounds, results)
    players = [parse_player(row) for row in text.split("\r\n") if row.startswith("001")]
    by_name = {p["name"]: p for p in players}
    assert [p["start"] for p in players] == [1, 2, 3, 4]
    # a: beat b (white), beat d (black), drew c (white, game over); 2.5 points, first.
    assert by_name["Ann Example"]["games"] == [("2", "w", "1"), ("4", "b", "1"), ("3", "w", "=")]
    assert by_name["Ann Example"]["points"] == 2.5 and by_name["Ann Example"]["rank"] == 1
    # b: lost to a, pairing-allocated bye (1 point), game with d not finished.
    assert by_name["Bob"]["games"] == [("1", "b", "0"), ("0000", "-", "U"), ("4", "w", " ")]
    assert by_name["Bob"]["points"] == 1.0
    # c: drew d, not paired in round 2 (absent), drew a.
    assert by_name["Cy"]["games"] == [("4", "w", "="), ("0000", "-", "Z"), ("1", "b", "=")]


def test_a_third_party_parser_reads_it():
    rounds, results = small_tournament()
    parsed = trf.loads(trf_export("Winter Cup", "2026/12/01", ENTRANTS, rounds, results))
    assert parsed.name == "Winter Cup"
    assert [p.name for p in parsed.players] == [n for _, n in ENTRANTS]
    ann = parsed.players[0]
    assert (ann.startrank, ann.points, ann.rank) == (1, 2.5, 1)
    assert [(g.startrank, g.color, g.result) for g in ann.games] == [
        (2, "w", "1"),
        (4, "b", "1"),
        (3, "w", "="),
    ]


@pytest.mark.parametrize("seed", range(5))
def test_a_simulated_swiss_round_trips(seed):
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(rng.randint(5, 15))]
    entrants = [(e, f"Player {e.upper()}") for e in ids]
    rounds, results, byes = run_swiss([ids] * 5, 2, seed)
    parsed = trf.loads(trf_export("Sim", "2026/12/01", entrants, rounds, results))
    expected = {s.entrant: s for s in standings(ids, results, byes, default_scoring(2))}
    start = {e: i + 1 for i, e in enumerate(ids)}
    for player, e in zip(parsed.players, ids):
        assert player.points == expected[e].points and player.rank == expected[e].rank
        assert len(player.games) == 5
        for rnd, game in zip(rounds, player.games):
            if e in rnd.byes:
                assert (game.startrank, game.result) == (0, "U")
                continue
            table = next(t for t in rnd.tables if e in t.players)
            other = next(p for p in table.players if p != e)
            assert game.startrank == start[other]
            assert game.color == ("w" if table.players[0] == e else "b")
    # Every game is written twice, with opposite colours and mirrored results.
    mirror = {"1": "0", "0": "1", "=": "="}
    for player in parsed.players:
        for game in player.games:
            if game.startrank:
                other = parsed.players[game.startrank - 1].games[game.round - 1]
                assert other.startrank == player.startrank
                assert {other.color, game.color} == {"w", "b"}
                assert other.result == mirror[game.result]
    assert Counter(g.result for p in parsed.players for g in p.games)["U"] == sum(byes.values())


def test_multiplayer_tables_are_refused():
    rounds = [Round(1, (Table(("a", "b", "c")),), ())]
    with pytest.raises(ValueError):
        trf_export("X", "2026/12/01", ENTRANTS, rounds, [])


def test_unknown_players_are_refused():
    rounds = [Round(1, (Table(("a", "zed")),), ())]
    with pytest.raises(ValueError):
        trf_export("X", "2026/12/01", ENTRANTS, rounds, [])


def test_long_names_are_cut_to_the_name_columns():
    rounds = [Round(1, (Table(("a", "b")),), ())]
    long = [("a", "A" * 50), ("b", "Bob")]
    text = trf_export("X", "2026/12/01", long, rounds, [GameResult(1, ("a", "b"), (2, 1))])
    line = next(row for row in text.split("\r\n") if row.startswith("001"))
    assert columns(line, 15, 47) == "A" * 33 and columns(line, 81, 84) == " 0.0"
