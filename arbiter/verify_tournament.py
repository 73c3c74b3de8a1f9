"""Checking a finished tournament's record (``GET /v1/tournaments/{id}/record``).

``verify_tournament(record)`` needs nothing but the record and the engines, like
:func:`arbiter.verify.verify` for one game (``arbiter verify RECORD.json`` takes
either). It checks that:

1. every game's record verifies (seed, every roll, the replay, the result);
2. the games are exactly those the log's ``round-paired`` events name, each seated as
   paired (names in seat order);
3. every ``round-ended`` event's places are those of its game's result;
4. the standings, recomputed from the game records (a seat a round deadline forfeited
   before it moved is a forfeit), the log's rounds (tables, byes, requested byes,
   seeding; a round robin's schedule) and the scoring, as the service computes them
   (:func:`arbiter.tournaments.tournament_standings.compute`), are the record's.
"""

from __future__ import annotations

from collections import Counter

import engines
from arbiter.tournaments import formats as pairing
from arbiter.tournaments import tournament_standings as standings_of
from arbiter.tournaments.tournament_results import places, schedule_rounds
from arbiter.verify import Mismatch, Verdict, verify

COMPARED = (
    "rank",
    "entry",
    "points",
    "games",
    "wins",
    "byes",
    "bye_kinds",
    "forfeits",
    "buchholz",
    "sonneborn_berger",
    "head_to_head",
    "crosstable",
)
"""The standing fields the check recomputes."""


def verify_tournament(record: dict) -> Verdict:
    """Check a tournament record (see the module); return a :class:`Verdict` whose
    counts add up its games' rolls and moves."""
    verdict = Verdict(ok=True)
    try:
        _check(record, verdict)
    except Mismatch as err:
        verdict.ok, verdict.mismatch = False, str(err)
    except (KeyError, TypeError, ValueError) as err:
        verdict.ok, verdict.mismatch = False, f"the record is incomplete: {err!r}"
    return verdict


def _check(record: dict, verdict: Verdict) -> None:
    games = {g["id"]: g for g in record["games"]}
    for game_id, game in games.items():
        one = verify(game)
        if not one.ok:
            raise Mismatch(f"game {game_id}: {one.mismatch}")
        verdict.rolls += one.rolls
        verdict.moves += one.moves
    names = {e["id"]: e["name"] for e in record["entries"]}
    paired, byes = _pairings(record["events"])
    if set(paired) != set(games):
        raise Mismatch(f"the log pairs games {sorted(paired)}, the record holds {sorted(games)}")
    results = {}
    for game_id, (number, players) in paired.items():
        seated = [p["name"] for p in sorted(games[game_id]["players"], key=lambda p: p["seat"])]
        if seated != [names[p] for p in players]:
            raise Mismatch(
                f"game {game_id} seats {seated}, the log paired {[names[p] for p in players]}"
            )
        ranking = (games[game_id]["result"] or {}).get("ranking", [])
        absent = _absent(games[game_id])
        results[game_id] = pairing.GameResult(
            number,
            tuple(players),
            places(ranking, len(players)),
            tuple(p for i, p in enumerate(players) if i in absent),
        )
    _check_round_ends(record["events"], results, paired)
    given = [{k: row.get(k) for k in COMPARED} for row in record["standings"]]
    recomputed = [{k: row[k] for k in COMPARED} for row in _standings(record, results)]
    if recomputed != given:
        raise Mismatch(
            f"the standings recomputed from the games are {recomputed}, the record says {given}"
        )


def _standings(record: dict, results: dict) -> list[dict]:
    """The standings recomputed from the log's rounds and the games' results, as the
    service computes them (:func:`arbiter.tournaments.tournament_standings.compute`)."""
    summary = record["tournament"]
    scoring = pairing.Scoring(
        tuple(summary["scoring"]["place_points"]), summary["scoring"]["bye_points"]
    )
    rounds, seeding, schedule = [], None, None
    boards: dict[int, list] = {}
    for event in record["events"]:
        payload = event["payload"]
        if event["kind"] == "tournament-started" and payload.get("schedule") is not None:
            schedule = (payload["entries"], schedule_rounds(payload["schedule"]))
        if event["kind"] == "round-paired":
            seeding = payload.get("seeding", seeding)
            boards[payload["round"]] = [
                pairing.Table(tuple(t["players"])) for t in payload["tables"]
            ]
            rounds.append(
                pairing.Round(
                    payload["round"],
                    tuple(boards[payload["round"]]),
                    tuple(payload["byes"]),
                    tuple((e, k) for e, k in payload.get("requested_byes", [])),
                )
            )
    names = {e["id"]: e["name"] for e in record["entries"]}
    last = max((r.number for r in rounds), default=0)
    present = [
        e
        for e in record["entries"]
        if (e["withdrawn_round"] is None or e["withdrawn_round"] > e["joined_round"])
        and e["joined_round"] <= last
    ]
    withdrawn = {e["id"]: e["withdrawn_round"] for e in present if e["withdrawn_round"]}
    if schedule is not None:
        entrants = schedule[0]
    else:
        entrants = seeding or [e["id"] for e in present]
    table = standings_of.compute(
        summary["format"],
        entrants,
        rounds,
        list(results.values()),
        scoring,
        schedule=schedule[1] if schedule else None,
        withdrawn=withdrawn,
        least_players=max(2, engines.get(summary["engine"]).min_players),
    )
    return standings_of.rows_json(table, names, withdrawn)


def _pairings(events: list[dict]) -> tuple[dict[str, tuple[int, list[str]]], dict[str, int]]:
    """Return ``{game: (round, players)}`` and ``{entry: byes}`` from the log."""
    paired, byes = {}, Counter()
    for event in events:
        if event["kind"] == "round-paired":
            payload = event["payload"]
            byes.update(payload["byes"])
            for table in payload["tables"]:
                paired[table["game"]] = (payload["round"], table["players"])
    return paired, dict(byes)


def _absent(game: dict) -> tuple[int, ...]:
    """The seats a round deadline forfeited before they made a move (``absent``)."""
    return tuple(
        e["seat"]
        for e in game["events"]
        if e["kind"] == "resigned" and (e.get("payload") or {}).get("absent")
    )


def _check_round_ends(events: list[dict], results: dict, paired: dict) -> None:
    """:raises Mismatch: a ``round-ended`` result that is not its game's."""
    for event in events:
        if event["kind"] != "round-ended":
            continue
        for row in event["payload"]["results"]:
            number, players = paired.get(row["game"], (None, None))
            if players != row["players"]:
                raise Mismatch(
                    f"round {event['payload']['round']}: game {row['game']} "
                    "ended with other players than it was paired with"
                )
            logged = tuple(row["places"])
            derived = results[row["game"]].places
            if logged != derived:
                raise Mismatch(
                    f"round {number}: game {row['game']} logged places "
                    f"{list(logged)}, its record gives {list(derived)}"
                )
