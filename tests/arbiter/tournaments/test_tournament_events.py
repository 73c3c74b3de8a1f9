"""Whole tournaments through the API on both backends (issue 28, "Check"): a Swiss of
9 over 4 rounds and a round robin of 5, with a late entry, a withdrawal, a forfeit at
a round deadline and a requested bye. After every round the TRF parses (our reader of
C.04 Annex 2) and says round for round what the rounds' API says, and the standings
match a recomputation here from the rounds' tables, places, forfeits and byes."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
import time_machine

from arbiter.extensions import db
from arbiter.models import TournamentRound
from arbiter.tournaments.formats.history import ABSENT, FORFEIT, GAME
from arbiter.tournaments.formats.trf_read import read_trf
from tests.arbiter.tournaments.test_tournaments import accounts, advance, create, enter_all, start
from tests.helpers import auth, random_move, until_decision


def _round(client, t: str, n: int) -> dict:
    return client.get(f"/v1/tournaments/{t}/rounds/{n}").json


def _play(client, app, t: str, n: int, token_of: dict, rng, skip: int | None = None) -> dict:
    """Play round ``n``'s games to their end by random legal moves, all but table
    ``skip`` (whose players never move); return the round."""
    rnd = _round(client, t, n)
    for table in rnd["tables"]:
        if table["table"] == skip:
            continue
        tokens = [token_of[p["entry"]] for p in table["players"]]
        while until_decision(client, app, table["game"])["status"] != "over":
            _, _, answer = random_move(client, app, table["game"], tokens, rng)
            assert answer.status_code == 201, answer.json
    return rnd


def _deadline(client, app, t: str, n: int) -> None:
    """Let round ``n``'s deadline pass and run the sweep."""
    with app.app_context():
        late = db.session.get(TournamentRound, (t, n)).deadline
    with time_machine.travel(late, tick=False), app.app_context():
        from arbiter.tournaments import tournament_rounds

        assert tournament_rounds.sweep()["advanced"] == 1


def _game_points(table: dict) -> dict:
    """{entry: points} of a finished 2-player table (win 1, draw 1/2, loss 0; a
    forfeit: 0 to the absent player, 1 to the other)."""
    a, b = (p["entry"] for p in table["players"])
    if table["forfeited"]:
        return {e: 0.0 if e in table["forfeited"] else 1.0 for e in (a, b)}
    pa, pb = table["places"]
    return {
        a: 1.0 if pa < pb else 0.5 if pa == pb else 0.0,
        b: 1.0 if pb < pa else 0.5 if pa == pb else 0.0,
    }


def _recompute(rounds: list[dict], bye_value: dict, extra: dict | None = None) -> dict:
    """{entry: {points, games, wins, buchholz, sonneborn_berger}} from the rounds'
    tables and byes (``bye_value``: points of a bye by letter; ``extra``: {(round,
    entry): points} the test adds, a round robin's forfeit wins against a withdrawn
    player)."""
    total: dict = defaultdict(float)
    games: dict = defaultdict(list)  # entry -> [(opponent, my points)] played
    wins: dict = defaultdict(int)
    for rnd in rounds:
        for table in rnd["tables"]:
            points = _game_points(table)
            for entry, got in points.items():
                total[entry] += got
                wins[entry] += got == 1.0
                if not table["forfeited"]:
                    (other,) = [e for e in points if e != entry]
                    games[entry].append((other, got))
        for bye in rnd["byes"]:
            total[bye["entry"]] += bye_value["U"]
        for bye in rnd["requested_byes"]:
            total[bye["entry"]] += bye_value[bye["bye"]]
        for (number, entry), got in (extra or {}).items():
            if number == rnd["number"]:
                total[entry] += got
                wins[entry] += 1
    out = {}
    for entry in set(total) | set(games):
        out[entry] = {
            "points": total[entry],
            "games": len(games[entry]),
            "wins": wins[entry],
            "buchholz": sum(total[o] for o, _ in games[entry]),
            "sonneborn_berger": sum(got * total[o] for o, got in games[entry]),
        }
    return out


def _check_standings(client, t: str, upto: int, rounds: list[dict], fmt: str, extra=None):
    """The API's standings after round ``upto`` match the recomputation, and ranks are
    shared exactly by rows equal on points and every tie-break."""
    got = client.get(f"/v1/tournaments/{t}/standings?after_round={upto}").json
    assert got["after_round"] == upto
    values = {"U": 1.0 if fmt == "swiss" else 0.0, "H": 0.5, "F": 1.0, "Z": 0.0}
    mine = _recompute(rounds[:upto], values, extra)
    checked = ["points", "games", "wins", "sonneborn_berger"]
    checked += ["buchholz"] if fmt == "swiss" else []
    for row in got["standings"]:
        if row["rank"] is None:
            continue
        want = mine.get(row["entry"], dict.fromkeys(checked, 0))
        for field in checked:
            assert abs(row[field] - want[field]) < 1e-9, (upto, row["name"], field, row, want)
    ranked = [r for r in got["standings"] if r["rank"] is not None]
    keys = [(r["points"], *(r[k] for k in got["tiebreaks"])) for r in ranked]
    assert keys == sorted(keys, reverse=True)
    for i, row in enumerate(ranked):
        shared = i and keys[i] == keys[i - 1]
        assert row["rank"] == (ranked[i - 1]["rank"] if shared else i + 1)
    return got


def _check_trf(
    client,
    t: str,
    rounds: list[dict],
    names: dict,
    standings: dict | None,
    forfeits=None,
    rests=None,
):
    """The TRF parses; for every round over, each player's record says what the
    rounds' API says (``forfeits``: {(round, entry): (opponent, lost, seat)}, a round
    robin's scheduled games against a withdrawn entrant, which the API shows as a bye
    and the TRF as the forfeit they are; ``rests``: {(round, entry): "U"}, the
    withdrawn entrant's scheduled rest rounds); the round being played is in comment
    lines."""
    forfeits, rests = forfeits or {}, rests or {}
    answer = client.get(f"/v1/tournaments/{t}/trf")
    assert answer.status_code == 200 and answer.mimetype == "text/plain"
    text = answer.get_data(as_text=True)
    assert all(line.endswith("\r") or not line for line in text.split("\n"))
    event = read_trf(text)
    entry_of = {rank: names[event.names[rank]] for rank in event.players}
    start = {e: r for r, e in entry_of.items()}
    over = [r for r in rounds if all(tab["places"] is not None for tab in r["tables"])]
    for rank, cells in event.cells.items():
        entry = entry_of[rank]
        assert len(cells) == len(over)
        for cell, rnd in zip(cells, over):
            if (rnd["number"], entry) in forfeits:
                other, lost, seat = forfeits[(rnd["number"], entry)]
                assert cell.kind == FORFEIT and cell.forfeited == lost, (rnd["number"], cell)
                assert cell.mates == (start[other],) and cell.seat == seat
                continue
            table = next(
                (x for x in rnd["tables"] if entry in [p["entry"] for p in x["players"]]), None
            )
            if table is not None:
                seat = [p["entry"] for p in table["players"]].index(entry)
                other = table["players"][1 - seat]["entry"]
                assert cell.mates == (start[other],) and cell.seat == seat
                if table["forfeited"]:
                    assert cell.kind == FORFEIT and cell.forfeited == (entry in table["forfeited"])
                else:
                    assert cell.kind == GAME
                    assert cell.points == _game_points(table)[entry]
                continue
            letters = {b["entry"]: "U" for b in rnd["byes"]}
            letters.update({e: k for (n, e), k in rests.items() if n == rnd["number"]})
            letters.update({b["entry"]: b["bye"] for b in rnd["requested_byes"]})
            assert cell.kind == letters.get(entry, ABSENT), (rnd["number"], entry, cell)
    if standings is not None:
        for row in standings["standings"]:
            assert event.points[start[row["entry"]]] == row["points"]
    playing = [r for r in rounds if r not in over]
    if playing:
        comments = [c for c in event.comments if ": " in c and "round" not in c]
        number = playing[0]["number"]
        unplayed = sum(1 for (n, _), (_, lost, _) in forfeits.items() if n == number and lost)
        assert len(comments) == len(playing[0]["tables"]) + unplayed
    return event


@pytest.mark.slow  # make check leaves it out (many seconds)
def test_a_swiss_of_nine_over_four_rounds(any_app):
    app = any_app
    client = app.test_client()
    organiser, *players = accounts(client, app, 10)
    t = create(client, organiser, name="Check Swiss", rounds=4, round_seconds=3600)["id"]
    base = f"/v1/tournaments/{t}"
    entries = enter_all(client, t, players[:8])  # and a ninth enters late
    token_of = dict(zip(entries, players))
    names = {
        client.get("/v1/me", headers=auth(tok)).json["display_name"]: e
        for e, tok in token_of.items()
    }
    # a requested half-point bye in round 3
    asked = client.post(
        f"{base}/entries/{entries[3]}/byes",
        json={"round": 3, "bye": "half"},
        headers=auth(players[3]),
    )
    assert asked.status_code == 200
    _check_trf(client, t, [], names, None)  # before the start
    start(client, t, organiser)
    rng = random.Random(2028)
    rounds = [_round(client, t, 1)]
    _check_trf(client, t, rounds, names, None)  # round 1 being played
    _play(client, app, t, 1, token_of, rng)
    # a late entry during round 1: paired from round 2
    late = client.post(f"{base}/entries", headers=auth(players[8]))
    assert late.status_code == 201 and late.json["joined_round"] == 2
    token_of[late.json["id"]] = players[8]
    names[late.json["name"]] = late.json["id"]
    assert advance(app, t) == "advanced"
    for number in range(2, 5):
        rounds = [_round(client, t, n) for n in range(1, number)]
        standings = _check_standings(client, t, number - 1, rounds, "swiss")
        rounds.append(_round(client, t, number))
        _check_trf(client, t, rounds, names, standings)
        if number == 2:
            # a withdrawal during round 2: its game goes on, it is not paired from 3
            gone = client.post(f"{base}/entries/{entries[5]}/withdraw", headers=auth(players[5]))
            assert gone.status_code == 200 and gone.json["withdrawn_round"] == 3
            # table 0's players never move: the deadline forfeits the one to move
            _play(client, app, t, 2, token_of, rng, skip=0)
            assert advance(app, t) == "waiting"
            _deadline(client, app, t, 2)
            forfeit = _round(client, t, 2)["tables"][0]
            assert len(forfeit["forfeited"]) == 1
        else:
            _play(client, app, t, number, token_of, rng)
            assert advance(app, t) == "advanced"
    rounds = [_round(client, t, n) for n in range(1, 5)]
    assert rounds[2]["requested_byes"] == [
        {"entry": entries[3], "name": rounds[2]["requested_byes"][0]["name"], "bye": "H"}
    ]
    assert all(
        entries[5] not in [p["entry"] for x in r["tables"] for p in x["players"]]
        for r in rounds[2:]
    )
    assert client.get(base).json["status"] == "over"
    final = _check_standings(client, t, 4, rounds, "swiss")
    event = _check_trf(client, t, rounds, names, final)
    assert len(event.players) == 9 and event.total_rounds == 4
    assert any(r["byes"] for r in rounds)  # a pairing-allocated bye too (U)
    forfeited = rounds[1]["tables"][0]["forfeited"][0]
    row = next(r for r in final["standings"] if r["entry"] == forfeited)
    assert row["forfeits"] == {"won": 0, "lost": 1} and row["crosstable"][1].endswith("-")
    record = client.get(f"{base}/record").json
    from arbiter.verify_tournament import verify_tournament

    verdict = verify_tournament(record)
    assert verdict.ok, verdict.mismatch


@pytest.mark.slow  # make check leaves it out (many seconds)
def test_a_round_robin_of_five(any_app):
    app = any_app
    client = app.test_client()
    organiser, *players = accounts(client, app, 7)
    t = create(
        client, organiser, name="Check RR", format="round_robin", rounds=None, round_seconds=3600
    )["id"]
    base = f"/v1/tournaments/{t}"
    entries = enter_all(client, t, players[:5])
    token_of = dict(zip(entries, players))
    names = {
        client.get("/v1/me", headers=auth(tok)).json["display_name"]: e
        for e, tok in token_of.items()
    }
    start(client, t, organiser)
    # no late entry and no bye to ask for: the schedule is fixed at the start
    late = client.post(f"{base}/entries", headers=auth(players[5]))
    assert late.status_code == 409 and late.json["code"] == "entries-closed"
    no_bye = client.post(
        f"{base}/entries/{entries[0]}/byes",
        json={"round": 3, "bye": "half"},
        headers=auth(players[0]),
    )
    assert no_bye.status_code == 409 and no_bye.json["code"] == "byes-swiss-only"
    events = client.get(f"{base}/events").json["events"]
    schedule = next(e for e in events if e["kind"] == "tournament-started")["payload"]["schedule"]
    assert client.get(base).json["rounds"] == 5
    rng = random.Random(5)
    leaver = entries[4]
    extra = {}
    forfeits = {}  # from round 3 on, the leaver's scheduled games
    for number in range(3, 6):
        for table in schedule[number - 1]["tables"]:
            if leaver in table:
                (other,) = [p for p in table if p != leaver]
                forfeits[(number, leaver)] = (other, True, table.index(leaver))
                forfeits[(number, other)] = (leaver, False, table.index(other))
    rests = {(n, leaver): "U" for n in range(3, 6) if leaver in schedule[n - 1]["byes"]}
    for number in range(1, 6):
        rounds = [_round(client, t, n) for n in range(1, number + 1)]
        if number > 1:
            _check_standings(client, t, number - 1, rounds[:-1], "round_robin", extra)
        _check_trf(client, t, rounds, names, None, forfeits, rests)
        if number == 2:
            # the leaver withdraws during round 2 (2 of 4 games played: results kept)
            gone = client.post(f"{base}/entries/{leaver}/withdraw", headers=auth(token_of[leaver]))
            assert gone.status_code == 200
        if number == 3:
            _play(client, app, t, 3, token_of, rng, skip=0)
            _deadline(client, app, t, 3)
            assert len(_round(client, t, 3)["tables"][0]["forfeited"]) == 1
        else:
            _play(client, app, t, number, token_of, rng)
            assert advance(app, t) == "advanced"
        if number >= 3:  # the leaver's scheduled opponents win by forfeit
            for table in schedule[number - 1]["tables"]:
                if leaver in table:
                    (other,) = [p for p in table if p != leaver]
                    extra[(number, other)] = 1.0
    rounds = [_round(client, t, n) for n in range(1, 6)]
    assert client.get(base).json["status"] == "over"
    final = _check_standings(client, t, 5, rounds, "round_robin", extra)
    assert final["tiebreaks"] == ["head_to_head", "wins", "sonneborn_berger"]
    row = next(r for r in final["standings"] if r["entry"] == leaver)
    assert row["withdrawn"] and row["rank"] is not None and row["forfeits"]["lost"] >= 2
    event = _check_trf(client, t, rounds, names, None, forfeits, rests)
    start_of = {names[event.names[r]]: r for r in event.players}
    for row in final["standings"]:  # nobody's results cancelled: the TRF's points agree
        assert event.points[start_of[row["entry"]]] == row["points"]
    record = client.get(f"{base}/record").json
    from arbiter.verify_tournament import verify_tournament

    verdict = verify_tournament(record)
    assert verdict.ok, verdict.mismatch
