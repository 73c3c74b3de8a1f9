"""FIDE TRF export of a 2-player tournament (issue 11: "a FIDE TRF export for 2-player
Swiss"; issue 28: valid while the event runs, the event's scoring, byes H/F/U/Z,
forfeits +/-). Read back three ways: by the column positions of C.04 Annex 2 (start
rank 5-8, name 15-47, rating 49-52, points 81-84, rank 86-89, rounds from 92 in blocks
of 10), by the ``trf`` package from PyPI, and by our own reader; and, when
ARBITER_BBPPAIRINGS names a bbpPairings binary, by the reference pairing engine (the
fixture generator checks that on every golden fixture)."""

from __future__ import annotations

import os
import random
import subprocess
from collections import Counter

import pytest
import trf

from arbiter.tournaments.formats import (
    GameResult,
    Round,
    Scoring,
    Table,
    default_scoring,
    swiss_round,
    swiss_standings,
    trf_export,
)
from arbiter.tournaments.formats.history import record
from arbiter.tournaments.formats.trf_read import read_trf

ENTRANTS = [("a", "Ann Example"), ("b", "Bob"), ("c", "Cy"), ("d", "Dee")]
TWO = default_scoring(2)


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
        "rating": columns(line, 49, 52).strip(),
        "points": float(columns(line, 81, 84)),
        "rank": int(columns(line, 86, 89)),
        "games": games,
    }


def small_tournament():
    """Round 1: a beat b, c drew d. Round 2: a beat d (a black), c forfeited against b
    (b wins by forfeit). Round 3 is being played: a-c goes on, b asked for a half-point
    bye, d has the pairing-allocated bye."""
    rounds = [
        Round(1, (Table(("a", "b")), Table(("c", "d"))), ()),
        Round(2, (Table(("d", "a")), Table(("c", "b"))), ()),
        Round(3, (Table(("a", "c")),), ("d",), (("b", "H"),)),
    ]
    results = [
        GameResult(1, ("a", "b"), (1, 2)),
        GameResult(1, ("c", "d"), (1, 1)),
        GameResult(2, ("d", "a"), (2, 1)),
        GameResult(2, ("c", "b"), (1, 2), forfeited=("c",)),
    ]
    return rounds, results


def lines_of(text: str) -> list[str]:
    return text.split("\r\n")


def players_of(text: str) -> dict:
    """{name: the 001 record read by columns}."""
    found = [parse_player(line) for line in lines_of(text) if line.startswith("001")]
    return {p["name"]: p for p in found}


def test_header_lines_say_the_event_its_rounds_and_its_colours():
    rounds, results = small_tournament()
    text = trf_export("Winter Cup", "2026/12/01", ENTRANTS, rounds, results, total_rounds=5)
    assert lines_of(text)[:9] == [
        "012 Winter Cup",
        "042 2026/12/01",
        "062 4",
        "092 Individual: Swiss-System",
        "142 5",
        "XXR 5",
        "192 FIDE_DUTCH_2025",
        "152 W",
        "XXC white1",
    ]
    assert text.endswith("\r\n") and "162" not in text  # FIDE's scoring: no 162 line


def test_player_lines_by_column_positions_and_the_round_being_played():
    rounds, results = small_tournament()
    text = trf_export("Winter Cup", "2026/12/01", ENTRANTS, rounds, results, ratings={"a": 1834.6})
    by_name = players_of(text)
    assert [p["start"] for p in by_name.values()] == [1, 2, 3, 4]
    assert by_name["Ann Example"]["rating"] == "1835" and by_name["Bob"]["rating"] == ""
    # Rounds 1 and 2 are over; round 3 is not written in the 001 records.
    assert by_name["Ann Example"]["games"] == [("2", "w", "1"), ("4", "b", "1")]
    assert by_name["Ann Example"]["points"] == 2.0 and by_name["Ann Example"]["rank"] == 1
    assert by_name["Bob"]["games"] == [("1", "b", "0"), ("3", "b", "+")]
    assert by_name["Cy"]["games"] == [("4", "w", "="), ("2", "w", "-")]
    assert by_name["Dee"]["games"] == [("3", "b", "="), ("1", "w", "0")]
    assert (by_name["Bob"]["rank"], by_name["Cy"]["rank"]) == (2, 4)
    # Round 3: its set byes as TRF26 240 records, its pairing as comments.
    assert "240 H   3    2" in lines_of(text)
    assert "###    1 -    3: being played" in lines_of(text)
    assert "###    4 pairing-allocated bye" in lines_of(text)


def test_byes_are_u_h_f_z_and_an_absent_entrant_z():
    rounds = [
        Round(1, (Table(("a", "b")),), ("c",), (("d", "H"),)),
        Round(2, (Table(("b", "c")),), (), (("a", "F"), ("d", "Z"))),
    ]
    results = [GameResult(1, ("a", "b"), (1, 2)), GameResult(2, ("b", "c"), (1, 2))]
    entrants = ENTRANTS + [("e", "Eve")]  # e never plays: absent (Z)
    text = trf_export("Byes", "2026/12/01", entrants, rounds, results)
    players = players_of(text)
    assert players["Cy"]["games"][0] == ("0000", "-", "U")
    assert players["Dee"]["games"] == [("0000", "-", "H"), ("0000", "-", "Z")]
    assert players["Ann Example"]["games"][1] == ("0000", "-", "F")
    assert players["Eve"]["games"] == [("0000", "-", "Z"), ("0000", "-", "Z")]
    assert players["Ann Example"]["points"] == 2.0 and players["Dee"]["points"] == 0.5


def test_the_event_scoring_is_written_and_counted():
    # Issue 28: win 3, bye 1.5 was ignored (standings 6.0, TRF 2.0).
    scoring = Scoring((3.0, 0.0), 1.5)
    rounds = [Round(1, (Table(("a", "b")),), ("c",)), Round(2, (Table(("c", "a")),), ("b",))]
    results = [GameResult(1, ("a", "b"), (1, 2)), GameResult(2, ("c", "a"), (1, 1))]
    text = trf_export("Three", "2026/12/01", ENTRANTS[:3], rounds, results, scoring)
    assert "162  W 3.0    D 1.5    L 0.0    P 1.5" in lines_of(text)
    assert "XXS W=3 D=1.5 WL=0 BL=0 PAB=1.5 FPB=3 HPB=1.5 ZPB=0 FL=0" in lines_of(text)
    players = players_of(text)
    rows = {r.entrant: r for r in swiss_standings(["a", "b", "c"], rounds, results, scoring)}
    assert players["Ann Example"]["points"] == rows["a"].points == 4.5
    assert players["Cy"]["points"] == rows["c"].points == 3.0


def test_points_the_format_cannot_write_are_refused():
    rounds = [Round(1, (Table(("a", "b")),), ())]
    results = [GameResult(1, ("a", "b"), (1, 1))]
    with pytest.raises(ValueError, match="tenths"):
        trf_export("X", "2026/12/01", ENTRANTS[:2], rounds, results, Scoring((1.0, 0.5), 1.0))


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
    line = next(row for row in lines_of(text) if row.startswith("001"))
    assert columns(line, 15, 47) == "A" * 33 and columns(line, 81, 84) == " 0.0"


def simulate_event(seed: int):
    """A 2-player Swiss of 9 to 14 entrants over 5 rounds with a withdrawal, a late
    entry, requested byes and forfeits; yields (rounds, results, seeding, upcoming byes,
    absent) at every moment: before each round is paired, and after each game."""
    rng = random.Random(seed)
    entry = [f"p{i}" for i in range(rng.randint(9, 14))]
    rounds, results, gone = [], [], set()
    for number in range(1, 6):
        if number == 3:
            gone.add(entry[1])
        if number == 2:
            entry.append("late")
        active = [e for e in entry if e not in gone]
        requested = {e: rng.choice("HZF") for e in active if rng.random() < 0.08}
        yield list(rounds), list(results), list(entry), requested, sorted(gone)
        byes = Counter(e for r in rounds for e in r.byes)
        rnd = swiss_round(
            active,
            results,
            byes,
            2,
            number,
            TWO,
            rounds=5,
            history=rounds,
            seeding=entry,
            requested_byes=requested,
        )
        rounds.append(rnd)
        for table in rnd.tables:
            roll = rng.random()
            forfeited = (table.players[1],) if roll < 0.1 else ()
            places = rng.choice([(1, 2), (2, 1), (1, 1)])
            results.append(GameResult(number, table.players, places, forfeited))
            yield list(rounds), list(results), list(entry), {}, sorted(gone)


def exports(seed: int):
    """Every TRF of a simulated event, with what it was made from."""
    for rounds, results, entry, requested, gone in simulate_event(seed):
        text = trf_export(
            "Sim",
            "2026/12/01",
            [(e, f"Player {e.upper()}") for e in entry],
            rounds,
            results,
            total_rounds=5,
            upcoming_byes=requested,
            upcoming_absent=gone,
        )
        yield text, rounds, results, entry


@pytest.mark.parametrize("seed", range(4))
def test_every_trf_of_a_whole_event_round_trips(seed):
    count = 0
    for text, rounds, results, entry in exports(seed):
        count += 1
        rows = swiss_standings(entry, rounds, results, TWO)
        last = len(rows[0].cells)  # the rounds over so far
        cells = record(entry, rounds, results, TWO, upto=last)
        start = {e: i + 1 for i, e in enumerate(entry)}
        parsed = trf.loads(text)  # the third-party parser
        ours = read_trf(text)
        assert [p.name for p in parsed.players] == [f"Player {e.upper()}" for e in entry]
        for player, e in zip(parsed.players, entry):
            row = next(r for r in rows if r.entrant == e)
            assert (player.points, player.rank) == (row.points, row.rank)
            assert len(player.games) == last
            assert ours.cells[str(start[e])] == [_renamed(c, start) for c in cells[e]]
            for game, cell in zip(player.games, cells[e]):
                if cell.opponent is not None:
                    assert (game.startrank, game.color) == (start[cell.opponent], "wb"[cell.seat])
                    assert game.result == cell.outcome()
                else:
                    assert (game.startrank, game.result) == (0, _letter(cell))
    assert count > 20


def _letter(cell) -> str:
    return cell.kind if cell.kind in ("U", "H", "F", "Z") else "Z"


def _renamed(cell, start):
    """A cell as our reader gives it back: opponents by start rank; absence and a
    zero-point bye are one code (Z); a place of a loss is 2."""
    from dataclasses import replace

    from arbiter.tournaments.formats.history import ABSENT

    if cell.kind in ("Z", ABSENT):
        return replace(cell, kind=ABSENT)
    if cell.opponent is None:
        return cell
    place = None if cell.kind == "forfeit" else (2 if cell.versus < 0 else 1)
    return replace(cell, mates=(str(start[cell.opponent]),), place=place)


BBP = os.environ.get("ARBITER_BBPPAIRINGS")


@pytest.mark.skipif(not BBP, reason="set ARBITER_BBPPAIRINGS to a bbpPairings binary")
def test_bbppairings_reads_every_trf_of_a_whole_event(tmp_path):
    # Pairing input while the event runs (-p), its checker once it is over (-c).
    for i, (text, rounds, results, _) in enumerate(exports(7)):
        path = tmp_path / f"{i}.trf"
        path.write_text(text)
        over = len(rounds) == 5 and len(results) == sum(len(r.tables) for r in rounds)
        mode = ["-c"] if over else ["-p", str(tmp_path / "out")]
        done = subprocess.run([BBP, "--dutch", str(path), *mode], capture_output=True, text=True)
        assert done.returncode == 0, (text, done.stderr)
        # Its checker re-pairs every round of the event and finds what our engine paired.
        assert "Checker pairings" not in done.stdout, done.stdout
